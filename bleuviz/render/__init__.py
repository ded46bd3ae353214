"""Escaped highlight HTML, Markdown-safe labels and plotly figures (no Streamlit)."""

from typing import TYPE_CHECKING

from bleuviz.lazy import lazy_exports

if TYPE_CHECKING:
    from bleuviz.render.charts import document_bars, precision_by_order, sentence_score_boxes
    from bleuviz.render.compare_charts import (
        bucket_bars,
        difference_histogram,
        sentence_scatter,
        win_tie_loss_bar,
    )
    from bleuviz.render.error_marks import error_legend, error_line_html
    from bleuviz.render.highlight import (
        STATUS_LABELS,
        STYLE,
        hypothesis_html,
        hypothesis_with_errors,
        legend,
        reference_html,
    )
    from bleuviz.render.labels import code_span, escape_markdown
    from bleuviz.render.rouge_highlight import rouge_hypothesis_html, rouge_reference_html

_EXPORTS = {
    "document_bars": "bleuviz.render.charts",
    "precision_by_order": "bleuviz.render.charts",
    "sentence_score_boxes": "bleuviz.render.charts",
    "bucket_bars": "bleuviz.render.compare_charts",
    "difference_histogram": "bleuviz.render.compare_charts",
    "sentence_scatter": "bleuviz.render.compare_charts",
    "win_tie_loss_bar": "bleuviz.render.compare_charts",
    "error_legend": "bleuviz.render.error_marks",
    "error_line_html": "bleuviz.render.error_marks",
    "STATUS_LABELS": "bleuviz.render.highlight",
    "STYLE": "bleuviz.render.highlight",
    "code_span": "bleuviz.render.labels",
    "escape_markdown": "bleuviz.render.labels",
    "hypothesis_html": "bleuviz.render.highlight",
    "hypothesis_with_errors": "bleuviz.render.highlight",
    "legend": "bleuviz.render.highlight",
    "reference_html": "bleuviz.render.highlight",
    "rouge_hypothesis_html": "bleuviz.render.rouge_highlight",
    "rouge_reference_html": "bleuviz.render.rouge_highlight",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
__all__ = [
    "STATUS_LABELS",
    "STYLE",
    "bucket_bars",
    "code_span",
    "difference_histogram",
    "document_bars",
    "error_legend",
    "error_line_html",
    "escape_markdown",
    "hypothesis_html",
    "hypothesis_with_errors",
    "legend",
    "precision_by_order",
    "reference_html",
    "rouge_hypothesis_html",
    "rouge_reference_html",
    "sentence_scatter",
    "sentence_score_boxes",
    "win_tie_loss_bar",
]
