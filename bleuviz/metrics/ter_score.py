"""TER's segment statistics, equal to sacrebleu 2.6's ``TER``.

A segment's statistics are sacrebleu's ``[best edits, average reference
length]`` (``TER._compute_segment_statistics``): the fewest edits over the
references and the mean of their lengths in words. Words come from sacrebleu's
own tercom tokenizer (through the adapter); the edits from
:func:`bleuviz.metrics.ter_shifts.edit_counts`, a batched replica of its
``translation_edit_rate``. :func:`ter_statistics` is pure (text in, statistics
out), so chunks of segments can go to worker processes and be concatenated.
TER's options are :class:`bleuviz.metrics.ter_config.TerConfig`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bleuviz.arrays import FloatArray
from bleuviz.metrics.ter_config import TerConfig
from bleuviz.metrics.ter_shifts import edit_counts


def ter_statistics(
    hyps: Sequence[str], references: Sequence[Sequence[str]], config: TerConfig
) -> FloatArray:
    """Return (N, 2) ``[best edits, average reference length]`` per segment.

    ``references`` are streams as long as ``hyps`` (checked by the caller).
    """
    from bleuviz.metrics.sacrebleu_adapter import ter_words  # sacrebleu, for TER only

    words = ter_words(config)
    vocabulary: dict[str, int] = {}

    def ids(line: str) -> list[int]:
        return [vocabulary.setdefault(word, len(vocabulary)) for word in words(line)]

    hyp_ids = [ids(line) for line in hyps]
    best = np.full(len(hyps), np.iinfo(np.int64).max, dtype=np.int64)
    lengths = np.zeros(len(hyps), dtype=np.int64)
    for stream in references:
        ref_ids = [ids(line) for line in stream]
        best = np.minimum(best, edit_counts(hyp_ids, ref_ids))
        lengths += np.fromiter(map(len, ref_ids), np.int64, len(ref_ids))
    # sacrebleu: avg_ref_len = ref_lengths / len(ref_words), a float division of ints.
    average = [int(total) / len(references) for total in lengths]
    return np.column_stack([best.astype(np.float64), np.array(average)])
