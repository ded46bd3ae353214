"""Compare: a baseline A and a system B, from corpus significance down to single segments.

Deep link: ``/compare?a=BASELINE&b=SYSTEM&seg=N`` opens that pair (and segment N,
counted from 1). The URL follows the selection, so it can be shared.
"""

from __future__ import annotations

from collections import Counter
from functools import partial
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from bleuviz.analysis import PREVIEW_CHARS
from bleuviz.bleu import BleuConfig
from bleuviz.buckets import (
    BUCKET_KINDS,
    SORTS,
    bucket_segments,
    bucket_table,
    score_comparison,
    segment_comparison,
    sort_comparison,
    win_tie_loss,
)
from bleuviz.compare_charts import (
    Axis,
    bucket_bars,
    difference_histogram,
    sentence_scatter,
    win_tie_loss_bar,
)
from bleuviz.corpus import CorpusStats
from bleuviz.explain import SegmentExplanation
from bleuviz.highlight import STYLE, code_span, hypothesis_html, legend, reference_html
from bleuviz.highlight import escape_markdown as md
from bleuviz.metric_significance import compare_systems_metric
from bleuviz.metrics import EXTRA_METRICS, SIGNIFICANCE_METRICS, sacrebleu_metric
from bleuviz.ngrams import IntArray
from bleuviz.salient import (
    Ngram,
    SalientComparison,
    SalientNgram,
    gaps_frame,
    match_gaps,
    matched_ngrams,
    reference_clips,
    salient_frame,
    salient_ngrams,
)
from bleuviz.significance import DEFAULT_SEED, PairedResult, compare_systems
from pages.common import current_corpus, fmt_bleu, fmt_metric, metric_scores
from pages.segment_view import explanation

ALL, NONE = "(all)", "(none)"
BLEU = "BLEU"
SIGNIFICANT = 0.05


# ---- the UI boundary: cached computations keyed on hashable stand-ins -----------------


def corpus_identity(corpus: CorpusStats) -> tuple[object, ...]:
    """A hashable stand-in for the corpus in cache keys: its identity and a fingerprint."""
    sums = tuple(
        (int(s.hyp_len.sum()), int(s.matches.sum()), int(s.closest_ref_len.sum()))
        for s in corpus.systems.values()
    )
    return (id(corpus), corpus.tokenize, corpus.testset.n_segments, tuple(corpus.systems), sums)


@st.cache_data(max_entries=32, show_spinner="Running the significance tests…")
def significance(
    identity: tuple[object, ...],
    baseline: str,
    metric: str,
    config: BleuConfig,
    settings: tuple[int, int, int],
    lowercase: bool,
    _corpus: CorpusStats,
) -> list[PairedResult]:
    """Every loaded system against the baseline (baseline first), as sacrebleu's paired tests.

    BLEU runs on bleuviz's statistics with ``config``; chrF, chrF++ and TER on
    sacrebleu's own segment statistics of each system.
    """
    others = [name for name in _corpus.systems if name != baseline]
    if metric == BLEU:
        stats = {name: _corpus.systems[name] for name in others}
        return compare_systems(baseline, _corpus.systems[baseline], stats, config, *settings)
    stats = {name: metric_scores(_corpus, name, metric).statistics() for name in others}
    base = metric_scores(_corpus, baseline, metric).statistics()
    scorer = sacrebleu_metric(metric, lowercase and metric.startswith("chrF"))
    return compare_systems_metric(baseline, base, stats, scorer, *settings)


@st.cache_resource(max_entries=4, show_spinner="Counting reference n-grams…")
def clip_counts(identity: tuple[object, ...], _corpus: CorpusStats) -> tuple[Counter[Ngram], ...]:
    """Per segment, each reference n-gram's clip count (shared by every system; never mutated)."""
    return reference_clips(_corpus.testset.references, _corpus.tokenize)


@st.cache_resource(max_entries=16, show_spinner="Counting matched n-grams…")
def system_matches(
    identity: tuple[object, ...], system: str, _corpus: CorpusStats
) -> tuple[Counter[Ngram], ...]:
    """Per segment, the system's matched count of each n-gram (never mutated)."""
    clips = clip_counts(identity, _corpus)
    return matched_ngrams(_corpus.testset.systems[system], clips, _corpus.tokenize)


