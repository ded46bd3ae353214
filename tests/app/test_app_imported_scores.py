"""AppTest of segment scores imported from files (COMET, MetricX, human judgements).

The app is started as ``streamlit run app.py -- --ref ... --hyp ... --seg-scores ...``
on the bundled sample and the synthetic score files of tests/data/seg_scores.
Oracles: the files read with plain Python, sacrebleu 2.6's ``sentence_bleu``, the
spelled-out ``PairedTest`` procedure of tests/significance, and scipy.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
from scipy import stats
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import FileUploader

from bleuviz.app.ui.sections.compare.views import BUCKETS, SEGMENTS, SENTENCES
from bleuviz.render.labels import escape_markdown
from tests.app.compare_tabs import open_view
from tests.app.markup import message_text, signatures
from tests.app.segment_buttons import segment_table
from tests.app.test_humans_section import write_mqm_like
from tests.data import (
    COMET_SCORES,
    HUMAN_SCORES,
    METRICX_SCORES,
    SAMPLE_HYPS,
    SAMPLE_REF_LINES,
    SAMPLE_REFS,
    SAMPLE_SYSTEM_LINES,
    file_scores,
)
from tests.significance.test_mean_significance import oracle

NAMES = ["literal", "terse", "repeat"]
HYPS = SAMPLE_SYSTEM_LINES
REFS = SAMPLE_REF_LINES
FILES = [str(p) for p in (COMET_SCORES, METRICX_SCORES, HUMAN_SCORES)]


@pytest.fixture
def app(new_app: Callable[..., AppTest]) -> Callable[..., AppTest]:
    """Build the app with the sample and the score files on its command line."""

    def make(*extra: str, page: str = "bleuviz/app/page_scripts/overview.py") -> AppTest:
        argv = ["--ref", *map(str, SAMPLE_REFS), "--hyp", *map(str, SAMPLE_HYPS)]
        at = new_app(*argv, "--seg-scores", *FILES, *extra)
        at.switch_page(page)
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        return at

    return make


def test_overview_shows_means_with_cis_never_a_system(app: Callable[..., AppTest]) -> None:
    at = app()
    table = at.table[0].value
    assert sorted(table.index) == sorted(NAMES)  # ranked by BLEU: no other row
    human = file_scores(HUMAN_SCORES)
    for name in NAMES:
        scored = human[name][~np.isnan(human[name])]
        ci = oracle(scored, scored, 1000, 1, 12345)["base_ci"]
        shown = f"{scored.mean():.2f} ± {ci[1]:.2f}"  # the file writes integers: 2 decimals
        assert table.loc[name, "human (mean ± 95% CI)"] == shown
    assert "MetricX\\-test (mean ± 95% CI) (lower is better)" in table.columns
    cards = {(m.label, m.value) for m in at.metric}
    comet = file_scores(COMET_SCORES)
    assert ("terse", f"{comet['terse'].mean():.4f}") in cards
    assert any(s.startswith("imported:") and "segments:112" in s for s in signatures(at))


def test_sidebar_switches_direction_and_marks_a_human(app: Callable[..., AppTest]) -> None:
    at = app()
    switch = at.sidebar.checkbox(key="imported_lower::MetricX-test")
    assert switch.value is True
    switch.set_value(False).run()
    assert "MetricX\\-test (mean ± 95% CI)" in at.table[0].value.columns
    at.sidebar.selectbox(key="human_metric").set_value("human").run()
    assert not at.exception
    correlations = at.table[1].value
    human = file_scores(HUMAN_SCORES)
    means = [np.nanmean(human[n]) for n in NAMES]
    bleu = [sacrebleu.corpus_bleu(HYPS[n], REFS).score for n in NAMES]
    assert correlations.loc["BLEU", "system Pearson r"] == f"{stats.pearsonr(bleu, means)[0]:.4f}"
    metricx = file_scores(METRICX_SCORES)  # now higher is better: not negated
    r = stats.pearsonr([metricx[n].mean() for n in NAMES], means)[0]
    assert correlations.loc["MetricX\\-test", "system Pearson r"] == f"{r:.4f}"
    gaps = at.dataframe[0].value  # the only dataframe on the Overview
    assert len(gaps) == 20  # their links: tests/app/test_humans_section.py


def test_sentences_column_range_filter_and_drill_down(app: Callable[..., AppTest]) -> None:
    at = app(page="bleuviz/app/page_scripts/sentences.py")
    at.selectbox(key="sent_system").set_value("terse").run()
    table = segment_table(at, "sent_table").value
    comet = file_scores(COMET_SCORES)["terse"]
    assert table["COMET-test"].tolist() == pytest.approx(comet.tolist())
    slider = at.slider(key="sent_range::COMET-test")
    slider.set_value((0.75, float(slider.max))).run()
    shown = segment_table(at, "sent_table").value
    assert shown["seg"].tolist() == [i + 1 for i in np.flatnonzero(comet >= 0.75)]
    at.number_input(key="sent_seg").set_value(5).run()
    values = {m.label: m.value for m in at.metric}
    assert values["Imported COMET\\-test"] == f"{comet[4]:.4f}"
    assert values["Imported human"] == "—"  # segment 5 has no human score
    assert (
        values["Imported MetricX\\-test (lower is better)"]
        == f"{file_scores(METRICX_SCORES)['terse'][4]:.4f}"
    )


def test_compare_tests_the_mean_and_finds_disagreements(app: Callable[..., AppTest]) -> None:
    at = app(page="bleuviz/app/page_scripts/compare.py")
    at.session_state["cmp_n_bootstrap"] = 300
    at.session_state["cmp_n_ar"] = 640
    at.selectbox(key="cmp_sig_metric").set_value("human").run()
    assert not at.exception
    human = file_scores(HUMAN_SCORES)
    both = ~(np.isnan(human["literal"]) | np.isnan(human["terse"]))
    expected = oracle(human["literal"][both], human["terse"][both], 300, 640, 12345)
    shown = {m.label: m.value for m in at.metric}
    assert shown["p-value, bootstrap"] == f"{expected['p_bs']:.4f}"
    assert shown["p-value, randomization"] == f"{expected['p_ar']:.4f}"
    assert shown["human of B · terse"] == f"{np.nanmean(human['terse'][both]):.2f}"
    found = segment_table(open_view(at, SENTENCES), "cmp_disagree_table").value
    comet = file_scores(COMET_SCORES)
    bleu = [
        [sacrebleu.sentence_bleu(h, [r[i] for r in REFS]).score for i, h in enumerate(HYPS[n])]
        for n in ("literal", "terse")
    ]
    gain_bleu = np.array(bleu[1]) - np.array(bleu[0])
    gain_comet = comet["terse"] - comet["literal"]
    opposite = np.flatnonzero(np.sign(gain_bleu) * np.sign(gain_comet) < 0) + 1
    assert sorted(found["seg"].tolist()) == opposite.tolist()
    assert found["strength"].is_monotonic_decreasing
    columns = json.loads(segment_table(at, "cmp_disagree_table").proto.columns)
    assert columns["strength"]["type_config"]["format"] == "%.1f"  # a percentile, as elsewhere
    at.selectbox(key="cmp_metric").set_value("human").run()
    assert not at.exception
    assert any("lack a human score" in c.value for c in at.caption)


def test_compare_buckets_by_an_imported_score(app: Callable[..., AppTest]) -> None:
    at = open_view(app(page="bleuviz/app/page_scripts/compare.py"), BUCKETS)
    at.selectbox(key="cmp_bucket_kind").set_value("score:human").run()
    assert not at.exception
    buckets = at.selectbox(key="cmp_bucket").options
    assert buckets[-1] == "(no score)"
    at.selectbox(key="cmp_bucket").set_value("(no score)").run()
    shown = segment_table(open_view(at, SEGMENTS), "cmp_table").value
    assert sorted(shown["seg"]) == list(range(5, 127, 9))


def test_a_bad_score_file_is_one_line_on_the_page(
    new_app: Callable[..., AppTest], tmp_path: Path
) -> None:
    bad = tmp_path / "COMET.seg.score"
    bad.write_text("terse\t0.5\n")
    argv = [
        "--ref",
        *map(str, SAMPLE_REFS),
        "--hyp",
        *map(str, SAMPLE_HYPS),
        "--seg-scores",
        str(bad),
    ]
    at = new_app(*argv)
    at.run()
    assert not at.exception
    (error,) = at.error
    assert (
        "COMET.seg.score: system 'terse' has 1 scores but the test set has 126 segments"
        in message_text(error.value)
    )


def test_a_metric_name_from_a_file_is_shown_literally(
    new_app: Callable[..., AppTest], tmp_path: Path
) -> None:
    odd = tmp_path / "**COMET** [x](https-y).seg.score"
    odd.write_bytes(COMET_SCORES.read_bytes())
    argv = [
        "--ref",
        *map(str, SAMPLE_REFS),
        "--hyp",
        *map(str, SAMPLE_HYPS),
        "--seg-scores",
        str(odd),
    ]
    at = new_app(*argv)
    at.run()
    assert not at.exception
    name = "**COMET** [x](https-y)"
    switch = at.sidebar.checkbox(key=f"imported_lower::{name}")
    assert switch.label == f"{escape_markdown(name)}: lower is better"


# ------------------------------------------------ score files as WMT ships them


def score_uploader(at: AppTest) -> FileUploader:
    """The sidebar's segment-score uploader."""
    (uploader,) = [u for u in at.sidebar.get("file_uploader") if "Segment scores" in u.label]
    return uploader  # type: ignore[no-any-return]


