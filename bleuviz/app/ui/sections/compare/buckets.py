"""Compare page section: buckets of segments, scored by the chosen sentence metric.

Segments are bucketed once by a property of the references or of A (reference
length, A's length ratio, A's sentence score by the chosen metric, an imported
score of A); the edges are editable. Each bucket shows A's and B's corpus score
of its segments (BLEU, chrF, TER from summed statistics; ROUGE and imported
scores as means), B's gain and a paired bootstrap p-value on those segments.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd
import streamlit as st

from bleuviz.analysis.buckets import (
    BUCKET_KINDS,
    bucket_values,
    edge_buckets,
    parse_edges,
    quantile_edges,
    segments_in,
)
from bleuviz.app.ui.cache.background import with_progress
from bleuviz.app.ui.cache.compare import ALL, fmt_p
from bleuviz.app.ui.cache.keys import cached_data
from bleuviz.app.ui.cache.scores import every_system_scores
from bleuviz.app.ui.sections.deferred import CHART_PX, deferred
from bleuviz.app.ui.state.link_values import LinkValueError
from bleuviz.app.ui.state.links import LinkParam, apply_links, write_links
from bleuviz.app.ui.state.page_links import choice_param
from bleuviz.app.ui.widgets.export import export_buttons
from bleuviz.app.ui.widgets.format import fmt_metric
from bleuviz.arrays import FloatArray, IntArray
from bleuviz.errors import BleuvizError
from bleuviz.metrics import MetricScores, MetricSpec, Settings
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.progress import Progress
from bleuviz.render.compare_charts import bucket_bars
from bleuviz.render.labels import escape_markdown as md
from bleuviz.significance import PairedResult
from bleuviz.significance.by_metric import paired_test, segments_tested

#: Default edges of the kinds with fixed edges (compare-mt's bucketers).
FIXED_EDGES = {kind: BUCKET_KINDS[kind].edges for kind in ("ref_len", "ratio")}
#: Bucket-kind prefix of an imported score (``score:COMET`` buckets by COMET of A).
SCORE_KIND = "score:"
#: The kind that buckets by A's sentence score on the chosen metric.
OWN_SCORE = "own"


def pick_bucket() -> None:
    """Filter the sentence table to the bucket the user clicked (a cleared click: all)."""
    points = st.session_state["cmp_bucket_chart"].selection.points
    st.session_state["cmp_bucket"] = str(points[0]["x"]) if points else ALL


@dataclass(frozen=True, slots=True)
class BucketChoice:
    """The buckets as the session holds them: kind, edges, each segment's bucket.

    Built on every run of the Compare page, drawn or not, since the chosen bucket
    filters the Segments tab while the Buckets tab is closed.
    """

    kind: str
    titles: dict[str, str]
    edges_key: str
    labels: tuple[str, ...]
    groups: IntArray
    edges_error: str | None
    links: tuple[LinkParam, ...]

    @property
    def options(self) -> list[str]:
        """The buckets offered: all, then every bucket that holds a segment."""
        return _offered(self.labels, self.groups)

    def chosen(self) -> IntArray | None:
        """The chosen bucket's segments (0-based), or None for every segment."""
        bucket = st.session_state.get("cmp_bucket", ALL)
        return None if bucket == ALL else segments_in(self.labels, self.groups, bucket)


def bucket_choice(
    evaluation: Evaluation,
    names: tuple[str, str],
    metric: str,
    imported: list[str],
) -> BucketChoice:
    """Read (and on arrival, take from the link) the bucket kind, edges and bucket."""
    titles = {
        **{kind: BUCKET_KINDS[kind].title for kind in FIXED_EDGES},
        OWN_SCORE: f"Sentence {metric} of A",
        **{SCORE_KIND + n: f"{n} of A" for n in imported if n != metric},
    }
    kind_link = choice_param("bucket_by", "cmp_bucket_kind", list(titles), "bucket kind")
    apply_links([kind_link])
    if st.session_state.get("cmp_bucket_kind") not in titles:
        st.session_state["cmp_bucket_kind"] = "ref_len"
    kind = str(st.session_state["cmp_bucket_kind"])
    values = _bucket_values(evaluation, names[0], kind, metric)
    spec = evaluation.metric(metric)
    default = FIXED_EDGES.get(kind) or _default_score_edges(spec, values, kind)
    default_text = ", ".join(f"{e:g}" for e in default)
    edges_key = f"cmp_bucket_edges::{kind}::{metric}"
    edges_link = LinkParam("edges", edges_key, _edges_param, _show_edges, default_text)
    apply_links([edges_link])
    st.session_state.setdefault(edges_key, default_text)
    error = None
    try:
        labels, groups = edge_buckets(values, parse_edges(st.session_state[edges_key]))
    except BleuvizError as exc:
        error = str(exc)
        labels, groups = edge_buckets(values, default)
    options = _offered(labels, groups)
    bucket_link = choice_param("bucket", "cmp_bucket", options, "bucket with segments")
    apply_links([bucket_link])
    if st.session_state.get("cmp_bucket") not in options:
        st.session_state["cmp_bucket"] = ALL
    return BucketChoice(
        kind, titles, edges_key, labels, groups, error, (kind_link, edges_link, bucket_link)
    )


