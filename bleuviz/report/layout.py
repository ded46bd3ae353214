"""The report's sections as titled tables and charts: the template only loops over them.

Numbers become text here (so that the template holds no logic); every piece
of user text stays a plain string, which the template engine escapes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from bleuviz.analysis.error_reports import OrderCounts
from bleuviz.report.build import Report
from bleuviz.report.charts import anatomy_chart, bucket_chart, flagged_chart, ranking_chart
from bleuviz.report.options import ALPHA
from bleuviz.report.ranking import OTHER_RESAMPLES
from bleuviz.report.versus import SALIENT_TOP


@dataclass(frozen=True, slots=True)
class Cell:
    """One table cell: its text, and optionally a CSS class, a link and a hover text."""

    text: str
    css: str = ""
    href: str = ""
    title: str = ""


@dataclass(frozen=True, slots=True)
class Table:
    """A captioned table: its header, rows of cells, and notes below it."""

    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Section:
    """A titled section: paragraphs, charts (inline SVG) and tables."""

    id: str
    title: str
    paragraphs: tuple[str, ...] = ()
    charts: tuple[str, ...] = ()
    tables: tuple[Table, ...] = ()


def num(value: float | None, digits: int, sign: bool = False) -> str:
    """A number with ``digits`` decimals; an en dash where there is none."""
    if value is None or math.isnan(value):
        return "–"
    return f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"


def _n(value: float | None, digits: int, css: str = "num") -> Cell:
    return Cell(num(value, digits), css)


def _p(value: float | None) -> Cell:
    """A p-value, starred below ALPHA."""
    if value is None:
        return Cell("–", "num")
    return Cell(f"{value:.4f}" + ("*" if value < ALPHA else ""), "num")


def _link(seg: int) -> Cell:
    return Cell(str(seg), "num", href=f"#seg-{seg}")


def sections(report: Report) -> tuple[Section, ...]:
    """Every section the report holds, in reading order (absent ones left out)."""
    out = [provenance(report), ranking(report), anatomy(report), buckets(report)]
    out += [salient(report)] if report.salient else []
    out += [human(report)] if report.human is not None else []
    out += [errors(report)] if report.errors is not None else []
    out += [notes(report)] if report.options.notes else []
    return tuple(out)


def provenance(report: Report) -> Section:
    """Version, date, command line, inputs and every signature."""
    p = report.options.provenance
    rows = [("bleuviz", p.version), ("built", p.date), ("command", p.command)]
    if report.options.set_id is not None:
        rows.append(("saved test set", report.options.set_id))
    rows.append(("test set", f"{len(report.systems)} systems × {report.n_segments:,} segments"))
    rows += [(f"{c.name} signature", c.signature) for c in report.ranking.columns]
    rows.append(("paired tests", report.ranking.signature))
    about = Table(
        "How this report was made",
        ("", ""),
        tuple((Cell(k, "key"), Cell(v, "mono")) for k, v in rows),
    )
    files = Table(
        "Input files",
        ("role", "file", "SHA-256"),
        tuple((Cell(f.role), Cell(f.name), Cell(f.sha256, "mono")) for f in p.inputs),
    )
    return Section("provenance", "Provenance", tables=(about, files) if p.inputs else (about,))


def ranking(report: Report) -> Section:
    """The ranked systems, every metric, CIs, clusters and the tested pairs."""
    r = report.ranking
    tested = r.columns[0]
    header = ["cluster", "system"]
    for c in r.columns:
        header += [c.name, "± 95% CI"] if c.cis else [c.name]
    rows = []
    for system in r.order:
        cells = [Cell(str(r.cluster_of(system)), "num"), Cell(system)]
        for c in r.columns:
            best = " best" if system in c.best else ""
            cells.append(
                Cell(num(c.scores[system], c.digits), "num" + best, title="best" if best else "")
            )
            if c.cis:
                cells.append(_n(c.cis.get(system), c.digits))
        rows.append(tuple(cells))
    t = r.tests
    holm = f"Holm-adjusted over {len(r.pairs):,} pairs, " if t.holm else ""
    ar = f" and {t.n_ar:,} randomization trials" if t.n_ar else ""
    intro = (
        f"Ranked by {tested.name}. Clusters: a system leaves its cluster when significantly worse "
        f"(paired bootstrap, p < {ALPHA}, {holm}{t.n_bootstrap:,} resamples{ar}, seed {t.seed}) "
        "than the cluster's best. Bold: the best value of a column. CIs: bootstrap 95% half-widths "
        f"(the first system as baseline, as compare's), of {t.n_bootstrap:,} resamples for "
        f"{tested.name} and {OTHER_RESAMPLES:,} for the other metrics."
    )
    chart = ranking_chart(r.order, tested.scores, tested.cis, tested.name, report.systems)
    pairs = Table(
        f"Every pair on {tested.name}: diff = b − a, p-values "
        + ("Holm-adjusted" if t.holm else "raw"),
        ("a", "b", "diff", "p (bs)", "p (ar)"),
        tuple(
            (Cell(p.a), Cell(p.b), _n(p.diff, 4), _p(p.p_value_bs), _p(p.p_value_ar))
            for p in r.pairs
        ),
        (f"* p < {ALPHA}",),
    )
    clusters = Table(
        "Rank clusters",
        ("cluster", "systems"),
        tuple((Cell(str(i), "num"), Cell(", ".join(c))) for i, c in enumerate(r.clusters, start=1)),
    )
    table = Table("Systems", tuple(header), tuple(rows))
    tables = (table, clusters, pairs) if r.pairs else (table,)
    return Section("ranking", "Ranked systems", (intro,), (chart,), tables)


def anatomy(report: Report) -> Section:
    """BLEU's parts per system: chart and table."""
    k = max((len(a.precisions) for a in report.anatomy), default=0)
    header = (
        "system",
        "BLEU",
        *(f"P{n}" for n in range(1, k + 1)),
        "BP",
        "ratio",
        "hyp len",
        "ref len",
    )
    rows = tuple(
        (
            Cell(a.system),
            _n(a.score, 2),
            *(_n(p, 2) for p in a.precisions),
            _n(a.bp, 3),
            _n(a.ratio, 3),
            Cell(f"{a.hyp_len:,}", "num"),
            Cell(f"{a.ref_len:,}", "num"),
        )
        for a in report.anatomy
    )
    a = report.anatomy
    chart = anatomy_chart(
        [x.system for x in a], [x.precisions for x in a], [x.bp for x in a], [x.ratio for x in a]
    )
    intro = (
        "BLEU = BP × exp(mean log precision): each order's clipped matches over the "
        "hypothesis n-grams, and the brevity penalty of the length ratio."
    )
    return Section(
        "anatomy", "BLEU's anatomy", (intro,), (chart,), (Table("BLEU by part", header, rows),)
    )