def human_table_means(at: AppTest) -> dict[str, str]:
    """The Overview's 'human' column: each system's mean, as shown (before the ±)."""
    table = at.table[0].value
    return {n: table.loc[n, "human (mean ± 95% CI)"].split(" ± ")[0] for n in NAMES}


def shifted_human(tmp_path: Path) -> Path:
    """human.seg.score with other values (each score + 5): same name, other content."""
    lines = HUMAN_SCORES.read_text().splitlines()
    out = []
    for line in lines:
        system, value = line.split("\t")
        out.append(f"{system}\t{value if value == 'None' else float(value) + 5}")
    path = tmp_path / "other" / "human.seg.score"
    path.parent.mkdir()
    path.write_text("\n".join(out) + "\n")
    return path


def test_uploading_the_command_lines_score_file_again_changes_nothing_and_says_so(
    app: Callable[..., AppTest],
) -> None:
    at = app()
    before = human_table_means(at)
    score_uploader(at).set_value(("human.seg.score", HUMAN_SCORES.read_bytes(), "text/plain"))
    at.run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert human_table_means(at) == before
    human = file_scores(HUMAN_SCORES)
    assert before == {n: f"{np.nanmean(human[n]):.2f}" for n in NAMES}
    assert not at.sidebar.warning
    said = "human.seg.score: already loaded, nothing changed."
    assert said in [message_text(i.value) for i in at.sidebar.info]  # issue 44 item 7


