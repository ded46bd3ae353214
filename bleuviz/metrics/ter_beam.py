"""sacrebleu's beam edit distance for many word sequences at once, in numpy.

Replicates ``BeamEditDistance`` of sacrebleu 2.6 (``sacrebleu/metrics/lib_ter.py``):
the Levenshtein matrix of a hypothesis against its reference, computed only in
a band of ``_BEAM_WIDTH`` cells either side of the "pseudo-diagonal"
``floor(i * len(ref) / len(hyp))`` (wider for very unequal lengths), the last
row in full; cells outside the band hold ``_INT_INFINITY``, and a cell whose
every move costs at least that keeps it. sacrebleu's row cache is left out: a
cached row is the row it would compute again (all hypotheses of one segment
have one length), so it changes the speed, not the numbers.

Here a batch of sequences, padded to one shape, advances one matrix row at a
time; within a row, the insertion chain ``d[j] = min(a[j], d[j - 1] + 1)`` is
``j + cummin(a[k] - k)``. All costs are integers, so the matrices equal
sacrebleu's exactly, and :func:`trace` reads sacrebleu's preferred operation
(match or substitution, then deletion, then insertion) back from them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bleuviz.arrays import IntArray

#: sacrebleu's _INT_INFINITY and _BEAM_WIDTH.
INF = 10**16
BEAM_WIDTH = 25
#: Sequences per padded batch (sorted by length first, so padding stays small).
BATCH = 512


class OutsideBeam(Exception):
    """The trace reached a cell sacrebleu leaves undefined (its ``_OP_UNDEF``)."""


def beam_distances(
    hyps: Sequence[Sequence[int]], refs: Sequence[Sequence[int]], keep: Sequence[bool]
) -> tuple[list[int], list[IntArray | None]]:
    """Return the beam edit distance of every pair, and the matrices ``keep`` asks for.

    A kept matrix has ``len(hyp) + 1`` rows and at least ``len(ref) + 1`` columns.
    """
    costs: list[int] = [0] * len(hyps)
    kept: list[IntArray | None] = [None] * len(hyps)
    order = sorted(range(len(hyps)), key=lambda k: (len(hyps[k]), len(refs[k])))
    for start in range(0, len(order), BATCH):
        batch = order[start : start + BATCH]
        matrices = _batch([hyps[k] for k in batch], [refs[k] for k in batch])
        for row, k in enumerate(batch):
            costs[k] = int(matrices[row, len(hyps[k]), len(refs[k])])
            if keep[k]:
                kept[k] = matrices[row, : len(hyps[k]) + 1].copy()
    return costs, kept


def _batch(hyps: Sequence[Sequence[int]], refs: Sequence[Sequence[int]]) -> IntArray:
    """The (B, max hyp + 1, max ref + 1) matrices of a batch (padding cells are junk)."""
    n_hyp = np.array([len(h) for h in hyps], dtype=np.int64)
    n_ref = np.array([len(r) for r in refs], dtype=np.int64)
    width = int(n_ref.max()) + 1
    hyp_ids = np.full((len(hyps), max(int(n_hyp.max()), 1)), -1, dtype=np.int64)
    ref_ids = np.full((len(refs), width - 1), -2, dtype=np.int64)
    for row, (h, r) in enumerate(zip(hyps, refs, strict=True)):
        hyp_ids[row, : len(h)] = h
        ref_ids[row, : len(r)] = r
    # sacrebleu: length_ratio = n_ref / n_hyp if words_h else 1; a wider beam when
    # the lengths are so unequal that rows would not overlap.
    ratio = np.divide(n_ref, n_hyp, out=np.ones(len(hyps)), where=n_hyp > 0)
    beam = np.where(ratio / 2 > BEAM_WIDTH, np.ceil(ratio / 2 + BEAM_WIDTH), BEAM_WIDTH)
    beam = beam.astype(np.int64)
    columns = np.arange(width, dtype=np.int64)
    dist = np.empty((len(hyps), int(n_hyp.max()) + 1, width), dtype=np.int64)
    dist[:, 0] = columns  # the first row: one insertion per reference word
    moves = np.empty((len(hyps), width), dtype=np.int64)
    for i in range(1, int(n_hyp.max()) + 1):
        diagonal = np.floor(i * ratio).astype(np.int64)
        low = np.maximum(0, diagonal - beam)
        high = np.where(i == n_hyp, n_ref + 1, np.minimum(n_ref + 1, diagonal + beam))
        prev = dist[:, i - 1]
        np.add(prev[:, :-1], hyp_ids[:, i - 1, None] != ref_ids, out=moves[:, 1:])
        np.minimum(moves[:, 1:], prev[:, 1:] + 1, out=moves[:, 1:])
        moves[:, 0] = prev[:, 0] + 1
        outside = (columns < low[:, None]) | (columns >= high[:, None])
        np.copyto(moves, INF, where=outside)
        moves -= columns
        cells = dist[:, i]
        np.minimum.accumulate(moves, axis=1, out=cells)
        cells += columns
        np.minimum(cells, INF, out=cells)
        np.copyto(cells, INF, where=outside)
    return dist


def trace(matrix: IntArray, hyp: Sequence[int], ref: Sequence[int]) -> str:
    """Return sacrebleu's trace of edit operations (``' '``, ``'s'``, ``'i'``, ``'d'``).

    Raises:
        OutsideBeam: the path leaves the computed band (sacrebleu raises there too).
    """
    ops: list[str] = []
    i, j = len(hyp), len(ref)
    while i > 0 or j > 0:
        cost = int(matrix[i, j])
        if cost >= INF:
            raise OutsideBeam(f"cell ({i}, {j}) of the beam edit distance is undefined")
        if i == 0:
            op = "i"  # the first row's operation
        elif j == 0:
            op = "d"
        elif matrix[i - 1, j - 1] + (hyp[i - 1] != ref[j - 1]) == cost:
            op = " " if hyp[i - 1] == ref[j - 1] else "s"
        elif matrix[i - 1, j] + 1 == cost:
            op = "d"
        elif matrix[i, j - 1] + 1 == cost:
            op = "i"
        else:  # pragma: no cover - a cell's cost always comes from one of its moves
            raise OutsideBeam(f"cell ({i}, {j}) of the beam edit distance has no move")
        ops.append(op)
        i -= op != "i"
        j -= op != "d"
    return "".join(reversed(ops))
