"""ROUGE-N, ROUGE-L and ROUGE-Lsum, equal to google-research rouge-score 0.1.2.

Replicates ``rouge_score.rouge_scorer.RougeScorer.score`` and ``score_multi`` of
rouge-score 0.1.2 (a port of ROUGE-1.5.5.pl). Tokens come from rouge-score's own
``DefaultTokenizer`` (:mod:`bleuviz.rouge.tokenize`); the scoring maths is
reimplemented (:mod:`bleuviz.rouge.stats`) so that :mod:`bleuviz.rouge.explain`
can show which tokens form the LCS. The tests use ``RougeScorer`` as the oracle,
to 1e-9. This module holds the configuration, the choice of reference and the
segment and corpus scores.

Every type reduces to sufficient statistics ``RougeStats(hits, hyp_total,
ref_total)``. Precision, recall and F-measure use rouge-score's formulas in its
operation order, so the floats are bit-identical and ``score_multi`` ties break
alike.

Deliberate deviations (none changes a number):
    * A text is tokenized once, line by line, and rougeLsum splits it on
      ``"\\n"`` only: see :mod:`bleuviz.rouge.tokenize`.
    * Bad types raise :class:`ConfigError` when the config is built, not
      ``ValueError`` while scoring.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np

from bleuviz.arrays import FloatArray, IntArray
from bleuviz.errors import ConfigError, InputError
from bleuviz.rouge.stats import RougeScore, RougeStats, pair_stats
from bleuviz.rouge.tokenize import TokenizedText, tokenize

ROUGE_TYPES: tuple[str, ...] = (*(f"rouge{n}" for n in range(1, 10)), "rougeL", "rougeLsum")


@dataclass(frozen=True, slots=True)
class RougeConfig:
    """Which ROUGE types to compute, and whether to Porter-stem tokens.

    Attributes:
        rouge_types: names from :data:`ROUGE_TYPES`, without duplicates.
        use_stemmer: stem tokens longer than three characters, as rouge-score does.
    """

    rouge_types: tuple[str, ...] = ("rouge1", "rouge2", "rougeL", "rougeLsum")
    use_stemmer: bool = False

    def __post_init__(self) -> None:
        types: Any = self.rouge_types
        if isinstance(types, str) or not isinstance(types, Sequence):
            raise ConfigError(f"rouge_types: expected a sequence of names, got {types!r}")
        object.__setattr__(self, "rouge_types", tuple(types))
        unknown = [t for t in self.rouge_types if t not in ROUGE_TYPES]
        if unknown or not self.rouge_types:
            raise ConfigError(
                f"rouge_types: got {self.rouge_types!r}; "
                "expected one or more of rouge1 .. rouge9, rougeL, rougeLsum"
            )
        if len(set(self.rouge_types)) != len(self.rouge_types):
            raise ConfigError(f"rouge_types: duplicate names in {self.rouge_types!r}")
        if not isinstance(self.use_stemmer, bool):
            raise ConfigError(f"use_stemmer: expected True or False, got {self.use_stemmer!r}")


def best_reference(candidates: Sequence[RougeStats]) -> int:
    """Return the index of the first candidate with the highest F-measure.

    This is ``np.argmax`` over F-measures, as in ``RougeScorer.score_multi``.
    """
    scores = [stats.score().fmeasure for stats in candidates]
    return scores.index(max(scores))


def segment_stats(
    hyp: TokenizedText, refs: Sequence[TokenizedText], config: RougeConfig
) -> dict[str, tuple[int, RougeStats]]:
    """Return, per type, the chosen reference's index and its statistics.

    Like ``score_multi``, the reference is chosen separately for each type.
    """
    result: dict[str, tuple[int, RougeStats]] = {}
    for rouge_type in config.rouge_types:
        candidates = [pair_stats(hyp, ref, rouge_type) for ref in refs]
        best = best_reference(candidates)
        result[rouge_type] = (best, candidates[best])
    return result


def check_refs(refs: Sequence[str], where: str) -> None:
    """Refuse ``refs`` unless it is a non-empty sequence (not a string) of references.

    Raises:
        InputError: naming ``where``.
    """
    if isinstance(refs, str) or not isinstance(refs, Sequence):
        raise InputError(f"{where}: expected a sequence of reference strings, got {refs!r:.60}")
    if not refs:
        raise InputError(f"{where}: at least one reference is required")


def score_segment(hyp: str, refs: Sequence[str], config: RougeConfig) -> dict[str, RougeScore]:
    """Score one hypothesis against its references, like ``RougeScorer.score_multi``.

    Raises:
        InputError: ``refs`` is empty or not a sequence of strings.
    """
    check_refs(refs, "refs")
    tokens = tokenize(hyp, config.use_stemmer)
    ref_tokens = [tokenize(ref, config.use_stemmer) for ref in refs]
    chosen = segment_stats(tokens, ref_tokens, config)
    return {rouge_type: stats.score() for rouge_type, (_, stats) in chosen.items()}


@dataclass(frozen=True, slots=True)
class CorpusRouge:
    """Per-segment ROUGE scores of a corpus (read-only arrays, one value per segment).

    Attributes:
        rouge_types: the types computed, in config order.
        precision: type -> precision per segment.
        recall: type -> recall per segment.
        fmeasure: type -> F-measure per segment.
        best_ref: type -> index of the reference chosen per segment (score_multi).
    """

    rouge_types: tuple[str, ...]
    precision: Mapping[str, FloatArray]
    recall: Mapping[str, FloatArray]
    fmeasure: Mapping[str, FloatArray]
    best_ref: Mapping[str, IntArray]

    def __len__(self) -> int:
        return len(self.fmeasure[self.rouge_types[0]])

    def mean(self, rouge_type: str) -> RougeScore:
        """Return the arithmetic mean over segments of P, R and F (no bootstrap).

        This is the "mean of sentence scores" people report from rouge-score; the
        mean F is not the F of the mean P and R.

        Raises:
            ConfigError: ``rouge_type`` was not computed.
        """
        if rouge_type not in self.rouge_types:
            raise ConfigError(f"rouge_type: {rouge_type!r} not computed; have {self.rouge_types}")
        return RougeScore(
            float(np.mean(self.precision[rouge_type])),
            float(np.mean(self.recall[rouge_type])),
            float(np.mean(self.fmeasure[rouge_type])),
        )

    def segment(self, index: int) -> dict[str, RougeScore]:
        """Return segment ``index``'s scores (0-based), as :func:`score_segment` gives them."""
        return {
            t: RougeScore(
                float(self.precision[t][index]),
                float(self.recall[t][index]),
                float(self.fmeasure[t][index]),
            )
            for t in self.rouge_types
        }


