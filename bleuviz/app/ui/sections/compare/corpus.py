"""Compare page sections about the pair and the corpus: choosing A, B and the metrics,
significance and salient n-grams (with the callbacks their clicks run).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

import streamlit as st

from bleuviz.analysis.salient import (
    SalientComparison,
    SalientNgram,
    salient_frame,
)
from bleuviz.app import routes
from bleuviz.app.ui.cache.compare import (
    NONE,
    fmt_p,
    salient,
    verdict,
)
from bleuviz.app.ui.state.link_values import integer
from bleuviz.app.ui.state.links import LinkParam, apply_links, arriving, write_links
from bleuviz.app.ui.state.page_links import choice_param, compare_metric_links, significance_links
from bleuviz.app.ui.state.selection import choose_pressed
from bleuviz.app.ui.widgets.export import export_buttons
from bleuviz.app.ui.widgets.format import fmt_metric, metric_name
from bleuviz.arrays import IntArray
from bleuviz.limits import RESAMPLES, SEEDS, TRIALS
from bleuviz.metrics import METRICS, MetricSpec
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.metrics.registry import SUMMED_METRICS
from bleuviz.render.labels import escape_markdown as md
from bleuviz.significance import DEFAULT_SEED, PairedResult


def swap() -> None:
    """Exchange the baseline and the system."""
    state = st.session_state
    state["cmp_a"], state["cmp_b"] = state["cmp_b"], state["cmp_a"]


def choose_pair(systems: list[str]) -> tuple[str, str]:
    """Selectboxes for A and B (B is never A) and a swap button."""
    left, right, button = st.columns([5, 5, 3], vertical_alignment="bottom")
    a = left.selectbox("Baseline (A)", systems, key="cmp_a")
    others = [name for name in systems if name != a]
    if st.session_state.get("cmp_b") not in others:
        st.session_state["cmp_b"] = others[0]
    b = right.selectbox("System (B)", others, key="cmp_b")
    button.button("Swap A and B", key="cmp_swap", on_click=swap, icon=":material/swap_horiz:")
    return a, b


def choose_metrics(imported: list[str]) -> tuple[str, str]:
    """The metric of the corpus scores and tests, and the metric of the sentence scores.

    ``imported`` names the scores read from files (COMET, human judgements), which
    both lists offer after the metrics bleuviz computes.
    """
    left, right = st.columns(2)
    corpus_options = [*SUMMED_METRICS, *imported]
    sentence_options = [*METRICS, *imported]
    links = compare_metric_links(corpus_options, sentence_options)
    apply_links(links)
    for key, options in (("cmp_sig_metric", corpus_options), ("cmp_metric", sentence_options)):
        if st.session_state.get(key) not in options:
            st.session_state[key] = options[0]
    corpus_metric = left.selectbox(
        "Corpus score and significance",
        corpus_options,
        key="cmp_sig_metric",
        help="sacrebleu's PairedTest runs BLEU, chrF, chrF++ and TER; an imported score is "
        "tested on its mean by the same procedure.",
    )
    sentence_metric = right.selectbox(
        "Sentence scores and differences",
        sentence_options,
        key="cmp_metric",
        help="Scatter, histogram, win/tie/loss, the segment table and its sort. "
        "ROUGE is rouge-score's F-measure (0–1); for TER, lower is better.",
    )
    write_links(links)
    return corpus_metric, sentence_metric


def significance_settings() -> tuple[int, int, int]:
    """Number inputs for the bootstrap samples, the randomization trials and the seed."""
    links = significance_links((1000, 10_000, DEFAULT_SEED))
    for link in links:
        st.session_state.setdefault(link.key, link.default)
    apply_links(links)
    with st.expander("Significance test settings"):
        left, middle, right = st.columns(3)
        n_bs = left.number_input(
            "Bootstrap samples", RESAMPLES.low, RESAMPLES.high, step=100, key="cmp_n_bootstrap"
        )
        n_ar = middle.number_input(
            "Approximate randomization trials",
            TRIALS.low,
            TRIALS.high,
            step=1000,
            key="cmp_n_ar",
            help="0 turns approximate randomization off, as --paired-ar 0 does",
        )
        seed = right.number_input("Seed", SEEDS.low, SEEDS.high, key="cmp_seed")
    write_links(links)
    return int(n_bs), int(n_ar), int(seed)


def corpus_level(
    names: tuple[str, str],
    base: PairedResult,
    pair: PairedResult,
    metric: str,
    spec: MetricSpec,
) -> None:
    """The score of A and B with their bootstrap CIs, the difference and both p-values.

    Two rows of cards, so that labels with long system names fit at 1280 px; the
    full name is in each card's help too.
    """
    cols = st.columns(3)
    shown = metric_name(spec)
    for col, role, name, result in zip(cols[:2], "AB", names, (base, pair), strict=True):
        col.metric(
            f"{shown} of {role} · {md(name)}",
            fmt_metric(spec, result.score),
            help=f"{md(metric)} of {role}: {md(name)}",
        )
        col.caption(f"95% CI: {fmt_metric(spec, result.mean)} ± {fmt_metric(spec, result.ci)}")
    diff = pair.score - base.score
    cols[2].metric("Difference B − A", ("+" if diff >= 0 else "−") + fmt_metric(spec, abs(diff)))
    cols = st.columns(3)
    cols[0].metric("p-value, bootstrap", fmt_p(pair.p_value_bs), help="paired bootstrap")
    cols[1].metric(
        "p-value, randomization", fmt_p(pair.p_value_ar), help="paired approximate randomization"
    )
    st.markdown(verdict(*names, base, pair, metric, spec))
    note = spec.paired_test_note()
    if note is not None:
        st.caption(f"{md(metric)} {note}")


@dataclass(frozen=True, slots=True)
class SalientChoice:
    """The salient n-grams of the pair, when something needs them, and the chosen one.

    ``report`` is None while neither the Salient n-grams tab is open nor an n-gram
    is chosen: counting the references' and each system's n-grams takes about
    0.1 s at 3,004 segments and 5 s at 100,000, so it waits until asked for.
    """

    report: SalientComparison | None
    links: tuple[LinkParam, ...]

    def chosen(self) -> SalientNgram | None:
        """The n-gram chosen in the tab (or the link), if the report lists it."""
        if self.report is None:
            return None
        return self.report.find(str(st.session_state.get("cmp_salient", NONE)))

    def segments(self) -> IntArray | None:
        """The chosen n-gram's segments if it filters the Segments tab, else None."""
        item = self.chosen()
        if item is None or not st.session_state.get("cmp_salient_only", True):
            return None
        return item.segments


