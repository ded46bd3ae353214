"""Each flavour's brevity penalty and its reasons to score 0, recomputed and put in words.

The Learn walkthrough recomputes these from the values it shows, and the tests
hold them against the core's scores. The rules differ only at the edges (an
empty candidate or reference, a zero precision), which is what the Learn page
teaches, so each flavour's rules are written out on their own: ``RULES`` has
one entry per flavour of the registry, and a test checks that none is missing.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from bleuviz.bleu import BleuConfig

#: ``(c, r) -> (BP, the rule that produced it)``.
BrevityRule = Callable[[int, int], tuple[float, str]]
#: ``(smoothing, matches, precisions, weighted) -> why the score is 0 outright, or None``;
#: one item per order, ``weighted`` telling whether the order is used with a weight > 0.
ZeroRule = Callable[[str, Sequence[int], Sequence[float], Sequence[bool]], str | None]


@dataclass(frozen=True, slots=True)
class FlavorRules:
    """How one flavour computes the brevity penalty, averages the logs, and when it returns 0.

    Attributes:
        brevity: BP and its rule from c and r.
        zero: why the score is 0 outright, or None.
        mean: how the weighted mean treats an order with p = 0.
        effective_mean: the same with effective order on, for a flavour that has it.
    """

    brevity: BrevityRule
    zero: ZeroRule
    mean: str
    effective_mean: str | None = None


def _no_penalty(c: int, r: int) -> tuple[float, str]:
    return 1.0, f"c = {c} ≥ r = {r}: no penalty."


def _penalty(c: int, r: int) -> tuple[float, str]:
    """exp(1 - r/c) for c < r, or 0 for an empty candidate."""
    if c == 0:
        return 0.0, "The candidate is empty."
    return math.exp(1 - r / c), f"c = {c} < r = {r}: BP = exp(1 − {r}/{c})."


def _sacrebleu_brevity(c: int, r: int) -> tuple[float, str]:
    """sacrebleu penalizes only c < r: an empty candidate and reference get BP 1."""
    return _no_penalty(c, r) if c >= r else _penalty(c, r)


def _nltk_brevity(c: int, r: int) -> tuple[float, str]:
    """nltk checks c > r first, then c = 0: an empty candidate and reference get BP 0."""
    return _no_penalty(c, r) if c >= r and c > 0 else _penalty(c, r)


#: What tf-nmt's BP is for an empty side, as Hugging Face evaluate's copy defines it.
_TF_EMPTY = (
    "tensorflow/nmt itself divides by zero; Hugging Face evaluate's copy, which bleuviz "
    "follows, sets BP = 0."
)


def _tfnmt_brevity(c: int, r: int) -> tuple[float, str]:
    """tf-nmt's BP from ratio = c/r: exp(1 - 1/ratio), not exp(1 - r/c)."""
    if c == 0:
        return 0.0, f"The candidate is empty: {_TF_EMPTY}"
    if r == 0:
        return 0.0, f"The reference is empty: {_TF_EMPTY}"
    ratio = c / r
    if ratio > 1.0:
        return 1.0, f"c/r = {ratio:.3f} > 1: no penalty."
    return math.exp(1 - 1.0 / ratio), f"c/r = {c}/{r} = {ratio:.3f} ≤ 1: BP = exp(1 − 1/(c/r))."


def _sacrebleu_zero(
    smoothing: str, matches: Sequence[int], precisions: Sequence[float], weighted: Sequence[bool]
) -> str | None:
    if not any(matches):
        return "No n-gram of any order matches: sacrebleu returns 0 before smoothing."
    if any(w and p == 0 for p, w in zip(precisions, weighted, strict=True)):
        return "A precision in use is 0 and log 0 = −∞ (sacrebleu: −9999999999): BLEU = 0."
    return None


def _nltk_zero(
    smoothing: str, matches: Sequence[int], precisions: Sequence[float], weighted: Sequence[bool]
) -> str | None:
    if matches[0] == 0:
        return "No unigram matches: nltk returns 0 before any smoothing."
    if smoothing == "method6" and (len(matches) < 3 or matches[2] == 0):
        return (
            "nltk's method6 raises AssertionError when the trigram precision is 0 "
            "(or max order < 3); bleuviz defines the score as 0."
        )
    return None


def _tfnmt_zero(
    smoothing: str, matches: Sequence[int], precisions: Sequence[float], weighted: Sequence[bool]
) -> str | None:
    if any(p == 0 for p in precisions):
        return "A precision is 0: tf-nmt sets the geometric mean, and so BLEU, to 0."
    return None


#: Every flavour's rules, by its name in the registry (``bleuviz.bleu.FLAVORS``).
RULES: Mapping[str, FlavorRules] = {
    "sacrebleu": FlavorRules(
        _sacrebleu_brevity,
        _sacrebleu_zero,
        "Without effective order every order counts: one with p = 0 makes "
        "the sum −∞ and the score 0.",
        "Effective order leaves out the orders the candidate has no n-grams "
        "for and spreads their weight over the others.",
    ),
    "nltk": FlavorRules(
        _nltk_brevity,
        _nltk_zero,
        "nltk leaves out an order whose precision is still 0 after smoothing.",
    ),
    "tf-nmt": FlavorRules(
        _tfnmt_brevity, _tfnmt_zero, "tf-nmt sets the mean to 0 if any precision is 0."
    ),
}


def mean_note(config: BleuConfig) -> str:
    """Say how the flavour's weighted mean of logs treats an order with p = 0."""
    rules = RULES[config.flavor]
    if config.effective_order and config.flavor_spec.effective_order and rules.effective_mean:
        return rules.effective_mean
    return rules.mean