@st.cache_data(max_entries=32, show_spinner=False)
def salient(
    identity: tuple[object, ...], a: str, b: str, orders: tuple[int, ...], _corpus: CorpusStats
) -> SalientComparison:
    """compare-mt's salient n-grams of the pair, from each system's cached counts."""
    counts = (system_matches(identity, name, _corpus) for name in (a, b))
    return salient_ngrams(*counts, orders=orders)


# ---- small helpers -----------------------------------------------------------------------


def fmt_p(value: float | None) -> str:
    """A p-value with four decimals, as sacrebleu prints it."""
    return "—" if value is None else f"{value:.4f}"


def starred(value: float | None) -> str:
    """A p-value with sacrebleu's significance marker."""
    return fmt_p(value) + (" *" if value is not None and value < SIGNIFICANT else "")


def apply_deep_link(systems: list[str], n_segments: int) -> None:
    """Apply ?a=&b=&seg= once, before the widgets are drawn."""
    params = st.query_params
    link = (params.get("a"), params.get("b"), params.get("seg"))
    if st.session_state.get("cmp_applied_link") == link:
        return
    st.session_state["cmp_applied_link"] = link
    for name, key in ((link[0], "cmp_a"), (link[1], "cmp_b")):
        if name in systems:
            st.session_state[key] = name
        elif name is not None:
            st.warning(f"No system named {code_span(name)} is loaded.")
    if link[2] is not None and link[2].isdigit() and 1 <= int(link[2]) <= n_segments:
        st.session_state["cmp_seg"] = int(link[2])


def swap() -> None:
    """Exchange the baseline and the system."""
    state = st.session_state
    state["cmp_a"], state["cmp_b"] = state["cmp_b"], state["cmp_a"]


def open_point() -> None:
    """Open the segment of the scatter point the user clicked."""
    points = st.session_state["cmp_scatter"].selection.points
    if points:
        data = points[0].get("customdata")
        st.session_state["cmp_seg"] = int(data[0] if isinstance(data, list) else data)


def pick_bucket() -> None:
    """Filter the sentence table to the bucket the user clicked (a cleared click: all)."""
    points = st.session_state["cmp_bucket_chart"].selection.points
    st.session_state["cmp_bucket"] = str(points[0]["x"]) if points else ALL


def open_row() -> None:
    """Open the segment of the sentence-table row the user clicked."""
    rows = st.session_state["cmp_table"].selection.rows
    if rows:
        st.session_state["cmp_seg"] = st.session_state["cmp_visible"][rows[0]]


def pick_salient(table_key: str, texts: list[str]) -> None:
    """Choose the salient n-gram of the row the user clicked."""
    rows = st.session_state[table_key].selection.rows
    if rows:
        st.session_state["cmp_salient"] = texts[rows[0]]


def all_systems_frame(results: list[PairedResult], metric: str) -> pd.DataFrame:
    """sacrebleu's multi-system table: the score, mean ± 95% CI and both p-values."""
    return pd.DataFrame(
        {
            # st.table renders Markdown: names from the data are escaped.
            "system": [f"Baseline: {md(results[0].name)}", *(md(r.name) for r in results[1:])],
            metric: [fmt_bleu(r.score) for r in results],
            "μ ± 95% CI": [f"{fmt_bleu(r.mean)} ± {fmt_bleu(r.ci)}" for r in results],
            "p (paired bootstrap)": [starred(r.p_value_bs) for r in results],
            "p (approximate randomization)": [starred(r.p_value_ar) for r in results],
        }
    ).set_index("system")


def verdict(a: str, b: str, base: PairedResult, pair: PairedResult, metric: str) -> str:
    """One sentence: how far B is from A, and which tests call it significant."""
    diff = pair.score - base.score
    direction = "above" if diff > 0 else "below" if diff < 0 else "level with"
    if metric == "TER" and diff != 0:
        direction += " (better)" if diff < 0 else " (worse)"
    tests = {"paired bootstrap": pair.p_value_bs, "approximate randomization": pair.p_value_ar}
    passed = [test for test, p in tests.items() if p is not None and p < SIGNIFICANT]
    if len(passed) == len(tests):
        finding = "significant at p < 0.05 by both tests"
    elif passed:
        finding = f"significant at p < 0.05 by {passed[0]} only"
    else:
        finding = "not significant at p < 0.05 by either test"
    return (
        f"**{md(b)}** scores {abs(diff):.2f} {metric} {direction} **{md(a)}**: "
        f"the difference is {finding}."
    )


