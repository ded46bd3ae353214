"""BLEU step by step for one candidate: the numbers a textbook would show.

The Learn page draws every intermediate value from here: the clipped n-gram
counts (bleuviz.bleu.explain), the modified precisions, the precisions after
smoothing, each weighted log term, the reference length the flavour picks,
the brevity penalty and the score (Papineni et al., 2002, section 2).

The score itself is the core's: ``corpus_score`` of the one-segment corpus,
which for sacrebleu with effective order is ``sentence_bleu``. The smoothed
precisions are the core's too (the flavour modules implement each smoothing
once). Everything after them (log terms, their sum, the reference length, the
brevity penalty and the product) is recomputed here from the values shown,
and the tests check that the recomputed score equals the core's.

The page's ready-made examples live in ``bleuviz.teach.examples``, each
flavour's brevity penalty and zero rules in ``bleuviz.teach.rules``, and the
tables it draws from a ``Walkthrough`` in ``bleuviz.teach.tables``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from bleuviz.bleu import BleuConfig, Flavor, corpus_score, get_flavor
from bleuviz.bleu.explain import NgramRow, SegmentExplanation, explain_segment
from bleuviz.bleu.references import build_reference_index
from bleuviz.bleu.result import BleuScore
from bleuviz.bleu.stats import compute_stats
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.errors import InputError
from bleuviz.teach.rules import RULES
from bleuviz.teach.smoothing import smoothing_note


@dataclass(frozen=True, slots=True)
class OrderStep:
    """One n-gram order: counts, precision before and after smoothing, and its log term.

    Attributes:
        rows: the candidate's distinct n-grams with their counts (bleuviz.bleu.explain).
        matches: clipped matches m_n, the sum of min(count, max reference count).
        totals: candidate n-grams t_n.
        denominator: what the flavour divides by: t_n, or max(1, t_n) for nltk.
        precision: p_n after smoothing, 0-1 (the core's value).
        weight: w_n in effect (0 for an order left out).
        used: whether the order enters the weighted mean.
        term: w_n·log p_n as added to the sum: -inf for p_n = 0 where the flavour
            keeps it (the score is then 0), 0 where it leaves it out.
        note: what smoothing did to this order, and why.
    """

    order: int
    rows: tuple[NgramRow, ...]
    matches: int
    totals: int
    denominator: int
    precision: float
    weight: float
    used: bool
    term: float
    note: str

    @property
    def fraction(self) -> str:
        """The modified precision as a fraction, e.g. ``2/7``."""
        return f"{self.matches}/{self.denominator}"

    @property
    def raw(self) -> float | None:
        """The modified precision before smoothing, or None for 0/0."""
        return self.matches / self.denominator if self.denominator else None


@dataclass(frozen=True, slots=True)
class LengthStep:
    """Candidate length c, every reference length, and the r the flavour picks."""

    hyp_len: int
    ref_lens: tuple[int, ...]
    chosen: int  # index of the reference whose length is r
    ref_len: int
    rule: str


@dataclass(frozen=True, slots=True)
class Walkthrough:
    """Every step from text to score, with the core's score for comparison.

    Attributes:
        log_sum: the sum of the log terms, log of the weighted geometric mean.
        score: 100 · BP · exp(log_sum), or 0 where ``zero_rule`` applies (0-100).
        zero_rule: why the flavour returns 0 outright, or None.
        caveat: why the score is undefined (``score`` is then NaN), or None.
        core: the core's score of the same input and settings.
    """

    config: BleuConfig
    explanation: SegmentExplanation
    orders: tuple[OrderStep, ...]
    lengths: LengthStep
    log_sum: float
    bp: float
    bp_rule: str
    score: float
    zero_rule: str | None
    caveat: str | None
    core: BleuScore

    @property
    def geometric_mean(self) -> float:
        """exp of the summed log terms."""
        return math.exp(self.log_sum)


def build_walkthrough(
    hypothesis: str, references: Sequence[str], tokenize: TokenizeConfig, config: BleuConfig
) -> Walkthrough:
    """Compute every step of BLEU for one candidate against its references."""
    if not references:
        raise InputError("references: at least one reference is required")
    expl = explain_segment(hypothesis, references, tokenize, config.max_order)
    index = build_reference_index([[ref] for ref in references], tokenize, config.stats_order)
    core = corpus_score(compute_stats([hypothesis], index), config, tokenize, len(references))
    orders = _orders(expl, config, core)
    lengths = _lengths(config.flavor, len(expl.hyp_tokens), [len(r) for r in expl.ref_tokens])
    bp, bp_rule = RULES[config.flavor].brevity(lengths.hyp_len, lengths.ref_len)
    log_sum = math.fsum(step.term for step in orders)
    zero_rule = _zero_rule(config, orders)
    score = 0.0 if zero_rule else 100.0 * bp * math.exp(log_sum)
    caveat = None
    if not zero_rule and not any(step.used and step.weight > 0 for step in orders):
        caveat, score = NO_WEIGHT_LEFT, math.nan
    return Walkthrough(
        config, expl, orders, lengths, log_sum, bp, bp_rule, score, zero_rule, caveat, core
    )


# sacrebleu's maths works on percentages, so exp of an empty weighted sum is 1.0 BLEU.
NO_WEIGHT_LEFT = (
    "Effective order leaves out every order that has weight, so the weighted mean is taken "
    "over no order at all. The core then returns exp(0) = 1.0 on sacrebleu's percent "
    "scale, a number without meaning: treat this score as undefined."
)


def _orders(expl: SegmentExplanation, config: BleuConfig, core: BleuScore) -> tuple[OrderStep, ...]:
    """Build the step of every order from the n-gram tables and the core's precisions."""
    weights, used = _weights(config, len(expl.hyp_tokens))
    steps: list[OrderStep] = []
    zeros = 0  # orders without a match so far: the k of exp / method3 / method4 smoothing
    for n in range(1, config.max_order + 1):
        m, t = expl.matches(n), expl.totals(n)
        den = max(1, t) if config.flavor_spec.floor_totals else t
        zeros += m == 0 and den > 0
        p = core.precisions[n - 1] / 100.0
        note = smoothing_note(config, m, den, m / den if den else None, p, zeros)
        term = _term(config.flavor_spec, weights[n - 1] if used[n - 1] else 0.0, p)
        steps.append(
            OrderStep(n, expl.rows[n - 1], m, t, den, p, weights[n - 1], used[n - 1], term, note)
        )
    return tuple(steps)


def _term(flavor: Flavor, weight: float, p: float) -> float:
    """w_n·log p_n as the flavour adds it: nltk leaves p_n = 0 out, the others keep log 0."""
    if weight == 0:
        return 0.0
    if p > 0:
        return weight * math.log(p)
    return 0.0 if flavor.omits_zero_precision else -math.inf


def _weights(config: BleuConfig, hyp_len: int) -> tuple[list[float], list[bool]]:
    """Return the weight in effect and whether each order is used.

    sacrebleu with effective order uses only the orders up to the first one with
    no candidate n-grams (``add-k`` gives orders 2+ a positive total) and spreads
    the weight over them; nltk's auto_reweigh uses 1/c for candidates shorter than 4.
    """
    k = config.max_order
    weights = [float(w) for w in config.weight_vector]
    flavor = config.flavor_spec
    reweigh = flavor.auto_reweigh and config.auto_reweigh and weights == [0.25] * 4
    if reweigh and 0 < hyp_len < 4:
        weights = [1.0 / hyp_len if n < hyp_len else 0.0 for n in range(k)]
    if not (flavor.effective_order and config.effective_order):
        return weights, [True] * k
    add_k = config.smoothing == "add-k" and (config.smooth_value is None or config.smooth_value)
    eff = 0 if hyp_len == 0 else k if add_k else min(k, hyp_len)
    used = [n < eff for n in range(k)]
    if weights == [1.0 / k] * k:
        return [1.0 / eff if u else 0.0 for u in used], used
    kept = sum(w for w, u in zip(weights, used, strict=True) if u)
    scale = sum(weights) / max(kept, 1e-300)
    return [w * scale if u else 0.0 for w, u in zip(weights, used, strict=True)], used


def _lengths(flavor: str, hyp_len: int, ref_lens: list[int]) -> LengthStep:
    """Pick r: the shortest reference (tf-nmt), or the closest, ties to the shorter."""
    if get_flavor(flavor).brevity_reference == "shortest":
        r = min(ref_lens)
        i = ref_lens.index(r)
        rule = f"{flavor} always takes the shortest reference: reference {i + 1}, {r} tokens."
        return LengthStep(hyp_len, tuple(ref_lens), i, r, rule)
    i = min(range(len(ref_lens)), key=lambda j: (abs(ref_lens[j] - hyp_len), ref_lens[j]))
    r, distance = ref_lens[i], abs(ref_lens[i] - hyp_len)
    rule = (
        f"{flavor} takes the reference length closest to c = {hyp_len}: "
        f"reference {i + 1}, {r} tokens (distance {distance})."
    )
    tied = sorted({x for x in ref_lens if abs(x - hyp_len) == distance})
    if len(tied) > 1:
        rule += f" Lengths {tied[0]} and {tied[-1]} are equally close; the shorter wins."
    return LengthStep(hyp_len, tuple(ref_lens), i, r, rule)


def _zero_rule(config: BleuConfig, orders: tuple[OrderStep, ...]) -> str | None:
    """Say why the flavour returns 0 outright, if it does."""
    return RULES[config.flavor].zero(
        config.smoothing,
        [step.matches for step in orders],
        [step.precision for step in orders],
        [step.used and step.weight > 0 for step in orders],
    )
