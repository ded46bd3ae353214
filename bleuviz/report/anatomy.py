"""BLEU's anatomy per system: precision by order, brevity penalty and lengths."""

from __future__ import annotations

from dataclasses import dataclass

from bleuviz.metrics.evaluation import Evaluation


@dataclass(frozen=True, slots=True)
class BleuAnatomy:
    """One system's corpus BLEU taken apart (sacrebleu's ``BLEUScore`` fields)."""

    system: str
    score: float
    precisions: tuple[float, ...]
    counts: tuple[int, ...]
    totals: tuple[int, ...]
    bp: float
    ratio: float
    hyp_len: int
    ref_len: int


def bleu_anatomy(evaluation: Evaluation) -> tuple[BleuAnatomy, ...]:
    """Every system's corpus BLEU with its parts, in load order."""
    out = []
    for system in evaluation.testset.systems:
        s = evaluation.bleu(system).score
        out.append(
            BleuAnatomy(
                system,
                s.score,
                tuple(s.precisions),
                tuple(int(c) for c in s.counts),
                tuple(int(t) for t in s.totals),
                s.bp,
                s.ratio,
                int(s.hyp_len),
                int(s.ref_len),
            )
        )
    return tuple(out)
