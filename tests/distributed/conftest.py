"""Shared inputs of the Dask tests: the bundled sample with a third reference.

The third reference (the sample's German source, a text of other lengths) makes
TER's average reference length a fraction, the case summed in order.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.data import SAMPLE_HYPS, SAMPLE_REFS, SAMPLE_SOURCE

pytest.importorskip("distributed")  # the bleuviz[dask] extra (CI installs it)

HYPS = [str(path) for path in SAMPLE_HYPS]
REFS = [str(path) for path in SAMPLE_REFS]
THREE_REFS = [*REFS, str(SAMPLE_SOURCE)]
N_SAMPLE = len(Path(HYPS[0]).read_text(encoding="utf-8").splitlines())


def bounds_for(n: int, parts: int) -> list[int]:
    """Partition starts (and ``n``) for 1, 3 or 7 partitions of ``n`` segments: from three
    on with empty ones (first, middle, last) and a one-segment one."""
    return {
        1: [0, n],
        3: [0, 0, n // 3, n],
        7: [0, 1, n // 10, n // 10, n // 3, (2 * n) // 3, n, n],
    }[parts]
