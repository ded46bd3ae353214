"""Metrics beside BLEU, per segment: chrF, chrF++ and TER from sacrebleu, ROUGE from rouge-score.

chrF, chrF++ and TER are not reimplemented: sacrebleu's own ``Metric`` objects
extract each segment's sufficient statistics (``_extract_corpus_statistics``)
and turn statistics into scores (``_compute_score_from_stats``), exactly as its
``sentence_score``, ``corpus_score`` and ``PairedTest`` do. The statistics are
kept as a matrix, so a subset's or a resample's score is a sum away.

ROUGE replicates rouge-score 0.1.2 (:mod:`bleuviz.rouge.score`). rouge-score has no
corpus statistic, so the corpus figure is the mean of sentence F-measures, the
number people report from it. Its scale is rouge-score's [0, 1], not 0-100.

As in ``python -m bleuviz rouge``, the two characters ``\\n`` inside a segment
are a sentence break for ROUGE-Lsum.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib.metadata import version
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from bleuviz.bleu.result import FloatArray
from bleuviz.errors import ConfigError, InputError
from bleuviz.rouge.tokenize import SENTENCE_BREAK

if TYPE_CHECKING:
    from sacrebleu.metrics.base import Metric


@dataclass(frozen=True, slots=True)
class MetricSpec:
    """What a metric is and how to read it.

    Attributes:
        label: the name shown in the app ("chrF", "ROUGE-L").
        family: "sacrebleu" (statistics summed over a corpus) or "rouge" (means).
        key: sacrebleu metric label or rouge-score type name.
        higher_is_better: False for TER, an error rate.
        scale: the score's nominal maximum (100, or 1 for ROUGE F).
    """

    label: str
    family: Literal["sacrebleu", "rouge"]
    key: str
    higher_is_better: bool = True
    scale: float = 100.0


EXTRA_METRICS: Mapping[str, MetricSpec] = {
    spec.label: spec
    for spec in (
        MetricSpec("chrF", "sacrebleu", "chrF"),
        MetricSpec("chrF++", "sacrebleu", "chrF++"),
        MetricSpec("TER", "sacrebleu", "TER", higher_is_better=False),
        MetricSpec("ROUGE-1", "rouge", "rouge1", scale=1.0),
        MetricSpec("ROUGE-2", "rouge", "rouge2", scale=1.0),
        MetricSpec("ROUGE-L", "rouge", "rougeL", scale=1.0),
        MetricSpec("ROUGE-Lsum", "rouge", "rougeLsum", scale=1.0),
    )
}

#: Metrics whose paired tests sacrebleu's ``PairedTest`` runs (and bleuviz replicates).
SIGNIFICANCE_METRICS = tuple(s.label for s in EXTRA_METRICS.values() if s.family == "sacrebleu")


@dataclass(frozen=True, slots=True)
class MetricScores:
    """One metric of one system: sentence scores, the corpus score and its signature.

    Attributes:
        spec: which metric.
        sentence: one score per segment (read-only).
        corpus: sacrebleu's corpus score, or for ROUGE the mean sentence F-measure.
        signature: sacrebleu's own signature, or a rouge-score one in its style.
        stats: sacrebleu's segment statistics, one row per segment (read-only);
            None for ROUGE.
    """

    spec: MetricSpec
    sentence: FloatArray
    corpus: float
    signature: str
    stats: FloatArray | None = None

    def statistics(self) -> FloatArray:
        """Return sacrebleu's segment statistics.

        Raises:
            ConfigError: a ROUGE metric, which has no corpus statistics.
        """
        if self.stats is None:
            raise ConfigError(f"metric: {self.spec.label} has no statistics to sum")
        return self.stats


def get_spec(label: str) -> MetricSpec:
    """Return the spec of ``label``.

    Raises:
        ConfigError: not one of :data:`EXTRA_METRICS`.
    """
    if label not in EXTRA_METRICS:
        raise ConfigError(f"metric: unknown {label!r}; choose from {', '.join(EXTRA_METRICS)}")
    return EXTRA_METRICS[label]


def sacrebleu_metric(label: str, lowercase: bool = False) -> Metric:
    """Return a fresh sacrebleu metric object for ``label`` with sacrebleu's CLI defaults.

    ``lowercase`` applies to chrF and chrF++ only, as sacrebleu's ``-lc`` does;
    TER keeps its own default, which is case-insensitive.
    """
    from sacrebleu.metrics.chrf import CHRF
    from sacrebleu.metrics.ter import TER

    key = get_spec(label).key
    if key == "TER":
        return TER()
    if key in ("chrF", "chrF++"):
        return CHRF(word_order=2 if key == "chrF++" else 0, lowercase=lowercase)
    raise ConfigError(f"metric: {label!r} is not a sacrebleu metric")


def score_sacrebleu(
    label: str,
    hyps: Sequence[str],
    references: Sequence[Sequence[str]],
    lowercase: bool = False,
) -> MetricScores:
    """Score every segment and the corpus with sacrebleu's chrF, chrF++ or TER.

    Args:
        label: "chrF", "chrF++" or "TER".
        hyps: one hypothesis per segment.
        references: one stream of N lines per reference, as sacrebleu takes them.
        lowercase: chrF's ``lowercase``.

    Raises:
        InputError: no segments, or a stream's length differs from ``hyps``.
    """
    _check_streams(hyps, references)
    metric = sacrebleu_metric(label, lowercase)
    rows: list[list[Any]] = metric._extract_corpus_statistics(hyps, references)
    sentence = np.array([metric._compute_score_from_stats(row).score for row in rows])
    corpus = float(metric._aggregate_and_compute(rows).score)
    return MetricScores(
        get_spec(label),
        _readonly(sentence),
        corpus,
        metric.get_signature().format(),
        _readonly(np.array(rows, dtype=np.float64)),
    )


def subset_score(scores: MetricScores, indices: Sequence[int], lowercase: bool = False) -> float:
    """Return sacrebleu's corpus score of the segments at ``indices``, from summed statistics.

    Raises:
        ConfigError: ``scores`` is a ROUGE metric, which has no corpus statistic.
    """
    selected = scores.statistics()[np.asarray(indices, dtype=np.int64)]
    metric = sacrebleu_metric(scores.spec.label, lowercase)
    ints = selected.astype(np.int64)
    rows = ints if np.array_equal(ints, selected) else selected
    return float(metric._aggregate_and_compute(rows.tolist()).score)


def score_rouge(
    labels: Sequence[str],
    hyps: Sequence[str],
    references: Sequence[Sequence[str]],
    use_stemmer: bool = False,
) -> dict[str, MetricScores]:
    """Score every segment with the ROUGE ``labels``, tokenizing each text once.

    Each segment takes, per type, the reference with the best F-measure
    (rouge-score's ``score_multi``); the scores are F-measures.

    Raises:
        InputError: no segments, or a stream's length differs from ``hyps``.
        ConfigError: a label is not a ROUGE metric.
    """
    from bleuviz.rouge.score import RougeConfig, score_corpus

    _check_streams(hyps, references)
    specs = [get_spec(label) for label in labels]
    if any(spec.family != "rouge" for spec in specs):
        raise ConfigError(f"labels: {list(labels)} must all be ROUGE metrics")
    config = RougeConfig(tuple(spec.key for spec in specs), use_stemmer=use_stemmer)
    seg_refs = [tuple(map(rouge_text, refs)) for refs in zip(*references, strict=True)]
    corpus = score_corpus([rouge_text(h) for h in hyps], seg_refs, config)
    return {
        spec.label: MetricScores(
            spec,
            corpus.fmeasure[spec.key],
            corpus.mean(spec.key).fmeasure,
            rouge_signature(spec.key, len(references), use_stemmer),
        )
        for spec in specs
    }


def rouge_signature(rouge_type: str, n_refs: int, use_stemmer: bool) -> str:
    """Return a sacrebleu-style signature for a ROUGE figure.

    rouge-score has no signature of its own; this one records what changes the
    number: references, type, stemming, the reference choice and the average.
    """
    return (
        f"nrefs:{n_refs}|type:{rouge_type}|stem:{'porter' if use_stemmer else 'no'}"
        f"|multi:best-f|agg:mean-f|rouge-score:{version('rouge-score')}"
    )


def rouge_text(line: str) -> str:
    """Turn the escape ``\\n`` into the newline that rouge-score's Lsum splits on."""
    return line.replace(SENTENCE_BREAK, "\n")


def _check_streams(hyps: Sequence[str], references: Sequence[Sequence[str]]) -> None:
    if not hyps:
        raise InputError("hyps: no segments to score")
    if not references:
        raise InputError("references: at least one reference stream is required")
    for i, stream in enumerate(references, start=1):
        if len(stream) != len(hyps):
            raise InputError(
                f"reference {i} has {len(stream)} lines but the hypotheses have {len(hyps)}"
            )


def _readonly(array: FloatArray) -> FloatArray:
    array.flags.writeable = False
    return array
