"""The same input scored the ways the reference implementations score it, and why they differ.

Each way is a BleuConfig that replicates one library call (the flavour modules
say how), with a one-sentence explanation of how it differs from the default,
sacrebleu's ``sentence_bleu``, and what the library itself does with an empty
candidate or an empty reference. The explanations are data, so the Learn page
only lays them out and the tests can hold them against the libraries.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from bleuviz.bleu import BleuConfig, corpus_score
from bleuviz.bleu.references import build_reference_index
from bleuviz.bleu.result import BleuScore
from bleuviz.bleu.stats import SegmentStats, compute_stats
from bleuviz.bleu.tokenize import TokenizeConfig


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
    crashes_without_trigram: bool = False  # nltk's method6 asserts a trigram precision > 0


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
            crashes_without_trigram=i == 6,
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
    if way.crashes_without_trigram and score.counts[0] > 0 and score.counts[2] == 0:
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