def test_a_mean_of_one_segment_has_no_interval(
    new_app: Callable[..., AppTest], tmp_path: Path
) -> None:
    # Found on WMT24's ESA excerpt: a system with one judged segment showed "75.00 ± 0.00",
    # an interval of zero width where one value gives none.
    n = len(HYPS["literal"])
    one = tmp_path / "one.seg.score"
    rows = [f"{name}\t{'None' if i else 75}" for name in NAMES for i in range(n)]
    one.write_text("\n".join(rows) + "\n")
    argv = ["--ref", *map(str, SAMPLE_REFS), "--hyp", *map(str, SAMPLE_HYPS)]
    at = new_app(*argv, "--seg-scores", str(one))
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    column = at.table[0].value["one (mean ± 95% CI)"]
    assert set(column) == {"75.00 (1 segment: no interval)"}
    helps = [m.help for m in at.metric if m.value == "75.00"]
    assert len(helps) == len(NAMES) and all("1 segment scored" in h for h in helps), helps


def test_already_loaded_is_said_beside_a_command_line_files_skipped_systems(
    new_app: Callable[..., AppTest], tmp_path: Path
) -> None:
    # Found on WMT24's ESA release, which scores systems the test set lacks (refA...): the
    # sidebar's note about them took the place of "already loaded, nothing changed".
    with_ghost = tmp_path / "human.seg.score"
    n_lines = len(HUMAN_SCORES.read_text().splitlines()) // len(NAMES)
    with_ghost.write_text(HUMAN_SCORES.read_text() + "ghost\t1\n" * n_lines)
    argv = ["--ref", *map(str, SAMPLE_REFS), "--hyp", *map(str, SAMPLE_HYPS)]
    at = new_app(*argv, "--seg-scores", str(with_ghost))
    at.run()
    score_uploader(at).set_value(("human.seg.score", with_ghost.read_bytes(), "text/plain"))
    at.run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    infos = [message_text(i.value) for i in at.sidebar.info]
    assert "human.seg.score: already loaded, nothing changed." in infos
    assert any("skipped 1 system not loaded: ghost" in i for i in infos), infos