def _offered(labels: tuple[str, ...], groups: IntArray) -> list[str]:
    """All, then every bucket that holds a segment."""
    filled = np.bincount(groups, minlength=len(labels))
    return [ALL, *(label for g, label in enumerate(labels) if filled[g])]


def bucket_section(
    evaluation: Evaluation,
    names: tuple[str, str],
    metric: str,
    choice: BucketChoice,
    settings: tuple[int, int, int],
) -> None:
    """Kind, edges, chart and table of the buckets ``choice`` holds."""
    left, middle, right = st.columns([2, 2, 2])
    reset = partial(st.session_state.update, cmp_bucket=ALL)
    left.selectbox(
        "Bucket segments by",
        list(choice.titles),
        format_func=choice.titles.__getitem__,
        key="cmp_bucket_kind",
        on_change=reset,
        persist_state="page",
    )
    middle.text_input(
        "Bucket edges",
        key=choice.edges_key,
        help="Bucket i holds values from edge i-1 (included) to edge i (excluded).",
        on_change=reset,
        persist_state="page",
    )
    if choice.edges_error is not None:
        st.error(md(choice.edges_error), icon=":material/error:")
    right.selectbox(
        "Bucket shown in the Segments tab", choice.options, key="cmp_bucket", persist_state="page"
    )
    write_links(choice.links)
    table = bucket_tests(evaluation, names, metric, choice.labels, choice.groups, settings)
    _show(table, names, metric, choice.titles[choice.kind], evaluation.metric(metric))
    if choice.kind == OWN_SCORE or choice.kind.removeprefix(SCORE_KIND) == metric:
        st.warning(
            f"Bucketing by A's own {md(metric)} favours B in the low buckets and A in the high "
            "ones even when the systems are equally good (regression to the mean): A's low "
            "scores are partly bad luck that B does not share. Prefer a property of the "
            "segment (reference length) for conclusions.",
            icon=":material/warning:",
        )


def _bucket_values(evaluation: Evaluation, baseline: str, kind: str, metric: str) -> FloatArray:
    """The value each segment is bucketed by: a property of the references or of A's
    BLEU statistics, or A's sentence scores by a metric."""
    if kind in FIXED_EDGES:
        return bucket_values(kind, evaluation.bleu(baseline).stats, evaluation.settings.bleu)
    label = metric if kind == OWN_SCORE else kind.removeprefix(SCORE_KIND)
    return every_system_scores(evaluation, label, [baseline])[baseline].sentence


def _edges_param(raw: str) -> object:
    """``0,10,20`` -> the edges box's text; the edges must parse as the box's do."""
    try:
        edges = parse_edges(raw)
    except BleuvizError as exc:
        raise LinkValueError(str(exc)) from None
    return ", ".join(f"{e:g}" for e in edges)


def _show_edges(value: object) -> str:
    """The edges box's text as ``0,10,20``."""
    return ",".join(str(value).replace(",", " ").split())


def _default_score_edges(spec: MetricSpec, values: FloatArray, kind: str) -> tuple[float, ...]:
    """A metric's own bucket edges (sentence BLEU in tens, as compare-mt); else quartiles."""
    if kind == OWN_SCORE and spec.bucket_edges:
        return spec.bucket_edges
    return tuple(round(e, 4) for e in quantile_edges(values))


def bucket_tests(
    evaluation: Evaluation,
    names: tuple[str, str],
    metric: str,
    labels: tuple[str, ...],
    groups: IntArray,
    tests: tuple[int, int, int],
) -> pd.DataFrame:
    """Per bucket: segments, A's and B's score on ``metric``, B's gain, the bootstrap p-value.

    Cached per evaluation (the settings the metric reads), pair, metric, buckets
    and tests (one bootstrap per bucket is too slow to repeat on every rerun of
    the page). A's and B's scores are computed first, on the script thread,
    where not held already.
    """
    every_system_scores(evaluation, metric, list(names))
    reading = evaluation.reading(metric)
    return with_progress(
        "Testing each bucket",
        lambda report: _bucket_tests(
            reading, names, metric, labels, groups, tests, _progress=report
        ),
    )