# ---- sections, top to bottom -------------------------------------------------------------


def choose_pair(systems: list[str]) -> tuple[str, str]:
    """Selectboxes for A and B (B is never A) and a swap button."""
    left, right, button = st.columns([5, 5, 2], vertical_alignment="bottom")
    a = left.selectbox("Baseline (A)", systems, key="cmp_a")
    others = [name for name in systems if name != a]
    if st.session_state.get("cmp_b") not in others:
        st.session_state["cmp_b"] = others[0]
    b = right.selectbox("System (B)", others, key="cmp_b")
    button.button("Swap A and B", key="cmp_swap", on_click=swap, icon=":material/swap_horiz:")
    return a, b


def choose_metrics() -> tuple[str, str]:
    """The metric of the corpus scores and tests, and the metric of the sentence scores."""
    left, right = st.columns(2)
    corpus_metric = left.selectbox(
        "Corpus score and significance",
        [BLEU, *SIGNIFICANCE_METRICS],
        key="cmp_sig_metric",
        help="sacrebleu's PairedTest runs BLEU, chrF, chrF++ and TER.",
    )
    sentence_metric = right.selectbox(
        "Sentence scores and differences",
        [BLEU, *EXTRA_METRICS],
        key="cmp_metric",
        help="Scatter, histogram, win/tie/loss, the segment table and its sort. "
        "ROUGE is rouge-score's F-measure (0–1); for TER, lower is better.",
    )
    return corpus_metric, sentence_metric


def sentence_comparison(
    corpus: CorpusStats, config: BleuConfig, names: tuple[str, str], metric: str
) -> pd.DataFrame:
    """Per-segment scores of A and B by ``metric``, and B's gain."""
    if metric == BLEU:
        return segment_comparison(*(corpus.systems[name] for name in names), config)
    a, b = (metric_scores(corpus, name, metric).sentence for name in names)
    return score_comparison(a, b, EXTRA_METRICS[metric].higher_is_better)


def sentence_axis(metric: str) -> Axis:
    """How the charts read ``metric``'s sentence scores."""
    if metric == BLEU:
        return Axis()
    spec = EXTRA_METRICS[metric]
    return Axis(f"sentence {metric}", spec.scale, spec.higher_is_better)


def fmt_score(metric: str, value: float) -> str:
    """A sentence score as its library prints it."""
    return fmt_bleu(value) if metric == BLEU else fmt_metric(metric, value)


def significance_settings() -> tuple[int, int, int]:
    """Number inputs for the bootstrap samples, the randomization trials and the seed."""
    with st.expander("Significance test settings"):
        left, middle, right = st.columns(3)
        n_bs = left.number_input("Bootstrap samples", 1, 100_000, 1000, 100, key="cmp_n_bootstrap")
        n_ar = middle.number_input(
            "Approximate randomization trials", 1, 1_000_000, 10_000, 1000, key="cmp_n_ar"
        )
        seed = right.number_input("Seed", 0, 2**32 - 1, DEFAULT_SEED, key="cmp_seed")
    return int(n_bs), int(n_ar), int(seed)


def corpus_level(
    names: tuple[str, str], base: PairedResult, pair: PairedResult, metric: str
) -> None:
    """The score of A and B with their bootstrap CIs, the difference and both p-values."""
    cols = st.columns(5)
    for col, role, name, result in zip(cols[:2], "AB", names, (base, pair), strict=True):
        col.metric(f"{metric} of {role} · {md(name)}", fmt_bleu(result.score))
        col.caption(f"95% CI: {fmt_bleu(result.mean)} ± {fmt_bleu(result.ci)}")
    cols[2].metric("Difference B − A", f"{pair.score - base.score:+.2f}")
    cols[3].metric("p-value, bootstrap", fmt_p(pair.p_value_bs), help="paired bootstrap")
    cols[4].metric(
        "p-value, randomization", fmt_p(pair.p_value_ar), help="paired approximate randomization"
    )
    st.markdown(verdict(*names, base, pair, metric))


