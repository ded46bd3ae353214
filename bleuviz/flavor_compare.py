"""The same input scored the ways the reference implementations score it, and why they differ.

Each way is a BleuConfig that replicates one library call (the flavour modules
say how), with a one-sentence explanation of how it differs from the default,
sacrebleu's ``sentence_bleu``, and what the library itself does with an empty
candidate or an empty reference. The explanations are data, so the Learn page
only lays them out and the tests can hold them against the libraries.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import pandas as pd

from bleuviz.bleu import BleuConfig, corpus_score, sentence_scores
from bleuviz.references import build_reference_index
from bleuviz.scores import BleuScore
from bleuviz.stats import SegmentStats, compute_stats
from bleuviz.tokenize import TokenizeConfig


@dataclass(frozen=True, slots=True)
class Smoothing:
    """A smoothing method: its formula (static LaTeX) and why it exists."""

    latex: str
    why: str
    rule: str  # what it did to an order it changed; {m}, {den}, {k}, {v} are filled in


_ZERO = r"\quad \text{if } m_n = 0"
SMOOTHINGS: dict[tuple[str, str], Smoothing] = {
    ("sacrebleu", "none"): Smoothing(
        r"p_n = \frac{m_n}{t_n}",
        "No smoothing, as in the original BLEU for whole corpora: one order without a "
        "match gives log p_n = −∞ and a score of 0.",
        "",
    ),
    ("sacrebleu", "exp"): Smoothing(
        r"p_n = \frac{1}{2^{k}\, t_n} \quad \text{for the } k\text{-th order with } m_n = 0",
        "sacrebleu's default, from NIST's mteval-v13a: a sentence often has no 4-gram "
        "match, which would make its score 0, so each order without a match gets a "
        "pseudo-count, halved for every further such order.",
        "no match, zero order number {k}: 1/(2^{k}·{den})",
    ),
    ("sacrebleu", "floor"): Smoothing(
        r"p_n = \frac{\varepsilon}{t_n}" + _ZERO,
        "Replaces a zero count by a small constant ε (the smoothing value, 0.1 by default).",
        "no match: {v}/{den}",
    ),
    ("sacrebleu", "add-k"): Smoothing(
        r"p_n = \frac{m_n + k}{t_n + k} \quad (n \ge 2)",
        "Adds k (the smoothing value, 1 by default) to both counts of orders 2 and up, "
        "as Lin and Och (2004) do; unigrams stay as they are.",
        "add-k on orders 2+: ({m}+{v})/({den}+{v})",
    ),
    ("nltk", "method0"): Smoothing(
        r"p_n = \frac{m_n}{\max(1, t_n)}, \quad 0 \mapsto 2.2 \times 10^{-308}",
        "No smoothing. nltk replaces a zero precision by the smallest positive float so "
        "that its log is defined: the score is then close to 0, and nltk warns.",
        "no match: the smallest float",
    ),
    ("nltk", "method1"): Smoothing(
        r"p_n = \frac{\epsilon}{t_n}" + _ZERO + r", \ \epsilon = 0.1",
        "Adds ε = 0.1 to a zero count (Chen and Cherry, 2014, method 1).",
        "no match: 0.1/{den}",
    ),
    ("nltk", "method2"): Smoothing(
        r"p_n = \frac{m_n + 1}{t_n + 1} \quad (n \ge 2)",
        "Adds 1 to both counts of orders 2 and up, even where there are matches "
        "(Lin and Och, 2004).",
        "add-one on orders 2+: ({m}+1)/({den}+1)",
    ),
    ("nltk", "method3"): Smoothing(
        r"p_n = \frac{1}{2^{k}\, t_n} \quad \text{for the } k\text{-th order with } m_n = 0",
        "NIST's geometric sequence, the same rule as sacrebleu's exp (Chen and Cherry, method 3).",
        "no match, zero order number {k}: 1/(2^{k}·{den})",
    ),
    ("nltk", "method4"): Smoothing(
        r"p_n = \frac{\ln c}{2^{k} K\, t_n} \quad \text{for the } k\text{-th zero}, \ K = 5",
        "Like method 3, with a pseudo-count that grows with the candidate length c "
        "(Chen and Cherry, method 4).",
        "no match, zero order number {k}: ln c/(2^{k}·5·{den})",
    ),
    ("nltk", "method5"): Smoothing(
        r"p'_n = \frac{p'_{n-1} + p_n + p_{n+1}}{3}, \quad p'_0 = p_1 + 1",
        "Averages each precision with its neighbours; after the last order comes the "
        "5-gram precision (Chen and Cherry, method 5).",
        "averaged with its neighbours",
    ),
    ("nltk", "method6"): Smoothing(
        r"p_n = \frac{m_n + \alpha\, p_{n-1}^2 / p_{n-2}}{c - n + 1 + \alpha} "
        r"\quad (n \ge 3), \ \alpha = 5",
        "Interpolates orders 3 and up with a prior from the two lower orders (Gao and He, "
        "2013); nltk requires a non-zero trigram precision.",
        "interpolated with the prior p_(n−1)²/p_(n−2)",
    ),
    ("nltk", "method7"): Smoothing(
        r"\text{method4, then method5}",
        "Combines methods 4 and 5 (Chen and Cherry, method 7).",
        "method4 for a zero count, then averaged with its neighbours",
    ),
    ("tf-nmt", "none"): Smoothing(
        r"p_n = \frac{m_n}{t_n}",
        "No smoothing: any order without a match makes the geometric mean, and the score, 0.",
        "",
    ),
    ("tf-nmt", "add-one"): Smoothing(
        r"p_n = \frac{m_n + 1}{t_n + 1}",
        "Adds 1 to both counts of every order, unigrams included (Lin and Och, 2004).",
        "add-one: ({m}+1)/({den}+1)",
    ),
}


def smoothing_note(
    config: BleuConfig, m: int, den: int, raw: float | None, p: float, k: int
) -> str:
    """Say what smoothing did to an order: m matches over den, raw → p, k zero orders so far."""
    if raw is not None and math.isclose(p, raw, rel_tol=1e-12, abs_tol=0.0):
        return "unchanged" if p > 0 else "no match, not smoothed: p = 0"
    if raw is None and p == 0:
        if config.flavor == "sacrebleu" and config.effective_order:
            return "no n-grams of this order: effective order leaves it out"
        return "no n-grams of this order: p = 0"
    if config.flavor == "sacrebleu" and p == 0:
        return "no match at any order: sacrebleu stops before smoothing"
    value = config.smooth_value
    if value is None:
        value = 1.0 if config.smoothing == "add-k" else 0.1
    rule = SMOOTHINGS[(config.flavor, config.smoothing)].rule
    return rule.format(m=m, den=den, k=k, v=f"{value:g}") + f" = {p:.4g}"


@dataclass(frozen=True, slots=True)
class Way:
    """One library call, replicated by a BleuConfig, and how it differs from the default."""

    key: str
    call: str
    config: BleuConfig
    why: str
    empty_hyp: str  # what the library itself returns or raises for an empty candidate
    empty_ref: str  # ... and for an empty reference
    crashes_on_empty: bool = False


_SACRE_EMPTY = "0.0: nothing matches, so it returns 0 before smoothing"
_NLTK_EMPTY = "0: no unigram matches, so it returns 0 before any smoothing"
_TF_HYP = "ZeroDivisionError in exp(1 − 1/ratio), ratio = 0; bleuviz defines BP = 0"
_TF_REF = "ZeroDivisionError in ratio = c/0; bleuviz defines BP = 1"
_NLTK_WHY = {
    0: "No smoothing: a zero precision becomes the smallest float, so any order "
    "without a match drives the score to nearly 0.",
    1: "A zero count gets ε = 0.1 matches instead of sacrebleu's halving pseudo-count.",
    2: "Adds 1 to both counts of every order from 2 up, so even orders with matches change.",
    3: "The same geometric smoothing as sacrebleu's exp, but without effective order: "
    "an order the candidate is too short for counts as 0/1.",
    4: "Like method3, but the pseudo-count grows with ln of the candidate length.",
    5: "Every precision is averaged with its neighbours, so even orders with matches change.",
    6: "Orders 3 and up are interpolated from the lower orders; nltk raises AssertionError "
    "when the trigram precision is 0.",
    7: "method4's pseudo-counts, then method5's averaging.",
}
DEFAULT_WAY = "sacrebleu-sentence"
WAYS: tuple[Way, ...] = (
    Way(
        "sacrebleu-corpus",
        "sacrebleu.corpus_bleu([hyp], refs)",
        BleuConfig("sacrebleu"),
        "No effective order: a candidate shorter than 4 tokens has no 4-grams, "
        "p₄ = 0 and the score is 0.",
        _SACRE_EMPTY,
        _SACRE_EMPTY,
    ),
    Way(
        DEFAULT_WAY,
        "sacrebleu.sentence_bleu(hyp, refs)",
        BleuConfig("sacrebleu", effective_order=True),
        "The default: exp smoothing, and effective order averages only the orders "
        "the candidate has n-grams for.",
        _SACRE_EMPTY,
        _SACRE_EMPTY,
    ),
    *(
        Way(
            f"nltk-method{i}",
            f"nltk sentence_bleu(refs, hyp, smoothing_function=method{i})",
            BleuConfig("nltk", smooth=f"method{i}"),
            why,
            _NLTK_EMPTY,
            _NLTK_EMPTY,
        )
        for i, why in _NLTK_WHY.items()
    ),
    Way(
        "tf-nmt",
        "tf-nmt compute_bleu([refs], [hyp])",
        BleuConfig("tf-nmt"),
        "BP uses the shortest reference, not the closest, and without smoothing any "
        "order without a match makes the score 0.",
        _TF_HYP,
        _TF_REF,
        crashes_on_empty=True,
    ),
    Way(
        "tf-nmt-smooth",
        "tf-nmt compute_bleu([refs], [hyp], smooth=True)",
        BleuConfig("tf-nmt", smooth="add-one"),
        "Adds 1 to both counts of every order, unigrams included, and BP uses the "
        "shortest reference.",
        _TF_HYP,
        _TF_REF,
        crashes_on_empty=True,
    ),
)


@dataclass(frozen=True, slots=True)
class WayResult:
    """A way's score of the input, and bleuviz's scores of the two degenerate inputs."""

    way: Way
    score: BleuScore
    empty_hyp: float
    empty_ref: float
    crash: str | None  # what the library raises for this input (bleuviz shows 0 instead)


def one_segment(
    hypothesis: str, references: Sequence[str], tokenize: TokenizeConfig, order: int = 5
) -> SegmentStats:
    """Statistics of a one-segment corpus (order 5 by default: nltk's method5/7 read p5)."""
    index = build_reference_index([[ref] for ref in references], tokenize, order)
    return compute_stats([hypothesis], index)


def compare_ways(
    hypothesis: str, references: Sequence[str], tokenize: TokenizeConfig
) -> tuple[WayResult, ...]:
    """Score the input every way in WAYS, and an empty candidate and reference too.

    Each score is ``corpus_score`` of the one-segment corpus; with effective order
    on, that is sacrebleu's ``sentence_bleu``.
    """
    inputs = (
        one_segment(hypothesis, references, tokenize),
        one_segment("", references, tokenize),
        one_segment(hypothesis, [""], tokenize),
    )
    results = []
    for way in WAYS:
        real, empty_hyp, empty_ref = (
            corpus_score(stats, way.config, tokenize, n)
            for stats, n in zip(inputs, (len(references), len(references), 1), strict=True)
        )
        crash = _crash(way, real)
        results.append(WayResult(way, real, empty_hyp.score, empty_ref.score, crash))
    return tuple(results)


def _crash(way: Way, score: BleuScore) -> str | None:
    """Return the exception the library itself raises for this input, if any."""
    if way.crashes_on_empty and (score.hyp_len == 0 or score.ref_len == 0):
        return "ZeroDivisionError"
    method6 = way.config.flavor == "nltk" and way.config.smoothing == "method6"
    if method6 and score.counts[0] > 0 and score.counts[2] == 0:
        return "AssertionError"
    return None


def ways_frame(results: Sequence[WayResult]) -> pd.DataFrame:
    """One row per way: its score, BP, r, difference from the default and why."""
    default = next(r.score.score for r in results if r.way.key == DEFAULT_WAY)
    return pd.DataFrame(
        {
            "way": [r.way.call for r in results],
            "BLEU": [r.score.score for r in results],
            "BP": [r.score.bp for r in results],
            "r": [r.score.ref_len for r in results],
            "vs default": [r.score.score - default for r in results],
            "why it can differ from sentence_bleu": [r.way.why for r in results],
            "the library itself": [
                f"raises {r.crash}; bleuviz shows 0" if r.crash else "same" for r in results
            ],
        }
    )


def degenerate_frame(results: Sequence[WayResult]) -> pd.DataFrame:
    """One row per way: bleuviz's score and the library's answer for empty inputs."""
    return pd.DataFrame(
        {
            "way": [r.way.call for r in results],
            "empty candidate": [r.empty_hyp for r in results],
            "the library, empty candidate": [r.way.empty_hyp for r in results],
            "empty reference": [r.empty_ref for r in results],
            "the library, empty reference": [r.way.empty_ref for r in results],
        }
    )


# Written for bleuviz: a short exact match, a long good one, a loose paraphrase, a clipped one.
SAMPLE_CORPUS: tuple[tuple[str, str], ...] = (
    ("Thank you.", "Thank you very much."),
    (
        "The meeting has been moved to Thursday at noon.",
        "The meeting has been moved to Thursday at noon.",
    ),
    ("Prices rose sharply last year.", "Last year prices went up a lot."),
    ("Yes yes yes.", "Yes."),
)


@dataclass(frozen=True, slots=True)
class CorpusVsSentence:
    """Corpus BLEU of a small corpus (summed counts) against its sentence scores."""

    corpus: BleuScore
    sentence: tuple[float, ...]
    stats: SegmentStats
    flavor: str

    @property
    def mean_sentence(self) -> float:
        """The mean of the sentence scores: every segment weighs the same."""
        return math.fsum(self.sentence) / len(self.sentence)


def corpus_vs_sentence(
    hypotheses: Sequence[str],
    references: Sequence[str],
    tokenize: TokenizeConfig,
    config: BleuConfig,
) -> CorpusVsSentence:
    """Score a corpus once from summed counts (effective order off, as ``corpus_bleu``)
    and each segment alone (``sentence_scores``)."""
    index = build_reference_index([list(references)], tokenize, config.stats_order)
    stats = compute_stats(list(hypotheses), index)
    corpus = corpus_score(stats, replace(config, effective_order=False), tokenize, 1)
    sentence = tuple(float(s) for s in sentence_scores(stats, config).score)
    return CorpusVsSentence(corpus, sentence, stats, config.flavor)


def corpus_frame(result: CorpusVsSentence, order: int) -> pd.DataFrame:
    """One row per segment and one of sums: BLEU, c, r and m_n/t_n per order."""
    stats, total = result.stats, result.stats.total()
    ref_len = stats.shortest_ref_len if result.flavor == "tf-nmt" else stats.closest_ref_len
    labels = [f"segment {i + 1}" for i in range(len(stats))] + ["corpus (summed)"]
    frame = pd.DataFrame(
        {
            "": labels,
            "BLEU": [*result.sentence, result.corpus.score],
            "c": [*map(int, stats.hyp_len), int(total.hyp_len[0])],
            "r": [*map(int, ref_len), result.corpus.ref_len],
        }
    )
    for n in range(order):
        pairs = zip(
            [*stats.matches[:, n], total.matches[0, n]],
            [*stats.totals[:, n], total.totals[0, n]],
            strict=True,
        )
        frame[f"p{n + 1}"] = [f"{int(m)}/{int(t)}" for m, t in pairs]
    return frame
