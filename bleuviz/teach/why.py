"""Why two library calls give different scores for the typed sentence, step by step.

Every call in ``bleuviz.teach.flavors.WAYS`` is walked through
(``bleuviz.teach.walkthrough``); calls with the same score are grouped, and for
every two groups the walkthroughs are compared in the order BLEU computes:
the modified precisions (NLTK divides by max(1, t)), the smoothed precisions,
the weights in effect (effective order, NLTK's auto-reweigh), the weighted mean
(where a zero precision zeroes the score or is left out), the reference length,
the brevity penalty. The first step at which they part is named, with each
group's numbers at that step. Nothing is canned: every text is built from the
walkthroughs' numbers.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pandas as pd

from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.teach.flavors import DEFAULT_WAY, WAYS, Way
from bleuviz.teach.walkthrough import OrderStep, Walkthrough, build_walkthrough

#: The steps compared, in the order BLEU computes them.
STEPS = (
    "modified precision",
    "smoothing",
    "weights",
    "weighted mean",
    "reference length",
    "brevity penalty",
)


@dataclass(frozen=True, slots=True)
class Group:
    """Calls whose scores agree, with the walkthrough of the first of them."""

    ways: tuple[Way, ...]
    walk: Walkthrough

    @property
    def label(self) -> str:
        """The calls' short names, joined."""
        return " = ".join(way.short for way in self.ways)

    @property
    def name(self) -> str:
        """The first call's short name: the one whose walkthrough the texts quote."""
        return self.ways[0].short

    @property
    def score(self) -> float:
        """The group's score (the core's), 0-100."""
        return self.walk.core.score


@dataclass(frozen=True, slots=True)
class Parting:
    """Where two groups part: the first differing step and each side's numbers there."""

    first: Group
    second: Group
    step: str
    first_text: str
    second_text: str


def group_ways(
    hypothesis: str, references: Sequence[str], tokenize: TokenizeConfig
) -> tuple[Group, ...]:
    """Walk every call through the input and group those whose scores agree (to 1e-9)."""
    groups: list[tuple[list[Way], Walkthrough]] = []
    for way in WAYS:
        walk = build_walkthrough(hypothesis, references, tokenize, way.config)
        for ways, first in groups:
            if math.isclose(first.core.score, walk.core.score, rel_tol=0.0, abs_tol=1e-9):
                ways.append(way)
                break
        else:
            groups.append(([way], walk))
    return tuple(Group(tuple(ways), walk) for ways, walk in groups)


def partings(groups: Sequence[Group]) -> tuple[Parting, ...]:
    """Compare every two groups; pairs with the default call (sentence_bleu) come first."""
    pairs = list(itertools.combinations(groups, 2))
    pairs.sort(key=lambda pair: not any(w.key == DEFAULT_WAY for g in pair for w in g.ways))
    return tuple(part(a, b) for a, b in pairs)


def part(a: Group, b: Group) -> Parting:
    """Name the first step at which two groups' walkthroughs differ, with their numbers."""
    for step, differs, describe in _CHECKS:
        if differs(a.walk, b.walk):
            return Parting(a, b, step, describe(a, b.walk), describe(b, a.walk))
    # Only the final product is left (it can differ by rounding alone).
    return Parting(a, b, "score", _score_text(a), _score_text(b))


def first_order(
    a: Walkthrough, b: Walkthrough, same: Callable[[OrderStep, OrderStep], bool]
) -> int | None:
    """Index of the first order at which ``same`` is false, or None."""
    for i, (x, y) in enumerate(zip(a.orders, b.orders, strict=True)):
        if not same(x, y):
            return i
    return None


def _fraction(x: OrderStep, y: OrderStep) -> bool:
    return (x.matches, x.denominator) == (y.matches, y.denominator)


def _smoothed(x: OrderStep, y: OrderStep) -> bool:
    # Relative: nltk's method0 puts the smallest float (2.2e-308) where others put 0.
    return x.precision == y.precision or math.isclose(x.precision, y.precision, rel_tol=1e-12)


def _weight(x: OrderStep, y: OrderStep) -> bool:
    wx = x.weight if x.used else 0.0
    wy = y.weight if y.used else 0.0
    return math.isclose(wx, wy, rel_tol=0.0, abs_tol=1e-12)


def _differs_fraction(a: Walkthrough, b: Walkthrough) -> bool:
    return first_order(a, b, _fraction) is not None


def _differs_smoothing(a: Walkthrough, b: Walkthrough) -> bool:
    return first_order(a, b, _smoothed) is not None