def salient_choice(evaluation: Evaluation, names: tuple[str, str], drawn: bool) -> SalientChoice:
    """Read (and on arrival, take from the link) the salient n-gram order and n-gram."""
    order_link = LinkParam(
        "ngram_order", "cmp_salient_order", _salient_order, show=str, default="all"
    )
    apply_links([order_link])
    linked = arriving() and "ngram" in st.query_params
    if not (drawn or linked or st.session_state.get("cmp_salient", NONE) != NONE):
        return SalientChoice(None, (order_link,))
    order = st.session_state.get("cmp_salient_order", "all")
    orders = (1, 2, 3, 4) if order in ("all", None) else (int(order),)
    report = salient(evaluation, *names, orders)
    options = _ngram_options(report)
    ngram_link = choice_param("ngram", "cmp_salient", options, "salient n-gram")
    apply_links([ngram_link])
    if st.session_state.get("cmp_salient") not in options:
        st.session_state["cmp_salient"] = NONE
    return SalientChoice(report, (order_link, ngram_link))


def _ngram_options(report: SalientComparison) -> list[str]:
    """The n-grams offered: none, then A's salient n-grams, then B's."""
    return [NONE, *(s.text for s in (*report.a_better, *report.b_better))]


def salient_ngram_tables(choice: SalientChoice, names: tuple[str, str]) -> None:
    """compare-mt's salient n-grams of the pair: two tables, the chosen one's segments."""
    report = choice.report
    if report is None:
        raise ValueError("salient_ngram_tables: the choice holds no report (drawn=False)")
    left, right = st.columns([3, 2])
    order_choices: list[str | int] = ["all", 1, 2, 3, 4]
    left.radio(
        "N-gram order",
        order_choices,
        horizontal=True,
        key="cmp_salient_order",
        persist_state="page",
    )
    right.selectbox(
        "N-gram (or click one in a table)",
        _ngram_options(report),
        key="cmp_salient",
        persist_state="page",
    )
    write_links(choice.links)
    for col, role, side in zip(
        st.columns(2), "AB", (report.a_better, report.b_better), strict=True
    ):
        name = names["AB".index(role)]
        frame = salient_frame(side)
        col.markdown(f"**{md(name)}** ({role}) matches more often")
        click = f"cmp_salient_{role.lower()}_pick"
        col.dataframe(
            frame,
            hide_index=True,
            height=250,
            column_order=["n-gram", "order", "a", "b", "score"],
            column_config={
                **salient_columns(names),
                "n-gram": st.column_config.ButtonColumn(
                    "n-gram",
                    width=150,
                    help="Show where it is matched",
                    key=click,
                    # A button, not a selectable row: Streamlit sends a table's selection
                    # 150 ms late (issue 35; ``ui/state/selection.py``).
                    on_click=partial(choose_pressed, click, [s.text for s in side], "cmp_salient"),
                ),
            },
        )
        with col:
            export_buttons(
                frame.rename(columns={"a": names[0], "b": names[1]}),
                f"salient-{role}",
                f"cmp_salient_{role.lower()}_export",
                narrow=True,
            )
    item = choice.chosen()
    if item is not None:
        salient_segments(item, names)