def _readonly(columns: Mapping[str, Sequence[float]], dtype: type) -> Mapping[str, Any]:
    arrays: dict[str, Any] = {}
    for key, values in columns.items():
        arrays[key] = np.array(values, dtype=dtype)
        arrays[key].flags.writeable = False
    return MappingProxyType(arrays)


def score_corpus(
    hyps: Sequence[str], refs: Sequence[Sequence[str]], config: RougeConfig
) -> CorpusRouge:
    """Score every segment, tokenizing each distinct string once for all types.

    Args:
        hyps: one hypothesis per segment.
        refs: one sequence of reference strings per segment (not one per stream).
        config: the types and stemming.

    Raises:
        InputError: no segments, counts differ, or a segment has no references.
    """
    if not hyps:
        raise InputError("hyps: no segments to score")
    if len(hyps) != len(refs):
        raise InputError(f"hyps has {len(hyps)} segments but refs has {len(refs)}")
    cache: dict[str, TokenizedText] = {}

    def tok(text: str) -> TokenizedText:
        if text not in cache:
            cache[text] = tokenize(text, config.use_stemmer)
        return cache[text]

    rows = []
    for index, (hyp, seg_refs) in enumerate(zip(hyps, refs, strict=True)):
        check_refs(seg_refs, f"refs[{index}]")
        rows.append(segment_stats(tok(hyp), [tok(ref) for ref in seg_refs], config))
    types = config.rouge_types
    scores = {t: [row[t][1].score() for row in rows] for t in types}
    return CorpusRouge(
        types,
        precision=_readonly({t: [s.precision for s in scores[t]] for t in types}, np.float64),
        recall=_readonly({t: [s.recall for s in scores[t]] for t in types}, np.float64),
        fmeasure=_readonly({t: [s.fmeasure for s in scores[t]] for t in types}, np.float64),
        best_ref=_readonly({t: [row[t][0] for row in rows] for t in types}, np.int64),
    )