def _differs_weights(a: Walkthrough, b: Walkthrough) -> bool:
    return first_order(a, b, _weight) is not None


def _differs_mean(a: Walkthrough, b: Walkthrough) -> bool:
    if (a.zero_rule is None) != (b.zero_rule is None):
        return True
    return a.zero_rule is None and not math.isclose(a.log_sum, b.log_sum, abs_tol=1e-12)


def _differs_length(a: Walkthrough, b: Walkthrough) -> bool:
    return a.lengths.ref_len != b.lengths.ref_len


def _differs_bp(a: Walkthrough, b: Walkthrough) -> bool:
    return not math.isclose(a.bp, b.bp, rel_tol=0.0, abs_tol=1e-12)


def _score_text(group: Group) -> str:
    return f"{group.name}: BLEU {group.score:.2f}"


def _fraction_text(group: Group, other: Walkthrough) -> str:
    i = first_order(group.walk, other, _fraction)
    step = group.walk.orders[i or 0]
    how = " (it divides by max(1, t))" if group.walk.config.flavor_spec.floor_totals else ""
    return (
        f"{group.name}: {step.order}-gram precision {step.fraction}{how} → BLEU {group.score:.2f}"
    )


def _smoothing_text(group: Group, other: Walkthrough) -> str:
    i = first_order(group.walk, other, _smoothed)
    step = group.walk.orders[i or 0]
    smoothing = group.walk.config.smoothing
    named = "" if smoothing in group.name else f" ({smoothing} smoothing)"
    note = step.note if step.note != "unchanged" else f"unchanged, {step.precision:.4g}"
    return (
        f"{group.name}{named}: {step.order}-gram precision "
        f"{step.fraction} → {note} → BLEU {group.score:.2f}"
    )


def _weights_text(group: Group, other: Walkthrough) -> str:
    used = [s for s in group.walk.orders if s.used and s.weight > 0]
    orders = ", ".join(f"w{s.order} = {s.weight:.4g}" for s in used) or "no order"
    left = [str(s.order) for s in group.walk.orders if not (s.used and s.weight > 0)]
    out = f"; order {', '.join(left)} left out" if left else ""
    return f"{group.name}: {orders}{out} → BLEU {group.score:.2f}"


def _mean_text(group: Group, other: Walkthrough) -> str:
    walk = group.walk
    if walk.zero_rule:
        return f"{group.name}: {walk.zero_rule} → BLEU {group.score:.2f}"
    return (
        f"{group.name}: Σ wₙ·log pₙ = {walk.log_sum:.4f}, mean p̄ = "
        f"{walk.geometric_mean:.4f} → BLEU {group.score:.2f}"
    )


def _length_text(group: Group, other: Walkthrough) -> str:
    lengths = group.walk.lengths
    which = group.walk.config.flavor_spec.brevity_reference
    return (
        f"{group.name} takes the {which} reference, {lengths.ref_len} tokens "
        f"(c = {lengths.hyp_len}) → BP {group.walk.bp:.3f}, BLEU {group.score:.2f}"
    )


def _bp_text(group: Group, other: Walkthrough) -> str:
    walk = group.walk
    return f"{group.name}: {walk.bp_rule} BP = {walk.bp:.3f} → BLEU {group.score:.2f}"


_CHECKS: tuple[
    tuple[str, Callable[[Walkthrough, Walkthrough], bool], Callable[[Group, Walkthrough], str]],
    ...,
] = tuple(
    zip(
        STEPS,
        (
            _differs_fraction,
            _differs_smoothing,
            _differs_weights,
            _differs_mean,
            _differs_length,
            _differs_bp,
        ),
        (_fraction_text, _smoothing_text, _weights_text, _mean_text, _length_text, _bp_text),
        strict=True,
    )
)


def groups_frame(groups: Sequence[Group]) -> pd.DataFrame:
    """One row per group: its score and the calls that give it."""
    return pd.DataFrame(
        {
            "BLEU": [f"{g.score:.2f}" for g in groups],
            "calls that agree": [", ".join(w.short for w in g.ways) for g in groups],
        }
    )


def partings_frame(parts: Sequence[Parting]) -> pd.DataFrame:
    """One row per two groups: the step where they part and each side's numbers."""
    return pd.DataFrame(
        {
            "calls": [f"{p.first.name} vs {p.second.name}" for p in parts],
            "first step that differs": [p.step for p in parts],
            "one side": [p.first_text for p in parts],
            "the other": [p.second_text for p in parts],
        }
    )
