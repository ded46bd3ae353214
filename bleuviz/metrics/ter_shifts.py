"""TER's number of edits for many segments at once, equal to sacrebleu 2.6's ``lib_ter``.

``translation_edit_rate`` (``sacrebleu/metrics/lib_ter.py``) repeats, per
segment: compute the beam edit distance and its trace, list candidate shifts
(``_shift``: matching word runs of at most 10 words within 50 positions, where
both sides have an error and the run is not already aligned in place), score
every shifted hypothesis, keep the best (largest gain, then longest, earliest,
earliest target) while it lowers the distance, and stop after 1,000 candidates
in all. This module runs that loop for all segments in lockstep: every round,
all candidates of all segments go to one batched edit distance
(:mod:`bleuviz.metrics.ter_beam`), so the per-cell work is numpy's. The shift
listing and the choice of the best keep sacrebleu's Python, its order and ties.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from bleuviz.arrays import IntArray
from bleuviz.metrics.ter_beam import beam_distances, trace

#: sacrebleu's _MAX_SHIFT_SIZE, _MAX_SHIFT_DIST and _MAX_SHIFT_CANDIDATES.
MAX_SHIFT_SIZE = 10
MAX_SHIFT_DIST = 50
MAX_SHIFT_CANDIDATES = 1000

_FLIP = str.maketrans("id", "di")


@dataclass(slots=True)
class _Search:
    """One segment's shift search in progress (working state, not a result)."""

    hyp: list[int]
    ref: list[int]
    cost: int
    matrix: IntArray
    shifts: int = 0
    checked: int = 0
    candidates: list[tuple[int, int, int, list[int]]] = field(default_factory=list)


def edit_counts(hyps: Sequence[list[int]], refs: Sequence[list[int]]) -> list[int]:
    """Return sacrebleu's TER edits (shifts plus edit distance) of each (hyp, ref) pair.

    Words are integer ids. An empty reference costs one edit per hypothesis word,
    as in sacrebleu.
    """
    edits = [len(h) for h in hyps]
    todo = [k for k, r in enumerate(refs) if r]
    costs, matrices = beam_distances(
        [hyps[k] for k in todo], [refs[k] for k in todo], [True] * len(todo)
    )
    searches = {
        k: _Search(list(hyps[k]), list(refs[k]), cost, matrix)
        for k, cost, matrix in zip(todo, costs, matrices, strict=True)
        if matrix is not None
    }
    while searches:
        for search in searches.values():
            search.candidates = _candidates(search)
        owners = [k for k, s in searches.items() for _ in s.candidates]
        shifted = [c[3] for s in searches.values() for c in s.candidates]
        costs, _ = beam_distances(shifted, [searches[k].ref for k in owners], [False] * len(owners))
        chosen = _choose(searches, costs)
        finished = [k for k in searches if k not in chosen]
        for k in finished:
            edits[k] = searches[k].shifts + searches[k].cost
            del searches[k]
        _advance(searches, chosen)
    return edits


@dataclass(frozen=True, slots=True)
class Shift:
    """One shift TER takes: ``length`` words from ``start`` moved before ``target``."""

    start: int
    length: int
    target: int
    words: tuple[int, ...]  # the hypothesis after the shift
    distance: int  # its edit distance to the reference


@dataclass(frozen=True, slots=True)
class EditScript:
    """One hypothesis against one reference: the shifts taken, then the edit trace.

    ``trace`` has one letter per step of the shifted hypothesis against the
    reference: ``' '`` a match, ``'s'`` a substitution, ``'d'`` a hypothesis word
    deleted, ``'i'`` a reference word inserted.
    """

    shifts: tuple[Shift, ...]
    words: tuple[int, ...]
    trace: str
    distance: int

    @property
    def edits(self) -> int:
        """TER's edits: the shifts plus the edit distance after them."""
        return len(self.shifts) + self.distance


def edit_script(hyp: Sequence[int], ref: Sequence[int]) -> EditScript:
    """Return the shifts and edits ``edit_counts`` counts for one pair, step by step.

    The same search as :func:`edit_counts` (its candidates, their ranking and its
    stopping rules), for one segment, keeping what it did. An empty reference
    deletes every hypothesis word, as in sacrebleu.
    """
    if not ref:
        return EditScript((), tuple(hyp), "d" * len(hyp), len(hyp))
    costs, matrices = beam_distances([hyp], [ref], [True])
    search = _Search(list(hyp), list(ref), costs[0], matrices[0])  # type: ignore[arg-type]
    shifts: list[Shift] = []
    while True:
        search.candidates = _candidates(search)
        n = len(search.candidates)
        costs, _ = beam_distances([c[3] for c in search.candidates], [ref] * n, [False] * n)
        chosen = _choose({0: search}, costs)
        if not chosen:
            break
        # _choose's rank; the first of the highest, as there.
        ranks = [
            (search.cost - cost, length, -start, -target)
            for (length, start, target, _), cost in zip(search.candidates, costs, strict=True)
        ]
        length, start, target, words = search.candidates[ranks.index(max(ranks))]
        _advance({0: search}, chosen)
        shifts.append(Shift(start, length, target, tuple(words), search.cost))
    steps = trace(search.matrix, search.hyp, ref)
    return EditScript(tuple(shifts), tuple(search.hyp), steps, search.cost)