@pytest.mark.parametrize("choice", ["replace", "keep"])
def test_other_scores_under_a_loaded_name_ask_first(
    app: Callable[..., AppTest], tmp_path: Path, choice: str
) -> None:
    at = app()
    before = human_table_means(at)
    other = shifted_human(tmp_path)
    score_uploader(at).set_value(("human.seg.score", other.read_bytes(), "text/plain"))
    at.run()
    # Nothing is blocked while the choice waits: the page shows the loaded scores.
    assert not at.exception and not at.error, [e.value for e in at.error]
    (warning,) = at.sidebar.warning
    assert escape_markdown("human.seg.score") in warning.value and "differently" in warning.value
    assert human_table_means(at) == before
    (button,) = [b for b in at.sidebar.button if b.key.startswith(f"seg_{choice}::")]
    button.click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert not at.sidebar.warning
    new = file_scores(other)
    expected = {n: f"{np.nanmean(new[n]):.2f}" for n in NAMES} if choice == "replace" else before
    assert human_table_means(at) == expected


def test_a_wmt_file_loads_the_systems_there_and_names_the_skipped(
    new_app: Callable[..., AppTest], tmp_path: Path
) -> None:
    # WMT's files score the human references too (refA, refB): no system of this set.
    text = HUMAN_SCORES.read_text()
    n = len(REFS[0])
    wmt = tmp_path / "mqm.seg.score"
    wmt.write_text(text + "refA\t0\n" * n + "refB\tNone\n" * n)
    argv = ["--ref", *map(str, SAMPLE_REFS), "--hyp", *map(str, SAMPLE_HYPS)]
    at = new_app(*argv, "--seg-scores", str(wmt))
    at.run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    notes = [message_text(i.value) for i in at.sidebar.info]
    skipped = "skipped 2 systems not loaded: refA, refB"
    assert any(v.startswith("mqm (") and skipped in v for v in notes), notes
    human = file_scores(HUMAN_SCORES)
    table = at.table[0].value
    for name in NAMES:
        shown = table.loc[name, "mqm (mean ± 95% CI)"].split(" ± ")[0]
        assert shown == f"{np.nanmean(human[name]):.2f}"
    assert any(s.startswith("imported:mqm.seg.score|") for s in signatures(at))
    assert not any(str(tmp_path) in s for s in signatures(at))


def test_an_mqm_scatter_stays_at_or_below_zero_and_stacks_its_ties(
    new_app: Callable[..., AppTest], tmp_path: Path
) -> None:
    """MQM is never positive: the scatter's axes end just above its highest score, 0, and the
    many segments both systems score 0 are one larger point, not a pile of hidden ones."""
    mqm = write_mqm_like(tmp_path / "human.seg.score")
    argv = ["--ref", *map(str, SAMPLE_REFS), "--hyp", *map(str, SAMPLE_HYPS)]
    at = new_app(*argv, "--seg-scores", str(mqm))
    at.switch_page("bleuviz/app/page_scripts/compare.py")
    at.run()
    at.selectbox(key="cmp_metric").set_value("human").run()
    open_view(at, SENTENCES)
    if "cmp_plots_go" in [b.key for b in at.button]:  # drawn on request
        at.button(key="cmp_plots_go").click().run()
    assert not at.exception, [e.value for e in at.exception]
    (chart,) = [c for c in at.get("plotly_chart") if "cmp_scatter" in str(c.proto.id)]
    spec = json.loads(chart.proto.spec)
    human = file_scores(mqm)
    a, b = human["literal"], human["terse"]
    both = ~(np.isnan(a) | np.isnan(b))
    low, top = float(min(a[both].min(), b[both].min())), 0.0
    for axis in ("xaxis", "yaxis"):  # 3% of the span beyond the data on each side
        assert spec["layout"][axis]["range"] == pytest.approx(
            [low - 0.03 * (top - low), top + 0.03 * (top - low)]
        )
    points = [t for t in spec["data"] if t["mode"] == "markers"]
    ties_at_zero = int(np.count_nonzero((a[both] == 0) & (b[both] == 0)))
    (tie,) = [t for t in points if t["name"] == "tie"]
    (first,) = np.flatnonzero((plotly_array(tie["x"]) == 0) & (plotly_array(tie["y"]) == 0))
    assert tie["text"][first] == f" (and {ties_at_zero - 1} more here)"
    drawn = sum(len(plotly_array(t["customdata"])) for t in points)
    assert drawn < int(both.sum())  # fewer points than segments: equal pairs stacked


def plotly_array(field: list[float] | dict[str, str]) -> np.ndarray:
    """A Plotly JSON array: a list, or a typed array (``{"dtype", "bdata"}``, base64)."""
    if isinstance(field, dict):
        return np.frombuffer(base64.b64decode(field["bdata"]), dtype=field["dtype"])
    return np.asarray(field)
