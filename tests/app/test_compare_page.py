"""AppTest of the Compare page on the bundled sample (systems literal, terse, repeat).

Every number the page shows is compared with the core computed here from the
same files: ``corpus_score`` for BLEU, ``compare_systems`` for the bootstrap
CIs and both p-values (formatted as the page formats them), and
``bucket_segments`` / the salient n-gram report for the table filters. The
chart builders' traces are checked here too: what a click on them opens.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from bleuviz.analysis.buckets import bucket_segments, bucket_table, segment_comparison, win_tie_loss
from bleuviz.analysis.segments import PREVIEW_CHARS
from bleuviz.app.ui.cache.loading import PathSet
from bleuviz.app.ui.sections.compare.views import (
    BUCKETS,
    NGRAMS,
    SEGMENTS,
    SENTENCES,
    SIGNIFICANCE,
    VIEW_KEY,
    View,
)
from bleuviz.bleu import BleuConfig, corpus_score
from bleuviz.bleu.corpus import CorpusStats, compute_corpus_stats
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.io.decode import read_path
from bleuviz.io.load import load_files
from bleuviz.render.compare_charts import (
    bucket_bars,
    difference_histogram,
    sentence_scatter,
    win_tie_loss_bar,
)
from bleuviz.significance import DEFAULT_SEED, PairedResult, compare_systems
from tests.analysis import salient_oracle as oracle
from tests.app.compare_tabs import open_view
from tests.app.markup import message_text
from tests.app.segment_buttons import has_segment_table, segment_table
from tests.data import SAMPLE_DOCIDS, SAMPLE_HYPS, SAMPLE_REFS, SAMPLE_SOURCE

REPO = Path(__file__).resolve().parents[2]
TOK = TokenizeConfig()


@pytest.fixture(scope="module")
def corpus() -> CorpusStats:
    """The sample, loaded and counted as the app does by default (13a, order 4)."""
    testset = load_files(
        [read_path(p) for p in SAMPLE_HYPS],
        [read_path(p) for p in SAMPLE_REFS],
        read_path(SAMPLE_SOURCE),
        read_path(SAMPLE_DOCIDS),
    )
    return compute_corpus_stats(testset, TOK, 4)


@pytest.fixture
def app(new_app: Callable[..., AppTest]) -> Iterator[AppTest]:
    """A fresh app on the Compare page, with empty caches."""
    at = new_app()
    at.switch_page("bleuviz/app/page_scripts/compare.py")
    yield at


def paired(corpus: CorpusStats, a: str, n_bs: int = 1000, n_ar: int = 10000) -> list[PairedResult]:
    others = {name: s for name, s in corpus.systems.items() if name != a}
    return compare_systems(a, corpus.systems[a], others, BleuConfig(), n_bs, n_ar, DEFAULT_SEED)


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def segments_shown(at: AppTest) -> list[int]:
    return segment_table(at, "cmp_table").value["seg"].tolist()


def test_deep_link_opens_the_pair_with_core_numbers(app: AppTest, corpus: CorpusStats) -> None:
    app.query_params["a"] = "terse"
    app.query_params["b"] = "repeat"
    app.query_params["seg"] = "7"
    app.run()
    assert not app.exception
    assert app.selectbox("cmp_a").value == "terse"
    assert app.selectbox("cmp_b").value == "repeat"
    shown = metrics(app)
    for role, name in (("A", "terse"), ("B", "repeat")):
        score = corpus_score(corpus.systems[name], BleuConfig(), TOK, corpus.n_refs).score
        assert shown[f"BLEU of {role} · {name}"] == f"{score:.2f}"
    results = paired(corpus, "terse")
    pair = next(r for r in results if r.name == "repeat")
    assert shown["p-value, bootstrap"] == f"{pair.p_value_bs:.4f}"
    assert shown["p-value, randomization"] == f"{pair.p_value_ar:.4f}"
    assert shown["Difference B − A"] == f"{pair.score - results[0].score:+.2f}"
    assert app.number_input("cmp_seg").value == 7
    assert any(md.value.startswith("#### Segment 7 ") for md in app.markdown)
    assert app.query_params["a"] == "terse" and app.query_params["b"] == "repeat"


def test_all_systems_table_equals_compare_systems(app: AppTest, corpus: CorpusStats) -> None:
    app.run()
    assert not app.exception
    assert (app.selectbox("cmp_a").value, app.selectbox("cmp_b").value) == ("literal", "terse")
    table = app.table[0].value
    results = paired(corpus, "literal")
    assert table.index.tolist() == ["Baseline: literal", "terse", "repeat"]
    assert table["BLEU"].tolist() == [f"{r.score:.2f}" for r in results]
    assert table["μ ± 95% CI"].tolist() == [f"{r.mean:.2f} ± {r.ci:.2f}" for r in results]
    for column, attr in (
        ("p (paired bootstrap)", "p_value_bs"),
        ("p (approximate randomization)", "p_value_ar"),
    ):
        expected = ["—"] + [f"{getattr(r, attr):.4f}" for r in results[1:]]
        assert [p.rstrip(" *") for p in table[column]] == expected
        # Every sample system differs from literal far beyond chance: all starred.
        assert all(p.endswith(" *") for p in table[column].tolist()[1:])


def test_number_inputs_change_the_tests(app: AppTest, corpus: CorpusStats) -> None:
    app.run()
    app.number_input("cmp_n_bootstrap").set_value(200)
    app.number_input("cmp_n_ar").set_value(300)
    app.run()
    assert not app.exception
    pair = next(r for r in paired(corpus, "literal", 200, 300) if r.name == "terse")
    assert metrics(app)["p-value, bootstrap"] == f"{pair.p_value_bs:.4f}"
    assert metrics(app)["p-value, randomization"] == f"{pair.p_value_ar:.4f}"
    assert app.table[0].value.loc["terse", "μ ± 95% CI"] == f"{pair.mean:.2f} ± {pair.ci:.2f}"


@pytest.mark.parametrize("flavor", ["nltk", "tf-nmt"])
def test_sidebar_settings_reach_the_tests(app: AppTest, corpus: CorpusStats, flavor: str) -> None:
    app.run()
    app.selectbox("flavor").set_value(flavor)
    app.run()
    assert not app.exception
    config = BleuConfig(flavor)
    score = corpus_score(corpus.systems["terse"], config, TOK, corpus.n_refs).score
    assert metrics(app)["BLEU of B · terse"] == f"{score:.2f}"
    others = {n: s for n, s in corpus.systems.items() if n != "literal"}
    results = compare_systems("literal", corpus.systems["literal"], others, config)
    assert app.table[0].value["μ ± 95% CI"].tolist() == [
        f"{r.mean:.2f} ± {r.ci:.2f}" for r in results
    ]


def test_bucket_and_salient_ngram_filter_the_segments_tab(
    app: AppTest, corpus: CorpusStats
) -> None:
    app.run()
    assert not has_segment_table(app, "cmp_table")  # Segments closed: not built
    open_view(app, SEGMENTS)
    assert len(segments_shown(app)) == corpus.testset.n_segments
    open_view(app, BUCKETS)
    app.selectbox("cmp_bucket_kind").set_value("ratio")
    app.run()
    app.selectbox("cmp_bucket").set_value("0.8–0.9")
    app.run()
    assert not app.exception
    open_view(app, SEGMENTS)  # the bucket still filters with its own tab closed
    expected = bucket_segments("ratio", corpus.systems["literal"], BleuConfig(), "0.8–0.9") + 1
    assert len(expected) > 0
    assert sorted(segments_shown(app)) == expected.tolist()
    open_view(app, BUCKETS)  # and the tab shows what was chosen
    assert app.selectbox("cmp_bucket_kind").value == "ratio"
    assert app.selectbox("cmp_bucket").value == "0.8–0.9"

    app.selectbox("cmp_bucket").set_value("(all)")
    app.run()
    clips = oracle.reference_clips(corpus.testset.references, TOK)
    systems = corpus.testset.systems
    counts = [oracle.matched_ngrams(systems[n], clips, TOK) for n in ("literal", "terse")]
    _, b_better = oracle.salient_ngrams(*counts)
    top = b_better[0]
    top_text = " ".join(top.ngram)
    assert not [box for box in app.selectbox if box.key == "cmp_salient"]  # closed: not built
    open_view(app, NGRAMS)
    app.selectbox("cmp_salient").set_value(top_text)
    app.run()
    assert not app.exception
    open_view(app, SEGMENTS)
    assert sorted(segments_shown(app)) == [i + 1 for i in top.segments]
    open_view(app, NGRAMS)
    app.toggle("cmp_salient_only").set_value(False)
    app.run()
    open_view(app, SEGMENTS)
    assert len(segments_shown(app)) == corpus.testset.n_segments


@pytest.mark.parametrize(
    ("query", "view"),
    [
        ({}, SIGNIFICANCE),
        ({"seg": "7"}, SEGMENTS),
        ({"bucket_by": "ratio"}, BUCKETS),
        ({"ngram_order": "2"}, NGRAMS),
        ({"seg": "7", "view": "sentences"}, SENTENCES),  # named outright: it wins
    ],
)
def test_a_link_opens_the_tab_that_shows_what_it_names(
    app: AppTest, query: dict[str, str], view: View
) -> None:
    app.query_params.update(query)
    app.run()
    assert not app.exception
    assert app.session_state[VIEW_KEY] == view.label
    assert app.query_params.get("view") == (None if view is SIGNIFICANCE else view.slug)


def test_an_unknown_view_is_named_and_the_significance_tab_shown(app: AppTest) -> None:
    app.query_params["view"] = "klingon"
    app.run()
    assert not app.exception
    (message,) = [message_text(w.value) for w in app.warning if "view=" in w.value]
    assert "view=klingon" in message and "no view of that name (one of significance" in message
    assert app.session_state[VIEW_KEY] == SIGNIFICANCE.label
    assert "view" not in app.query_params


def test_one_system_says_so(app: AppTest) -> None:
    paths = PathSet((str(SAMPLE_HYPS[0]),), tuple(map(str, SAMPLE_REFS)))
    app.session_state["cli_paths"] = paths
    app.session_state["data_source"] = "cli"
    app.run()
    assert not app.exception
    assert any("Only one system" in info.value for info in app.info)
    assert not app.metric


def test_chart_builders_carry_what_a_click_opens(corpus: CorpusStats) -> None:
    a, b = corpus.systems["literal"], corpus.systems["terse"]
    frame = segment_comparison(a, b, BleuConfig())
    names = ("literal", "terse")
    scatter = sentence_scatter(frame["score_a"], frame["score_b"], frame["seg"].tolist(), names)
    points = [trace for trace in scatter.data if trace.mode == "markers"]
    assert [t.name for t in points] == ["terse better", "tie", "literal better"]
    segs = sorted(int(s) for t in points for s in t.customdata)
    assert segs == list(range(1, corpus.testset.n_segments + 1))
    for trace in points:  # each point sits at its own segment's scores
        for x, y, s in zip(trace.x, trace.y, trace.customdata, strict=True):
            assert (x, y) == (frame["score_a"].iloc[s - 1], frame["score_b"].iloc[s - 1])
    counts = win_tie_loss(frame["diff"].to_numpy())
    assert [len(t.x) for t in points] == [counts.wins, counts.ties, counts.losses]
    assert list(win_tie_loss_bar(counts, names).data[0].x) == [
        counts.wins,
        counts.ties,
        counts.losses,
    ]
    assert sum(difference_histogram(frame["diff"].to_numpy(), names).data[0].y) == len(frame)
    table = bucket_table("ref_len", a, b, BleuConfig())
    bars = bucket_bars(table, names, "Reference length")
    assert [t.name for t in bars.data] == list(names)
    assert list(bars.data[0].customdata) == table["bucket"].tolist()
    assert list(bars.data[1].y) == table["bleu_b"].tolist()
    assert list(bars.data[0].text) == [f"n={n}" for n in table["segments"]]


def test_each_row_shows_the_start_of_its_own_hypotheses(app: AppTest, corpus: CorpusStats) -> None:
    app.query_params["a"] = "literal"
    app.query_params["b"] = "repeat"
    app.run()
    open_view(app, SEGMENTS)
    assert not app.exception
    table = segment_table(app, "cmp_table").value
    assert len(table) == corpus.testset.n_segments
    assert table["seg"].tolist() != sorted(table["seg"])  # sorted by the gain, not in order
    lines = corpus.testset.systems
    long = [i for i, line in enumerate(lines["literal"]) if len(line) > PREVIEW_CHARS]
    assert long  # the sample has lines to cut
    for seg, hyp_a, hyp_b in zip(table["seg"], table["hyp_a"], table["hyp_b"], strict=True):
        assert hyp_a == lines["literal"][seg - 1][:PREVIEW_CHARS]
        assert hyp_b == lines["repeat"][seg - 1][:PREVIEW_CHARS]