def _choose(searches: dict[int, _Search], costs: list[int]) -> dict[int, tuple[int, list[int]]]:
    """Pick each segment's best shift, if it is to be taken: {segment: (cost, words)}.

    sacrebleu ranks candidates by (gain, length, -start, -target) and keeps the
    first of the highest; it stops without shifting once 1,000 candidates were
    scored, or when the best gain is not positive.
    """
    chosen: dict[int, tuple[int, list[int]]] = {}
    position = 0
    for k, search in searches.items():
        best: tuple[int, int, int, int] | None = None
        words: list[int] = []
        cost = 0
        for length, start, target, shifted in search.candidates:
            rank = (search.cost - costs[position], length, -start, -target)
            if best is None or rank > best:
                best, words, cost = rank, shifted, costs[position]
            position += 1
        if best is not None and search.checked < MAX_SHIFT_CANDIDATES and best[0] > 0:
            chosen[k] = (cost, words)
    return chosen


def _advance(searches: dict[int, _Search], chosen: dict[int, tuple[int, list[int]]]) -> None:
    """Apply the chosen shifts and compute the new hypotheses' matrices (for their traces)."""
    keys = list(chosen)
    _, matrices = beam_distances(
        [chosen[k][1] for k in keys], [searches[k].ref for k in keys], [True] * len(keys)
    )
    for k, matrix in zip(keys, matrices, strict=True):
        search = searches[k]
        search.cost, search.hyp = chosen[k]
        search.shifts += 1
        if matrix is not None:
            search.matrix = matrix


def _candidates(search: _Search) -> list[tuple[int, int, int, list[int]]]:
    """List ``_shift``'s candidates in its order: (length, start, target, shifted words)."""
    hyp, ref = search.hyp, search.ref
    align, ref_err, hyp_err = _alignment(trace(search.matrix, hyp, ref).translate(_FLIP))
    out: list[tuple[int, int, int, list[int]]] = []
    for start_h, start_r, length in _shifted_pairs(hyp, ref):
        if sum(hyp_err[start_h : start_h + length]) == 0:
            continue
        if sum(ref_err[start_r : start_r + length]) == 0:
            continue
        if start_h <= align[start_r] < start_h + length:
            continue  # don't shift within the matched run
        previous = -1
        for offset in range(-1, length):
            if start_r + offset == -1:
                target = 0
            elif start_r + offset in align:
                target = align[start_r + offset] + 1
            else:
                break
            if target == previous:
                continue
            previous = target
            out.append((length, start_h, target, _perform_shift(hyp, start_h, length, target)))
            search.checked += 1
        if search.checked >= MAX_SHIFT_CANDIDATES:
            break
    return out


def _shifted_pairs(hyp: list[int], ref: list[int]) -> Iterator[tuple[int, int, int]]:
    """Yield (hyp start, ref start, length) of matching runs, as ``_find_shifted_pairs``.

    sacrebleu tries every reference start within 50 positions; only those holding
    the hypothesis word can yield, so only those are visited, in the same order.
    """
    n_hyp, n_ref = len(hyp), len(ref)
    where: dict[int, list[int]] = {}
    for position, word in enumerate(ref):
        where.setdefault(word, []).append(position)
    for start_h, word in enumerate(hyp):
        for start_r in where.get(word, ()):
            if abs(start_r - start_h) > MAX_SHIFT_DIST:
                continue
            length = 0
            while hyp[start_h + length] == ref[start_r + length] and length < MAX_SHIFT_SIZE:
                length += 1
                yield start_h, start_r, length
                if n_hyp == start_h + length or n_ref == start_r + length:
                    break


def _perform_shift(words: list[int], start: int, length: int, target: int) -> list[int]:
    """Move ``words[start:start + length]`` before position ``target`` (``_perform_shift``)."""
    if target < start:
        return (
            words[:target]
            + words[start : start + length]
            + words[target:start]
            + words[start + length :]
        )
    if target > start + length:
        return (
            words[:start]
            + words[start + length : target]
            + words[start : start + length]
            + words[target:]
        )
    return (
        words[:start]
        + words[start + length : length + target]
        + words[start : start + length]
        + words[length + target :]
    )


def _alignment(trace_ops: str) -> tuple[dict[int, int], list[int], list[int]]:
    """Return ``trace_to_alignment``'s alignment and error flags of a (flipped) trace."""
    pos_hyp = pos_ref = -1
    align: dict[int, int] = {}
    ref_err: list[int] = []
    hyp_err: list[int] = []
    for op in trace_ops:
        if op in " s":
            pos_hyp += 1
            pos_ref += 1
            align[pos_ref] = pos_hyp
            error = int(op == "s")
            hyp_err.append(error)
            ref_err.append(error)
        elif op == "i":
            pos_hyp += 1
            hyp_err.append(1)
        else:
            pos_ref += 1
            align[pos_ref] = pos_hyp
            ref_err.append(1)
    return align, ref_err, hyp_err