def plots(comparison: pd.DataFrame, names: tuple[str, str], metric: str) -> None:
    """Scatter of sentence scores (a click opens the segment), differences, win/tie/loss."""
    diff = comparison["diff"].to_numpy()
    counts = win_tie_loss(diff)
    axis = sentence_axis(metric)
    st.markdown(
        f"By sentence {metric}, **{md(names[1])}** (B) is better on **{counts.wins}** segments, "
        f"ties on **{counts.ties}** and is worse on **{counts.losses}**."
    )
    left, right = st.columns([3, 2])
    with left:
        score_a, score_b = comparison["score_a"].to_numpy(), comparison["score_b"].to_numpy()
        fig = sentence_scatter(score_a, score_b, comparison["seg"].tolist(), names, axis)
        st.plotly_chart(fig, key="cmp_scatter", on_select=open_point, selection_mode="points")
        st.caption("Click a point to open its segment below.")
    with right:
        st.plotly_chart(difference_histogram(diff, names, axis), key="cmp_hist")
        st.plotly_chart(win_tie_loss_bar(counts, names), key="cmp_wtl")


def buckets(corpus: CorpusStats, config: BleuConfig, names: tuple[str, str]) -> IntArray | None:
    """Bucket kind, bar chart and table; return the chosen bucket's segments (None: all)."""
    left, right = st.columns([3, 2])
    kind = left.selectbox(
        "Bucket segments by",
        list(BUCKET_KINDS),
        format_func=lambda k: BUCKET_KINDS[k].title,
        key="cmp_bucket_kind",
        on_change=lambda: st.session_state.update(cmp_bucket=ALL),
    )
    stats_a, stats_b = (corpus.systems[name] for name in names)
    table = bucket_table(kind, stats_a, stats_b, config)
    options = [ALL, *table.loc[table["segments"] > 0, "bucket"]]
    if st.session_state.get("cmp_bucket") not in options:
        st.session_state["cmp_bucket"] = ALL
    bucket = right.selectbox("Bucket shown in the segment table", options, key="cmp_bucket")
    with left:
        fig = bucket_bars(table, names, BUCKET_KINDS[kind].title)
        st.plotly_chart(fig, key="cmp_bucket_chart", on_select=pick_bucket, selection_mode="points")
    shown = {"segments": table["segments"].tolist()}
    for name, column in zip(names, ("bleu_a", "bleu_b"), strict=True):
        shown[md(name)] = ["—" if pd.isna(v) else fmt_bleu(v) for v in table[column]]
    right.table(pd.DataFrame(shown, index=pd.Index(table["bucket"], name="bucket")))
    right.caption("Corpus BLEU of each bucket's segments. Click a bar to filter the segments.")
    return None if bucket == ALL else bucket_segments(kind, stats_a, config, bucket)


def salient_ngram_tables(
    identity: tuple[object, ...], corpus: CorpusStats, names: tuple[str, str]
) -> tuple[int, ...] | None:
    """compare-mt's salient n-grams; return the chosen one's segments if it filters the table."""
    left, right = st.columns([3, 2])
    choice = left.radio(
        "N-gram order", ["all", 1, 2, 3, 4], horizontal=True, key="cmp_salient_order"
    )
    report = salient(identity, *names, (1, 2, 3, 4) if choice == "all" else (int(choice),), corpus)
    options = [NONE, *(s.text for s in (*report.a_better, *report.b_better))]
    if st.session_state.get("cmp_salient") not in options:
        st.session_state["cmp_salient"] = NONE
    chosen = right.selectbox("N-gram (or click a row)", options, key="cmp_salient")
    for col, role, side in zip(
        st.columns(2), "AB", (report.a_better, report.b_better), strict=True
    ):
        name = names["AB".index(role)]
        col.markdown(f"**{md(name)}** ({role}) matches more often")
        col.dataframe(
            salient_frame(side),
            key=f"cmp_salient_{role.lower()}",
            hide_index=True,
            height=250,
            column_order=["n-gram", "order", "a", "b", "score"],
            column_config=salient_columns(names),
            on_select=partial(pick_salient, f"cmp_salient_{role.lower()}", [s.text for s in side]),
            selection_mode="single-row",
        )
    item = report.find(chosen)
    return None if item is None else salient_segments(item, names)


def salient_columns(names: tuple[str, str]) -> dict[str, object]:
    """Column labels and help for the salient n-gram tables."""
    return {
        "order": st.column_config.NumberColumn(width="small"),
        "a": st.column_config.NumberColumn(
            names[0], help=f"matches by {names[0]} (A)", width="small"
        ),
        "b": st.column_config.NumberColumn(
            names[1], help=f"matches by {names[1]} (B)", width="small"
        ),
        "score": st.column_config.NumberColumn(
            format="%.4f",
            width="small",
            help="compare-mt's smoothed ratio (A + 1) / (A + B + 2): "
            "near 1, A matches it far more often; near 0, B does",
        ),
    }


