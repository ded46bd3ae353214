"""ROUGE beside BLEU: the rouge-score replica (:mod:`bleuviz.rouge`) as per-segment scores.

rouge-score has no corpus statistic, so the corpus figure is the mean of
sentence F-measures, the number people report from it. Its scale is
rouge-score's [0, 1], not 0-100. As in ``python -m bleuviz rouge``, the two
characters ``\\n`` inside a segment are a sentence break for ROUGE-Lsum.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib.metadata import version

from bleuviz.metrics.spec import MetricScores, MetricSpec
from bleuviz.metrics.streams import check_streams
from bleuviz.rouge.score import RougeConfig, score_corpus
from bleuviz.rouge.tokenize import SENTENCE_BREAK


def score_with_rouge(
    specs: Sequence[MetricSpec],
    hyps: Sequence[str],
    references: Sequence[Sequence[str]],
    use_stemmer: bool = False,
) -> dict[str, MetricScores]:
    """Score every segment with the ROUGE ``specs``, tokenizing each text once.

    Each segment takes, per type, the reference with the best F-measure
    (rouge-score's ``score_multi``); the scores are F-measures.

    Raises:
        InputError: no segments, or a stream's length differs from ``hyps``.
    """
    check_streams(hyps, references)
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