def buckets(report: Report) -> Section:
    """Corpus BLEU by bucket of the first system's segments, every system beside it."""
    first = report.systems[0]
    tables, charts = [], []
    for view in report.buckets:
        header = ("bucket", "segments", *view.scores)
        rows = tuple(
            (
                Cell(label),
                Cell(f"{view.counts[j]:,}", "num"),
                *(_n(v[j], 2) for v in view.scores.values()),
            )
            for j, label in enumerate(view.labels)
        )
        title = view.title.replace(" of A", f" of {first}")  # A is the first system
        tables.append(Table(title, header, rows))
        charts.append(bucket_chart(view.kind, title, view.labels, view.scores))
    intro = (
        f"Segments bucketed once, by the reference length and by {first}'s (the first system's) "
        "sentence BLEU and length ratio, so that every system's score in a bucket is the "
        "corpus BLEU of the same segments (compare-mt's bucketers)."
    )
    return Section("buckets", "Buckets", (intro,), tuple(charts), tuple(tables))


def salient(report: Report) -> Section:
    """compare-mt's salient n-grams of the first system against each other one."""
    tables = []
    for pair in report.salient:
        for side, items in (
            (f"{pair.a} > {pair.b}", pair.a_better),
            (f"{pair.b} > {pair.a}", pair.b_better),
        ):
            rows = tuple(
                (
                    Cell(s.text),
                    Cell(str(s.order), "num"),
                    Cell(str(s.a_matches), "num"),
                    Cell(str(s.b_matches), "num"),
                    _n(s.score, 3),
                )
                for s in items
            )
            tables.append(
                Table(
                    side,
                    ("n-gram", "order", f"{pair.a} matches", f"{pair.b} matches", "score"),
                    rows,
                )
            )
    intro = (
        "n-grams one system matches in the references more often than the other "
        f"(compare-mt's smoothed ratio (a + 1) / (a + b + 2); the top {SALIENT_TOP} of each side)."
    )
    return Section("salient", "Salient n-grams", (intro,), (), tuple(tables))


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
        cells = [Cell(c.name), *(_n(v, 4) for v in values)]
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
                _link(d.seg),
                Cell(d.system),
                _n(d.metric_score, digits.get(d.metric, 4)),
                _n(d.human_score, digits.get(h.human, 4)),
                _n(d.gap, 1),
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
                _n(float(v), 2) if c == "errors per rating" else Cell(f"{int(v):,}", "num")
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
                _n(s.spans[-1].f1 if s.spans else None, 3),
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
            _link(n.segment + 1),
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