def _salient_order(raw: str) -> object:
    """``all`` or an order from 1 to 4, as the order radio holds it."""
    if raw == "all":
        return raw
    return integer(1, 4)(raw)


def salient_columns(names: tuple[str, str]) -> dict[str, Any]:
    """Column labels and help for the salient n-gram tables (A and B: names in the help); the
    n-gram column is each table's button (``salient_ngram_tables``)."""
    return {
        # Widths in pixels, so the five columns fit half of a 1280-px page.
        "order": st.column_config.NumberColumn("n", width=40, help="n-gram order"),
        "a": st.column_config.NumberColumn("A", help=f"matches by {names[0]} (A)", width=50),
        "b": st.column_config.NumberColumn("B", help=f"matches by {names[1]} (B)", width=50),
        "score": st.column_config.NumberColumn(
            format="%.4f",
            width=70,
            help="compare-mt's smoothed ratio (A + 1) / (A + B + 2): "
            "near 1, A matches it far more often; near 0, B does",
        ),
    }


def salient_segments(item: SalientNgram, names: tuple[str, str]) -> None:
    """Where the chosen n-gram is matched: links, and a switch to filter the Segments tab."""
    better = names[0] if item.a_matches > item.b_matches else names[1]
    st.markdown(
        f"{md(names[0])} matches it {item.a_matches} times and {md(names[1])} "
        f"{item.b_matches} times, in {len(item.segments)} segments. "
        f"Open one in the Sentences page ({md(better)}):"
    )
    links = st.columns(8)
    for i, seg in enumerate(item.segments[:16]):
        query = {"sys": better, "seg": str(seg + 1)}
        links[i % 8].page_link(routes.SENTENCES, label=f"{seg + 1}", query_params=query)
    st.toggle(
        "Show only these segments in the Segments tab",
        True,
        key="cmp_salient_only",
        persist_state="page",
    )
