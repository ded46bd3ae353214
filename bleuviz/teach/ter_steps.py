"""TER step by step for one candidate: the words, the shifts, the edit script and the rate.

Replicates sacrebleu 2.6's ``TER`` sentence score with its defaults
(case-insensitive, tercom tokenization, punctuation kept): the words come from
sacrebleu's own tokenizer (``bleuviz.metrics.sacrebleu_adapter.ter_words``), the
shifts and edits from ``bleuviz.metrics.ter_shifts.edit_script`` (the same search
as the metric's ``edit_counts``). TER = the fewest edits over the references /
the average reference length, × 100; with empty references, 100 if the
candidate has words and 0 if not (``TER._compute_score_from_stats``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bleuviz.errors import InputError
from bleuviz.metrics.ter_config import TerConfig
from bleuviz.metrics.ter_shifts import EditScript, edit_script

#: What each letter of an edit trace means, in words (screen readers read these).
OPERATIONS = {" ": "match", "s": "substitution", "d": "deletion", "i": "insertion"}


@dataclass(frozen=True, slots=True)
class Edit:
    """One step of the edit script: the operation, the candidate's and the reference's word."""

    operation: str  # a key of OPERATIONS
    hyp: str | None
    ref: str | None


@dataclass(frozen=True, slots=True)
class ShiftStep:
    """A shift in words: which words moved, from where, and the candidate after it."""

    words: tuple[str, ...]
    start: int
    target: int
    after: tuple[str, ...]
    distance: int


@dataclass(frozen=True, slots=True)
class TerReference:
    """The candidate against one reference: its words, the shifts, the edit script."""

    ref_words: tuple[str, ...]
    shifts: tuple[ShiftStep, ...]
    edits: tuple[Edit, ...]

    @property
    def count(self) -> int:
        """Edits: one per shift plus one per substitution, deletion and insertion."""
        return len(self.shifts) + sum(e.operation != "match" for e in self.edits)


@dataclass(frozen=True, slots=True)
class TerWalk:
    """TER of one candidate: its words, every reference's script, and the rate."""

    hyp_words: tuple[str, ...]
    references: tuple[TerReference, ...]
    best: int

    @property
    def edits(self) -> int:
        """The fewest edits over the references."""
        return self.references[self.best].count

    @property
    def avg_ref_len(self) -> float:
        """The mean reference length in words."""
        return sum(len(r.ref_words) for r in self.references) / len(self.references)

    @property
    def score(self) -> float:
        """TER × 100, as sacrebleu's ``TER`` sentence score."""
        if self.avg_ref_len > 0:
            return 100 * (self.edits / self.avg_ref_len)
        return 100.0 if self.edits > 0 else 0.0


def ter_walkthrough(hyp: str, references: Sequence[str], config: TerConfig) -> TerWalk:
    """Compute TER's steps against every reference; the first with the fewest edits is kept.

    Raises:
        InputError: no reference.
    """
    if not references:
        raise InputError("references: at least one reference is required")
    from bleuviz.metrics.sacrebleu_adapter import ter_words  # sacrebleu's tokenizer

    words = ter_words(config)
    vocabulary: dict[str, int] = {}
    hyp_words = words(hyp)
    ids = [vocabulary.setdefault(w, len(vocabulary)) for w in hyp_words]
    names: list[str] = []
    walks = []
    for ref in references:
        ref_words = words(ref)
        ref_ids = [vocabulary.setdefault(w, len(vocabulary)) for w in ref_words]
        names = list(vocabulary)
        script = edit_script(ids, ref_ids)
        walks.append(_reference(script, ids, tuple(ref_words), names))
    counts = [w.count for w in walks]
    return TerWalk(tuple(hyp_words), tuple(walks), counts.index(min(counts)))


def _reference(
    script: EditScript, hyp: list[int], ref_words: tuple[str, ...], names: list[str]
) -> TerReference:
    """Put a script's word ids back into words, shift by shift and edit by edit."""
    shifts, current = [], hyp
    for shift in script.shifts:
        moved = current[shift.start : shift.start + shift.length]
        after = tuple(names[w] for w in shift.words)
        shifts.append(
            ShiftStep(
                tuple(names[w] for w in moved), shift.start, shift.target, after, shift.distance
            )
        )
        current = list(shift.words)
    return TerReference(ref_words, tuple(shifts), _edits(script, ref_words, names))


def _edits(script: EditScript, ref_words: tuple[str, ...], names: list[str]) -> tuple[Edit, ...]:
    """Walk the trace over the shifted candidate and the reference."""
    hyp = [names[w] for w in script.words]
    i = j = 0
    out = []
    for op in script.trace:
        h = hyp[i] if op != "i" else None
        r = ref_words[j] if op != "d" else None
        out.append(Edit(OPERATIONS[op], h, r))
        i += op != "i"
        j += op != "d"
    return tuple(out)