def salient_segments(item: SalientNgram, names: tuple[str, str]) -> tuple[int, ...] | None:
    """Where the chosen n-gram is matched: links, and a switch to filter the segment table."""
    better = names[0] if item.a_matches > item.b_matches else names[1]
    st.markdown(
        f"{md(names[0])} matches it {item.a_matches} times and {md(names[1])} "
        f"{item.b_matches} times, in {len(item.segments)} segments. "
        f"Open one in the Sentences page ({md(better)}):"
    )
    links = st.columns(8)
    for i, seg in enumerate(item.segments[:16]):
        query = {"sys": better, "seg": str(seg + 1)}
        links[i % 8].page_link("pages/sentences.py", label=f"{seg + 1}", query_params=query)
    if st.toggle("Show only these segments in the segment table", True, key="cmp_salient_only"):
        return item.segments
    return None


def segment_table(
    corpus: CorpusStats,
    comparison: pd.DataFrame,
    names: tuple[str, str],
    filters: dict[str, Any],
    metric: str,
) -> pd.DataFrame:
    """The filtered, sorted table of segments; a click on a row opens it below."""
    testset = corpus.testset
    frame = comparison.copy()
    if testset.doc_ids is not None:
        frame.insert(1, "doc", testset.doc_ids)
    for role, name in zip("ab", names, strict=True):
        frame[f"hyp_{role}"] = [line[:PREVIEW_CHARS] for line in testset.systems[name]]
    mask = np.ones(len(frame), dtype=bool)
    for segments in filters.values():
        mask &= np.isin(np.arange(len(frame)), segments)
    how = st.columns([2, 3])[0].selectbox("Sort", list(SORTS), key="cmp_sort")
    shown = sort_comparison(frame[mask], SORTS[how])
    st.session_state["cmp_visible"] = shown["seg"].tolist()
    active = " · ".join(filters) or "no filter"
    st.caption(f"{len(shown)} of {len(frame)} segments ({active}) · click a row to open it")
    digits = "%.4f" if sentence_axis(metric).scale <= 1 else "%.2f"
    st.dataframe(
        shown,
        key="cmp_table",
        hide_index=True,
        height=320,
        on_select=open_row,
        selection_mode="single-row",
        column_config={
            "seg": st.column_config.NumberColumn("segment", width="small"),
            "score_a": st.column_config.NumberColumn(f"{metric} {names[0]}", format=digits),
            "score_b": st.column_config.NumberColumn(f"{metric} {names[1]}", format=digits),
            "diff": st.column_config.NumberColumn(
                "B − A" if sentence_axis(metric).higher_is_better else "A − B (gain of B)",
                format=digits.replace("%", "%+"),
            ),
            "hyp_a": st.column_config.TextColumn(f"{names[0]} (A)", width="large"),
            "hyp_b": st.column_config.TextColumn(f"{names[1]} (B)", width="large"),
        },
    )
    return shown


def drill_down(
    corpus: CorpusStats,
    config: BleuConfig,
    row: pd.Series,
    names: tuple[str, str],
    index: int,
    metric: str,
) -> None:
    """One segment: source, both hypotheses and references highlighted, and the match gaps."""
    testset = corpus.testset
    refs = tuple(stream[index] for stream in testset.references)
    expl = [
        explanation(testset.systems[name][index], refs, corpus.tokenize, config.max_order)
        for name in names
    ]
    doc = f" · document {testset.doc_ids[index]}" if testset.doc_ids is not None else ""
    st.markdown(f"#### Segment {md(testset.segment_label(index) + doc)}")
    cols = st.columns(3)
    cols[0].metric(f"Sentence {metric} of A · {md(names[0])}", fmt_score(metric, row["score_a"]))
    cols[1].metric(f"Sentence {metric} of B · {md(names[1])}", fmt_score(metric, row["score_b"]))
    axis = sentence_axis(metric)
    gain = f"{row['diff']:+.4f}" if axis.scale <= 1 else f"{row['diff']:+.2f}"
    cols[2].metric(
        "Sentence difference " + ("B − A" if axis.higher_is_better else "A − B (gain of B)"), gain
    )
    if testset.source is not None:
        st.markdown("**Source**")
        st.text(testset.source[index])
    order = st.radio(
        "Highlight n-grams of order",
        list(range(1, config.max_order + 1)),
        horizontal=True,
        key="cmp_order",
    )
    st.html(STYLE + legend())
    for i, col in enumerate(st.columns(2)):
        with col:
            system_side(expl[i], expl[1 - i], names[i], names[1 - i], "AB"[i], order, index)


