"""Numbers as their libraries print them."""

from __future__ import annotations

from bleuviz.metrics import EXTRA_METRICS


def fmt_bleu(value: float) -> str:
    """BLEU as sacrebleu prints it: two decimals."""
    return f"{value:.2f}"


def fmt_bp(value: float) -> str:
    """BP as sacrebleu prints it: three decimals."""
    return f"{value:.3f}"


def fmt_metric(label: str, value: float) -> str:
    """A metric as its library prints it: two decimals, or four for ROUGE's 0-1 scale."""
    return f"{value:.4f}" if EXTRA_METRICS[label].scale <= 1 else f"{value:.2f}"
