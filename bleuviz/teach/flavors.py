"""The same input scored by every library call a student may have typed.

Each way is one call as typed (sacrebleu's ``corpus_bleu``, ``BLEU().sentence_score``
and ``sentence_bleu``, NLTK's ``sentence_bleu`` with each smoothing method, Hugging
Face evaluate's ``bleu`` and ``sacrebleu`` metrics), the BleuConfig of the
bleuviz replica that computes it (the flavour modules say how), the call's
defaults in words, and what the library itself does with an empty candidate or
reference. Why two calls differ on the typed sentence is computed from their
walkthroughs by ``bleuviz.teach.why``.
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
class Defaults:
    """What a library call does when the student passes nothing but the text.

    Attributes:
        tokenizer: how the call splits text (NLTK and tf-nmt take token lists).
        lowercase: whether it lowercases by default.
        ref_length: which reference length its brevity penalty uses.
        smoothing: its smoothing by default (or as the row's call sets it).
        effective_order: whether it averages only the orders the candidate has.
    """

    tokenizer: str
    lowercase: str
    ref_length: str
    smoothing: str
    effective_order: str


@dataclass(frozen=True, slots=True)
class Way:
    """One library call, as a student types it, replicated by a BleuConfig.

    Attributes:
        key: a stable name for tests and links.
        call: the call as typed, with the library's module path.
        short: a short name for the call, in sentences.
        library: the library's name, for grouping.
        replica: the bleuviz replica that computes it (``bleuviz.bleu.flavors``).
        config: the replica's settings for this call.
        defaults: the call's defaults, in words.
        empty_hyp: what the library itself returns or raises for an empty candidate.
        empty_ref: ... and for an empty reference.
    """

    key: str
    call: str
    short: str
    library: str
    replica: str
    config: BleuConfig
    defaults: Defaults
    empty_hyp: str
    empty_ref: str
    crashes_without_trigram: bool = False  # nltk's method6 asserts a trigram precision > 0


_SACRE_EMPTY = "0.0: nothing matches, so it returns 0 before smoothing"
_NLTK_EMPTY = "0: no unigram matches, so it returns 0 before any smoothing"
# evaluate's copy of compute_bleu (metrics/bleu/nmt_bleu.py, at 4c312af) sets BP = 0
# where tensorflow/nmt itself divides by zero.
_TF_EMPTY = "0.0: BP = 0 for an empty side (tensorflow/nmt itself divides by zero)"
_CLOSEST = "closest (ties: the shorter)"
_SACRE_REPLICA = "bleuviz.bleu.flavors.sacrebleu (sacrebleu 2.x BLEU.compute_bleu)"
_NLTK_REPLICA = "bleuviz.bleu.flavors.nltk (nltk 3.10 corpus_bleu)"
# Hugging Face evaluate's "bleu" metric is a copy of tensorflow/nmt's nmt/scripts/bleu.py
# (evaluate/metrics/bleu/bleu.py imports compute_bleu from nmt_bleu.py) with
# Tokenizer13a as its default tokenizer; its "sacrebleu" metric calls
# sacrebleu.corpus_bleu with smooth_method="exp" and use_effective_order=False.
_TF_REPLICA = "bleuviz.bleu.flavors.tfnmt (tensorflow/nmt compute_bleu)"
_SACRE_CORPUS = Defaults("13a", "no", _CLOSEST, "exp", "off")
_SACRE_SENTENCE = Defaults("13a", "no", _CLOSEST, "exp", "on")
_NLTK_CALL = "nltk.translate.bleu_score.sentence_bleu(refs, hyp, smoothing_function=method{i})"
DEFAULT_WAY = "sacrebleu-sentence"


def _sacrebleu_way(key: str, call: str, short: str, effective: bool) -> Way:
    """A sacrebleu call; its defaults are exp smoothing and 13a."""
    defaults = _SACRE_SENTENCE if effective else _SACRE_CORPUS
    config = BleuConfig("sacrebleu", effective_order=effective)
    library = "Hugging Face evaluate" if call.startswith("evaluate") else "sacrebleu"
    return Way(
        key, call, short, library, _SACRE_REPLICA, config, defaults, _SACRE_EMPTY, _SACRE_EMPTY
    )


def _nltk_way(i: int) -> Way:
    """NLTK's sentence_bleu with one smoothing method (corpus_bleu of one sentence is the same)."""
    defaults = Defaults("none: you pass tokens", "no", _CLOSEST, f"method{i}", "no")
    return Way(
        f"nltk-method{i}",
        _NLTK_CALL.format(i=i),
        f"NLTK method{i}",
        "NLTK",
        _NLTK_REPLICA,
        BleuConfig("nltk", smooth=f"method{i}"),
        defaults,
        _NLTK_EMPTY,
        _NLTK_EMPTY,
        crashes_without_trigram=i == 6,
    )


def _tfnmt_way(smooth: bool) -> Way:
    """evaluate.load("bleu"), which is tensorflow/nmt's compute_bleu, with or without smooth."""
    suffix = ", smooth=True" if smooth else ""
    call = f'evaluate.load("bleu").compute(predictions=[hyp], references=[refs]{suffix})'
    call += f" = tf-nmt compute_bleu([refs], [hyp]{suffix})"
    smoothing = "add one to every order" if smooth else "none (smooth=False)"
    defaults = Defaults("13a (evaluate); tf-nmt takes tokens", "no", "shortest", smoothing, "no")
    config = BleuConfig("tf-nmt", smooth="add-one" if smooth else "none")
    key = "tf-nmt-smooth" if smooth else "tf-nmt"
    short = 'evaluate "bleu" (tf-nmt)' + (" smooth=True" if smooth else "")
    return Way(
        key,
        call,
        short,
        "Hugging Face evaluate",
        _TF_REPLICA,
        config,
        defaults,
        _TF_EMPTY,
        _TF_EMPTY,
    )


WAYS: tuple[Way, ...] = (
    _sacrebleu_way(
        "sacrebleu-corpus",
        "sacrebleu.corpus_bleu([hyp], [[ref] for ref in refs])",
        "sacrebleu corpus_bleu",
        False,
    ),
    _sacrebleu_way(
        "sacrebleu-sentence-score",
        "sacrebleu.metrics.BLEU().sentence_score(hyp, refs)",
        "BLEU().sentence_score",
        False,
    ),
    _sacrebleu_way(
        "evaluate-sacrebleu",
        'evaluate.load("sacrebleu").compute(predictions=[hyp], references=[refs])',
        'evaluate "sacrebleu"',
        False,
    ),
    _sacrebleu_way(
        DEFAULT_WAY, "sacrebleu.sentence_bleu(hyp, refs)", "sacrebleu sentence_bleu", True
    ),
    *(_nltk_way(i) for i in range(8)),
    _tfnmt_way(False),
    _tfnmt_way(True),
)
WAY_BY_KEY: dict[str, Way] = {way.key: way for way in WAYS}


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
    if way.crashes_without_trigram and score.counts[0] > 0 and score.counts[2] == 0:
        return "AssertionError"
    return None


def ways_frame(results: Sequence[WayResult]) -> pd.DataFrame:
    """One row per call: its score, BP, r, difference from sentence_bleu, the library's own."""
    default = next(r.score.score for r in results if r.way.key == DEFAULT_WAY)
    return pd.DataFrame(
        {
            "library call": [r.way.call for r in results],
            "BLEU": [r.score.score for r in results],
            "BP": [r.score.bp for r in results],
            "r": [r.score.ref_len for r in results],
            "vs sentence_bleu": [r.score.score - default for r in results],
            "the library itself": [
                f"raises {r.crash}; bleuviz shows 0" if r.crash else "same" for r in results
            ],
        }
    )


def defaults_frame(ways: Sequence[Way] = WAYS) -> pd.DataFrame:
    """One row per call (its short name): the defaults it scores with."""
    return pd.DataFrame(
        {
            "call": [w.short for w in ways],
            "tokenizer": [w.defaults.tokenizer for w in ways],
            "lowercase": [w.defaults.lowercase for w in ways],
            "reference length": [w.defaults.ref_length for w in ways],
            "smoothing": [w.defaults.smoothing for w in ways],
            "effective order": [w.defaults.effective_order for w in ways],
        }
    )


def replicas_frame() -> pd.DataFrame:
    """Which bleuviz replica computes each call (documentation, the same for every input)."""
    return pd.DataFrame(
        {"library call": [w.call for w in WAYS], "computed by": [w.replica for w in WAYS]}
    )


def degenerate_frame(results: Sequence[WayResult]) -> pd.DataFrame:
    """One row per way: bleuviz's score and the library's answer for empty inputs."""
    return pd.DataFrame(
        {
            "library call": [r.way.call for r in results],
            "empty candidate": [r.empty_hyp for r in results],
            "the library, empty candidate": [r.way.empty_hyp for r in results],
            "empty reference": [r.empty_ref for r in results],
            "the library, empty reference": [r.way.empty_ref for r in results],
        }
    )
