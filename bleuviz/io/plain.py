"""Read plain-text files, one segment per line, into a ``TestSet``.

Each hypothesis, reference, source or document-id file holds one segment per
line, as sacrebleu reads it, except that mismatched line counts are refused
instead of silently truncated. A system is named after its hypothesis file.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bleuviz.errors import InputError
from bleuviz.io.assemble import build_testset
from bleuviz.io.decode import DEFAULT_MAX_BYTES, NamedBytes, decode_lines, plural
from bleuviz.io.testset import TestSet


def system_name_from_filename(name: str) -> str:
    """Derive a system name: basename without its last extension or a leading ``hyp.``.

    ``"out/hyp.online-B.0.de.txt"`` gives ``"online-B.0.de"``.
    """
    base = re.split(r"[\\/]", name)[-1]
    stem = base.rpartition(".")[0]
    base = stem or base
    if base.startswith("hyp.") and len(base) > len("hyp."):
        base = base[len("hyp.") :]
    return base or "system"


def load_plain(
    hyps: Sequence[NamedBytes],
    refs: Sequence[NamedBytes],
    source: NamedBytes | None = None,
    docids: NamedBytes | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> TestSet:
    """Load plain-text files with one segment per line; all must have as many lines.

    Raises:
        InputError: no hypothesis or reference file, a file is refused by
            ``decode_lines``, or the line counts differ (every file is listed).
    """
    if not hyps:
        raise InputError("no hypothesis file given: at least one is required")
    if not refs:
        raise InputError("no reference file given: at least one is required")
    files = [*refs, *hyps, *(f for f in (source, docids) if f is not None)]
    read = {id(f): decode_lines(f, max_bytes) for f in files}  # by identity: no hashing of data
    _check_counts([(f.name, len(read[id(f)])) for f in files])
    return build_testset(
        [(system_name_from_filename(f.name), read[id(f)]) for f in hyps],
        references=[read[id(f)] for f in refs],
        source=None if source is None else read[id(source)],
        doc_ids=None if docids is None else read[id(docids)],
    )


def _check_counts(counts: Sequence[tuple[str, int]]) -> None:
    """Refuse files whose line counts differ, naming every file with its count."""
    if len({n for _, n in counts}) > 1:
        listing = ", ".join(f"{name} has {plural(n, 'line')}" for name, n in counts)
        raise InputError(f"line counts differ: {listing}")
