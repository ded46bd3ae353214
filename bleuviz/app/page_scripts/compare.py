"""Compare: a baseline A and a system B, from corpus significance down to single segments.

Below the pair's corpus verdict, one lazy tab per analysis (``ui/compare/views.py``):
only the open tab runs, so changing A or B redraws what is on screen and no more.

Deep link: ``/compare?a=BASELINE&b=SYSTEM&seg=N`` opens that pair (and segment N,
counted from 1, in the Segments tab); ``view``, ``metric``, ``seg_metric``, ``bs``, ``ar``,
``seed``, ``bucket_by``, ``edges``, ``bucket``, ``ngram_order``, ``ngram`` and the error
filter's ``err_from``, ``err_cat``, ``err_sev`` and ``err_in`` carry the rest. The URL
follows the selection, so it can be shared.
"""

from __future__ import annotations

from functools import partial

import streamlit as st

from bleuviz.app.ui.cache.compare import (
    all_systems_frame,
    results_frame,
    sentence_comparison,
    significance,
    tested_signature,
)
from bleuviz.app.ui.cache.data import current_data
from bleuviz.app.ui.cache.scores import score_every_system
from bleuviz.app.ui.sections.compare.all_pairs import all_pairs_section, resolution_notes
from bleuviz.app.ui.sections.compare.buckets import bucket_choice, bucket_section
from bleuviz.app.ui.sections.compare.corpus import (
    choose_metrics,
    choose_pair,
    corpus_level,
    salient_choice,
    salient_ngram_tables,
    significance_settings,
)
from bleuviz.app.ui.sections.compare.disagreement import disagreement_finder
from bleuviz.app.ui.sections.compare.segments import PLOTS_PX, drill_down, plots, segment_table
from bleuviz.app.ui.sections.compare.views import (
    BUCKETS,
    NGRAMS,
    SEGMENTS,
    SENTENCES,
    SIGNIFICANCE,
    compare_views,
)
from bleuviz.app.ui.sections.deferred import deferred
from bleuviz.app.ui.state.links import apply_links, write_links
from bleuviz.app.ui.state.page_links import compare_links
from bleuviz.app.ui.state.settings import chosen_metrics, imported_metrics
from bleuviz.app.ui.state.stepper import row_stepper
from bleuviz.app.ui.widgets.export import export_buttons
from bleuviz.app.ui.widgets.filters import ActiveFilter, forget
from bleuviz.app.ui.widgets.markup import show_signature
from bleuviz.metrics import BLEU
from bleuviz.render.labels import escape_markdown as md

st.title("Compare")
evaluation = current_data()
testset = evaluation.testset
systems = list(evaluation.testset.systems)
if len(systems) < 2:
    st.info(
        f"Only one system ({md(systems[0])}) is loaded, and comparing needs two. "
        "Load another hypothesis file in the sidebar.",
        icon=":material/info:",
    )
    st.stop()

links = compare_links(systems, testset.n_segments)
apply_links(links)
names = choose_pair(systems)

corpus_metric, sentence_metric = choose_metrics(imported_metrics())
score_every_system(evaluation, (corpus_metric, sentence_metric, *chosen_metrics()))
corpus_spec = evaluation.metric(corpus_metric)
st.subheader(f"Corpus {md(corpus_metric)}")
settings = significance_settings()
results = significance(evaluation, names[0], corpus_metric, settings)
pair = next(r for r in results if r.name == names[1])
corpus_level(names, results[0], pair, corpus_metric, corpus_spec)

views = compare_views()
buckets = bucket_choice(evaluation, names, sentence_metric, imported_metrics())
ngrams = salient_choice(evaluation, names, drawn=views[NGRAMS] is not None)

if (tab := views[SIGNIFICANCE]) is not None:
    with tab:
        st.subheader(f"Every system against {md(names[0])}")
        st.table(all_systems_frame(results, corpus_metric, corpus_spec))
        st.caption(
            f"\\* p < 0.05. Paired bootstrap ({settings[0]:,} samples) and approximate "
            f"randomization ({settings[1]:,} trials), seed {settings[2]}, as sacrebleu's "
            f"`--paired-bs` and `--paired-ar`. {md(corpus_metric)} is the corpus score; "
            "μ ± CI is its bootstrap mean and 95% interval."
        )
        resolution_notes(settings)
        signature = tested_signature(evaluation, corpus_metric, settings)
        show_signature(signature)
        export_buttons(
            results_frame(results), f"significance-{corpus_metric}", "cmp_sig_export", signature
        )
        st.subheader("Every pair of systems")
        all_pairs_section(evaluation, corpus_metric, settings, signature)

if (tab := views[SENTENCES]) is not None:
    with tab:
        comparison = sentence_comparison(evaluation, names, sentence_metric)
        # A link to this tab: the verdict above shows before Plotly loads.
        draw_plots = partial(plots, evaluation, comparison, names, sentence_metric)
        deferred("cmp_plots", "Draw the charts", PLOTS_PX, draw_plots)
        st.subheader(f"Where {BLEU.label} and another metric disagree")
        disagreement_finder(evaluation, names)

if (tab := views[BUCKETS]) is not None:
    with tab:
        bucket_section(evaluation, names, sentence_metric, buckets, settings)

if (tab := views[NGRAMS]) is not None:
    with tab:
        st.caption(
            "compare-mt's n-gram difference analysis: over the whole corpus, the n-grams one "
            "system matches in the references more often than the other, ranked by the "
            "smoothed ratio (A + 1) / (A + B + 2)."
        )
        salient_ngram_tables(ngrams, names)

# The Segments tab's filters hold while the tabs that set them are closed.
filters: dict[str, ActiveFilter] = {}
if (in_bucket := buckets.chosen()) is not None:
    filters[f"bucket {st.session_state['cmp_bucket']}"] = ActiveFilter(in_bucket, ("cmp_bucket",))
if (with_ngram := ngrams.segments()) is not None:
    filters[f"matching “{st.session_state['cmp_salient']}”"] = ActiveFilter(
        with_ngram, ("cmp_salient",)
    )
if (tab := views[SEGMENTS]) is not None:
    with tab:
        comparison = sentence_comparison(evaluation, names, sentence_metric)
        shown = segment_table(evaluation, comparison, names, filters, sentence_metric)
        st.session_state.setdefault("cmp_seg", int(shown["seg"].iloc[0]) if len(shown) else 1)
        seg = int(
            st.columns([1, 4])[0].number_input(
                "Segment", 1, testset.n_segments, key="cmp_seg", persist_state="page"
            )
        )
        every_filter = [key for f in filters.values() for key in f.keys]
        row_stepper("cmp_seg", shown["seg"].tolist(), partial(forget, every_filter), key="cmp_step")
        drill_down(evaluation, comparison.iloc[seg - 1], names, seg - 1, sentence_metric)
write_links(links)
