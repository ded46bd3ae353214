"""Overview tables: how well error spans are predicted, by BLEU's flagged runs and by metrics.

Both read on one scale: MPP (partial overlap, partial credit), micro-averaged
(``bleuviz.analysis.span_agreement``), against the same gold spans.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import streamlit as st

from bleuviz.analysis.error_tokens import ErrorTokenReport
from bleuviz.analysis.metric_spans import SystemSpanAgreement, metric_agreement
from bleuviz.analysis.span_agreement import SpanCredit
from bleuviz.app.ui.cache.keys import cached_data
from bleuviz.app.ui.sections.error_spans import spans_id
from bleuviz.errors import BleuvizError
from bleuviz.io.error_spans import METRIC, ErrorAnnotations
from bleuviz.render.labels import escape_markdown as md
from bleuviz.render.numbers import PERCENT_DIGITS, printf


def span_agreement_tables(
    report: ErrorTokenReport,
    files: Sequence[ErrorAnnotations],
    gold: ErrorAnnotations,
    rater: str | None,
) -> None:
    """BLEU's agreement per order, then each span-predicting metric's (for the same system)."""
    st.markdown("**Span agreement** of BLEU's flagged runs with the error spans (MPP)")
    st.dataframe(
        agreement_frame(report), key="ov_sees_spans", hide_index=True, column_config=PERCENTS
    )
    _metrics_agreement(files, gold, report.name, rater)


#: Precision, recall and F1 in percent, at one precision (as ``bleuviz spans`` prints them).
PERCENTS = {
    name: st.column_config.NumberColumn(name, format=printf(PERCENT_DIGITS) + "%%")
    for name in ("precision", "recall", "F1")
}


def agreement_frame(report: ErrorTokenReport) -> pd.DataFrame:
    """Span agreement per order: precision, recall and F1 in percent, with the span counts."""
    return pd.DataFrame(
        {
            "order": [s.order for s in report.spans],
            "precision": [100 * s.precision for s in report.spans],
            "recall": [100 * s.recall for s in report.spans],
            "F1": [100 * s.f1 for s in report.spans],
            "flagged runs": [s.credit.predicted for s in report.spans],
            "error spans": [s.credit.gold for s in report.spans],
        }
    )


@cached_data(max_entries=16, show_spinner=False)
def cached_metric_agreement(
    content_id: str,
    names: tuple[str, str],
    rater: str | None,
    _predicted: ErrorAnnotations,
    _gold: ErrorAnnotations,
) -> tuple[SystemSpanAgreement, ...]:
    """``metric_agreement`` of span files ``names`` (predicted, gold) of ``content_id``."""
    return metric_agreement(_predicted, _gold, rater)


def _metrics_agreement(
    files: Sequence[ErrorAnnotations], gold: ErrorAnnotations, system: str, rater: str | None
) -> None:
    """The same agreement for every span-predicting metric loaded (xCOMET), against ``gold``."""
    metrics = [f for f in files if f.kind == METRIC and f is not gold]
    if gold.kind == METRIC or not metrics:
        return
    rows = []
    for metric in metrics:
        try:
            reports = cached_metric_agreement(
                spans_id(gold), (metric.name, gold.name), rater, metric, gold
            )
        except BleuvizError as exc:
            st.caption(md(str(exc)))
            continue
        for report in reports:
            if report.name == system:
                rows.append(_credit_row(metric.name, report.segments, report.credit))
    if rows:
        st.markdown(f"The same measure for the metrics' predicted spans against {md(gold.name)}")
        st.dataframe(
            pd.DataFrame(rows), key="ov_sees_metric_spans", hide_index=True, column_config=PERCENTS
        )


def _credit_row(name: str, segments: int, credit: SpanCredit) -> dict[str, object]:
    """One row of a span-agreement table (precision, recall and F1 in percent)."""
    return {
        "spans from": name,
        "precision": 100 * credit.precision,
        "recall": 100 * credit.recall,
        "F1": 100 * credit.f1,
        "predicted spans": credit.predicted,
        "error spans": credit.gold,
        "segments": segments,
    }
