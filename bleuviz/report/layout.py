"""The report's summary sections: provenance, ranking, BLEU's anatomy, buckets, salient n-grams.

``sections`` lists every section in reading order; those on people's judgements
(human score, error spans, notes) are ``bleuviz.report.evidence``'s.
"""

from __future__ import annotations

from bleuviz.report.build import Report
from bleuviz.report.charts import anatomy_chart, bucket_chart, ranking_chart
from bleuviz.report.evidence import errors, human, notes
from bleuviz.report.options import ALPHA
from bleuviz.report.ranking import OTHER_RESAMPLES
from bleuviz.report.tables import Cell, Section, Table, num, number_cell, p_cell
from bleuviz.report.versus import SALIENT_TOP


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
                cells.append(number_cell(c.cis.get(system), c.digits))
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
            (
                Cell(p.a),
                Cell(p.b),
                number_cell(p.diff, 4),
                p_cell(p.p_value_bs),
                p_cell(p.p_value_ar),
            )
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
            number_cell(a.score, 2),
            *(number_cell(p, 2) for p in a.precisions),
            number_cell(a.bp, 3),
            number_cell(a.ratio, 3),
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
                *(number_cell(v[j], 2) for v in view.scores.values()),
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
                    number_cell(s.score, 3),
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
