"""Escaped highlight HTML, Markdown-safe labels and plotly figures (no Streamlit)."""

from bleuviz.render.charts import document_bars, precision_by_order, sentence_bleu_histogram
from bleuviz.render.compare_charts import (
    bucket_bars,
    difference_histogram,
    sentence_scatter,
    win_tie_loss_bar,
)
from bleuviz.render.highlight import (
    STATUS_LABELS,
    STYLE,
    code_span,
    escape_markdown,
    hypothesis_html,
    legend,
    reference_html,
)
from bleuviz.render.rouge_highlight import rouge_hypothesis_html, rouge_reference_html

__all__ = [
    "STATUS_LABELS",
    "STYLE",
    "bucket_bars",
    "code_span",
    "difference_histogram",
    "document_bars",
    "escape_markdown",
    "hypothesis_html",
    "legend",
    "precision_by_order",
    "reference_html",
    "rouge_hypothesis_html",
    "rouge_reference_html",
    "sentence_bleu_histogram",
    "sentence_scatter",
    "win_tie_loss_bar",
]