def system_side(
    mine: SegmentExplanation,
    other: SegmentExplanation,
    name: str,
    other_name: str,
    role: str,
    order: int,
    index: int,
) -> None:
    """One column of the drill-down: a hypothesis, its reference coverage and its gains."""
    st.markdown(f"**{role} · {md(name)}**")
    st.html(hypothesis_html(mine, order))
    for r in range(len(mine.ref_texts)):
        st.caption(f"Reference {r + 1}: tokens {md(name)} matched at order {order}")
        st.html(reference_html(mine, order, r))
    gaps = match_gaps(mine, other, order)
    st.markdown(f"{order}-grams {md(name)} matches more often than {md(other_name)}")
    if gaps:
        st.dataframe(
            gaps_frame(gaps),
            key=f"cmp_{role.lower()}_gaps",
            hide_index=True,
            column_order=["n-gram", "matched", "other"],
            column_config={"matched": st.column_config.NumberColumn(name), "other": other_name},
        )
    else:
        st.caption("None.")
    query = {"sys": name, "seg": str(index + 1)}
    st.page_link("pages/sentences.py", label=f"Open in Sentences ({md(name)})", query_params=query)


# ---- the page ----------------------------------------------------------------------------

st.title("Compare")
loaded = current_corpus()
if loaded is None:
    st.stop()
corpus, config = loaded
testset = corpus.testset
systems = list(corpus.systems)
if len(systems) < 2:
    st.info(
        f"Only one system ({md(systems[0])}) is loaded, and comparing needs two. "
        "Load another hypothesis file in the sidebar.",
        icon=":material/info:",
    )
    st.stop()

apply_deep_link(systems, testset.n_segments)
names = choose_pair(systems)
identity = corpus_identity(corpus)

corpus_metric, sentence_metric = choose_metrics()
st.subheader(f"Corpus {corpus_metric}")
settings = significance_settings()
lowercase = bool(st.session_state.get("lowercase"))
results = significance(identity, names[0], corpus_metric, config, settings, lowercase, corpus)
pair = next(r for r in results if r.name == names[1])
corpus_level(names, results[0], pair, corpus_metric)

st.subheader(f"Every system against {md(names[0])}")
st.table(all_systems_frame(results, corpus_metric))
st.caption(
    f"\\* p < 0.05. Paired bootstrap ({settings[0]:,} samples) and approximate randomization "
    f"({settings[1]:,} trials), seed {settings[2]}, as sacrebleu's `--paired-bs` and "
    f"`--paired-ar`. {corpus_metric} is the corpus score; μ ± CI is its bootstrap mean and "
    "95% interval."
)

st.subheader("Sentence by sentence")
comparison = sentence_comparison(corpus, config, names, sentence_metric)
plots(comparison, names, sentence_metric)

st.subheader("Buckets")
filters: dict[str, Any] = {}
in_bucket = buckets(corpus, config, names)
if in_bucket is not None:
    filters[f"bucket {st.session_state['cmp_bucket']}"] = in_bucket

st.subheader("Salient n-grams")
st.caption(
    "compare-mt's n-gram difference analysis: over the whole corpus, the n-grams one system "
    "matches in the references more often than the other, ranked by the smoothed ratio "
    "(A + 1) / (A + B + 2)."
)
with_ngram = salient_ngram_tables(identity, corpus, names)
if with_ngram is not None:
    filters[f"matching “{st.session_state['cmp_salient']}”"] = with_ngram

st.subheader("Segments")
shown = segment_table(corpus, comparison, names, filters, sentence_metric)
st.session_state.setdefault("cmp_seg", int(shown["seg"].iloc[0]) if len(shown) else 1)
seg = int(st.columns([1, 4])[0].number_input("Segment", 1, testset.n_segments, key="cmp_seg"))
st.query_params.update({"a": names[0], "b": names[1], "seg": str(seg)})
st.session_state["cmp_applied_link"] = (*names, str(seg))
drill_down(corpus, config, comparison.iloc[seg - 1], names, seg - 1, sentence_metric)