@cached_data(max_entries=32, show_spinner=False)
def _bucket_tests(
    evaluation: Evaluation,
    names: tuple[str, str],
    metric: str,
    labels: tuple[str, ...],
    groups: IntArray,
    tests: tuple[int, int, int],
    _progress: Progress | None = None,
) -> pd.DataFrame:
    """The bucket tests (run on a worker thread, reading no session state)."""
    rows: list[tuple[str, int, float, float, float, float | None]] = []
    spec = evaluation.metric(metric)
    scores = evaluation.scores(metric, list(names))
    test = BucketTest(names, spec, evaluation.settings, tests)
    for g, label in enumerate(labels):
        index = np.flatnonzero(groups == g)
        if not len(index):
            rows.append((label, 0, np.nan, np.nan, np.nan, None))
            continue
        within = _within_bucket(_progress, label, g, len(labels))
        result = _pair_test(test, scores, index, within)
        a, b = (r.score for r in result) if result else (np.nan, np.nan)
        p = result[1].p_value_bs if result else None
        gain = (b - a) if spec.higher_is_better else (a - b)
        rows.append((label, len(index), a, b, gain, p))
    return pd.DataFrame(
        rows, columns=["bucket", "segments", "score_a", "score_b", "gain_b", "p_value_bs"]
    )


def _within_bucket(progress: Progress | None, label: str, g: int, n: int) -> Progress | None:
    """Report a bucket's test as part of all the buckets' ("bucket 20–30 (3 of 9): ...")."""
    if progress is None:
        return None
    outer = progress

    def report(what: str, fraction: float) -> None:
        outer(f"bucket {label} ({g + 1} of {n}), {what}", (g + fraction) / n)

    return report


@dataclass(frozen=True, slots=True)
class BucketTest:
    """The settings a bucket's paired test of A against B runs with (the same for every bucket).

    Not a tested pair: that is :class:`bleuviz.significance.all_pairs.PairTest`.

    Attributes:
        names: A's and B's names.
        spec: the sentence metric.
        settings: the settings it reads.
        tests: bootstrap samples, randomization trials (unused here) and seed.
    """

    names: tuple[str, str]
    spec: MetricSpec
    settings: Settings
    tests: tuple[int, int, int]


def _pair_test(
    test: BucketTest,
    scores: dict[str, MetricScores],
    index: IntArray,
    progress: Progress | None,
) -> list[PairedResult] | None:
    """A's and B's scores on the segments at ``index`` and B's bootstrap p-value (no AR).

    None where no segment of the bucket has a score of both (imported scores).
    Reads no setting: it runs on a worker thread.
    """
    n_bootstrap, _, seed = test.tests
    a, b = test.names
    chosen = {name: scores[name].select(index, test.settings) for name in test.names}
    if not segments_tested(test.spec, chosen[a], chosen[b]):
        return None
    return paired_test(test.spec, test.settings, a, chosen, n_bootstrap, 0, seed, progress)


def _show(
    table: pd.DataFrame, names: tuple[str, str], metric: str, title: str, spec: MetricSpec
) -> None:
    """The bars, the table and its exports."""
    left, right = st.columns([1, 1])
    chart = table.rename(columns={"score_a": "bleu_a", "score_b": "bleu_b"})
    with left:
        fig = bucket_bars(chart, names, title, f"{metric} of the bucket")
        draw = partial(
            st.plotly_chart,
            fig,
            key="cmp_bucket_chart",
            on_select=pick_bucket,
            selection_mode="points",
        )
        deferred("cmp_bucket_bars", "Draw the chart", CHART_PX, draw)  # after the table
    shown = pd.DataFrame(
        {
            "segments": table["segments"].tolist(),
            f"{md(metric)} A": [_cell(spec, v) for v in table["score_a"]],
            f"{md(metric)} B": [_cell(spec, v) for v in table["score_b"]],
            "gain of B": [_cell(spec, v, signed=True) for v in table["gain_b"]],
            "p (bootstrap)": [fmt_p(p) for p in table["p_value_bs"]],
        },
        index=pd.Index(table["bucket"], name="bucket"),
    )
    right.table(shown)
    right.caption(
        f"Each bucket's {md(metric)} for A ({md(names[0])}) and B ({md(names[1])}) from its "
        "segments alone, B's gain, and the paired bootstrap p-value on those segments. "
        "Click a bar to filter the segments."
    )
    export_buttons(table, f"buckets-{metric}", "cmp_bucket_export")


def _cell(spec: MetricSpec, value: float, signed: bool = False) -> str:
    """A score cell: a dash for an empty bucket, the metric's decimals otherwise."""
    if pd.isna(value):
        return "—"
    text = fmt_metric(spec, abs(value) if signed else value)
    return (("+" if value >= 0 else "−") + text) if signed else text
