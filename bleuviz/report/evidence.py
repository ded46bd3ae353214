"""The report's sections on people's judgements: the human score, error spans, notes."""

from __future__ import annotations

from collections.abc import Sequence

from bleuviz.analysis.error_reports import OrderCounts
from bleuviz.report.build import Report
from bleuviz.report.charts import flagged_chart
from bleuviz.report.tables import Cell, Section, Table, num, number_cell, segment_link


def human(report: Report) -> Section:
    """Correlations with the human score, the meta-evaluation and the largest disagreements."""
    h = report.human
    if h is None:  # pragma: no cover - sections() leaves it out
        return Section("human", "Human score")
    header = (
        "metric",
        "sys r",
        "sys τ",
        "pair acc",
        "seg τ",
        "τ item",
        "τ sys",
        "acc_eq",
        "ε",
        "tied %",
        "systems",
        "segments",
    )
    rows = []
    for c in h.correlations:
        values = [c.system_pearson, c.system_kendall, c.pairwise_accuracy, c.segment_kendall]
        values += [c.segment_kendall_item, c.segment_kendall_system, c.pairwise_accuracy_eq]
        cells = [Cell(c.name), *(number_cell(v, 4) for v in values)]
        cells += [Cell("–" if c.tie_epsilon is None else f"{c.tie_epsilon:.4g}", "num")]
        cells += [Cell("–" if c.tied_share is None else f"{100 * c.tied_share:.1f}", "num")]
        cells += [Cell(str(c.n_systems), "num"), Cell(str(c.n_segments), "num")]
        rows.append(tuple(cells))
    notes: tuple[str, ...] = (
        "Scores oriented so that higher is better. seg τ: tau-b over every (system, segment) pair; "
        "τ item / τ sys: mean tau-b per segment / per system; acc_eq: pairwise accuracy with tie "
        "calibration (Deutsch et al., 2023), ε its tie threshold.",
    )
    if h.left_out:
        notes += (f"Left out as human references: {', '.join(h.left_out)}.",)
    corr = Table(f"Correlation with {h.human}", header, tuple(rows), notes)
    digits = {c.label: c.digits for c in report.ranking.columns}
    gaps = Table(
        "Largest disagreements (percentile of the metric minus the human's)",
        ("metric", "segment", "system", "metric score", f"{h.human}", "gap", "side"),
        tuple(
            (
                Cell(d.metric),
                segment_link(d.seg),
                Cell(d.system),
                number_cell(d.metric_score, digits.get(d.metric, 4)),
                number_cell(d.human_score, digits.get(h.human, 4)),
                number_cell(d.gap, 1),
                Cell(d.side),
            )
            for d in h.disagreements
        ),
    )
    return Section("human", f"Metrics and the human score ({h.human})", tables=(corr, gaps))


def _share(rows: Sequence[OrderCounts]) -> list[Cell]:
    cells = []
    for r in rows:
        cells += [
            Cell(num(100 * r.error_rate, 1), "num"),
            Cell(num(100 * r.difference, 1, sign=True), "num"),
        ]
    return cells


def errors(report: Report) -> Section:
    """The error-category breakdown and what BLEU sees of the errors."""
    e = report.errors
    if e is None:  # pragma: no cover - sections() leaves it out
        return Section("errors", "Error spans")
    frame = e.breakdown
    header = ("system", *(str(c) for c in frame.columns))
    rows = tuple(
        (
            Cell(str(system)),
            *(
                number_cell(float(v), 2) if c == "errors per rating" else Cell(f"{int(v):,}", "num")
                for c, v in row.items()
            ),
        )
        for system, row in frame.iterrows()
    )
    breakdown = Table(f"{e.name}: major and minor errors per top-level category", header, rows)
    a = e.analysis.all
    orders = [r.order for r in a.orders]
    sees_header = ("group", "tokens", *(h for n in orders for h in (f"n={n} flagged %", "diff")))
    groups = [
        ("all errors", a.orders),
        *a.by_severity.items(),
        *((c, a.by_category[c]) for c in e.categories),
    ]
    sees_rows = [
        (Cell(label), Cell(f"{rows_[0].error_tokens:,}", "num"), *_share(rows_))
        for label, rows_ in groups
    ]
    other = [Cell("other tokens"), Cell(f"{a.orders[0].other_tokens:,}", "num")]
    for r in a.orders:
        other += [Cell(num(100 * r.other_rate, 1), "num"), Cell("")]
    sees_rows.append(tuple(other))
    sees = Table(
        f"What BLEU sees of {e.name}'s errors (all systems)",
        sees_header,
        tuple(sees_rows),
        (
            "flagged %: share of tokens no matched n-gram of that order covers; diff: error "
            "tokens' share minus other tokens', in points.",
        ),
    )
    top = orders[-1] if orders else 0
    per_system = Table(
        f"Per system, at n = {top}",
        (
            "system",
            "segments",
            "error tokens",
            "error flagged %",
            "other flagged %",
            "diff",
            "span F1",
        ),
        tuple(
            (
                Cell(s.name),
                Cell(f"{s.segments:,}", "num"),
                Cell(f"{s.orders[-1].error_tokens:,}", "num"),
                Cell(num(100 * s.orders[-1].error_rate, 1), "num"),
                Cell(num(100 * s.orders[-1].other_rate, 1), "num"),
                Cell(num(100 * s.orders[-1].difference, 1, sign=True), "num"),
                number_cell(s.spans[-1].f1 if s.spans else None, 3),
            )
            for s in e.analysis.systems
        ),
    )
    chart = flagged_chart(
        orders, [r.error_rate for r in a.orders], [r.other_rate for r in a.orders]
    )
    intro = f"Error spans: {e.name} ({e.origin})."
    return Section("errors", "Error spans", (intro,), (chart,), (breakdown, sees, per_system))


def notes(report: Report) -> Section:
    """The saved set's notes, each linked to its segment."""
    rows = tuple(
        (
            segment_link(n.segment + 1),
            Cell(n.system),
            Cell(n.author),
            Cell(n.category),
            Cell(n.severity or "comment"),
            Cell(n.text),
        )
        for n in sorted(report.options.notes, key=lambda n: (n.segment, n.system))
    )
    table = Table("Notes", ("segment", "system", "author", "category", "severity", "note"), rows)
    return Section("notes", f"Notes of test set {report.options.set_id}", tables=(table,))
