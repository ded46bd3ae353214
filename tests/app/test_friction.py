"""Error-analysis friction (issue: filters, drill-down, upload): AppTests and core checks.

Oracles: the sample's own text (which n-grams no reference holds), sacrebleu 2.6.0's
``corpus_bleu`` for the command line, and Python's csv module for quoted TSV.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from pathlib import Path
from urllib.parse import parse_qs

import pytest
import sacrebleu
from streamlit.testing.v1 import AppTest

from bleuviz.app.ui.sections.compare.views import BUCKETS, NGRAMS, SEGMENTS
from bleuviz.cli.main import main
from bleuviz.io.decode import NamedBytes
from bleuviz.io.table import load_table
from bleuviz.render.highlight import legend
from tests.app.compare_tabs import open_view
from tests.app.markup import html_bodies
from tests.app.segment_buttons import marked_segments, segment_table
from tests.data import SAMPLE_HYPS, SAMPLE_REF_LINES, SAMPLE_SYSTEM_LINES

HYPS = SAMPLE_SYSTEM_LINES
REFS = SAMPLE_REF_LINES


@pytest.fixture
def app(new_app: Callable[..., AppTest]) -> AppTest:
    return new_app()


def test_ngram_table_names_its_columns_and_shows_a_dash(app: AppTest) -> None:
    app.switch_page("bleuviz/app/page_scripts/sentences.py")
    app.query_params["sys"] = "literal"
    app.query_params["seg"] = "2"
    app.run()
    assert not app.exception
    grams = next(d.value for d in app.dataframe if "reference with the most" in d.value.columns)
    assert list(grams.columns) == [
        "n-gram", "times in hypothesis", "most in one reference", "reference with the most",
        "matched", "clipped",
    ]  # fmt: skip
    unseen = grams[grams["most in one reference"] == 0]
    assert len(unseen) > 0 and set(unseen["reference with the most"]) == {"—"}
    seen = grams[grams["most in one reference"] > 0]
    assert seen["reference with the most"].str.fullmatch(r"reference [12]").all()


def test_legend_tells_hypothesis_and_reference_statuses_apart() -> None:
    html = legend()
    hyp, ref = html.split(">References</span>")
    assert "not in any reference" in hyp and "not matched by the hypothesis" in ref
    assert "not in any reference" not in ref


def test_upload_without_files_is_a_hint_not_an_error(app: AppTest) -> None:
    app.run()
    app.sidebar.radio(key="data_source").set_value("upload").run()
    assert not app.exception and not app.error
    assert any("Choose hypothesis and reference files" in i.value for i in app.info)


def test_tsv_written_by_the_csv_module_is_read_as_written() -> None:
    buf = io.StringIO()
    writer = csv.writer(buf, dialect="excel-tab")
    rows = [["ref", "sysA"], ['a\tb "x"', "a b"], ['"Tram now!"', 'say "hi"']]
    writer.writerows(rows)
    testset = load_table(NamedBytes("q.tsv", buf.getvalue().encode()))
    assert testset.references == ((rows[1][0], rows[2][0]),)
    assert testset.systems == {"sysA": (rows[1][1], rows[2][1])}


def test_plain_tsv_keeps_its_quotes() -> None:
    text = 'ref\tsysA\n"Tram now!"\t"If," he said\n'
    testset = load_table(NamedBytes("p.tsv", text.encode()))
    assert testset.references == (('"Tram now!"',),)
    assert testset.systems == {"sysA": ('"If," he said',)}


def test_score_reads_references_from_a_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = tmp_path / "set.tsv"
    lines = ["ref\tliteral"] + [f"{r}\t{h}" for r, h in zip(REFS[0], HYPS["literal"], strict=True)]
    table.write_text("\n".join(lines) + "\n")
    assert main(["score", "--hyp", str(table), "-f", "json"]) == 0
    out = json.loads(capsys.readouterr().out)["systems"][0]
    assert out["bleu"] == pytest.approx(sacrebleu.corpus_bleu(HYPS["literal"], [REFS[0]]).score)
    assert main(["score", "--hyp", str(SAMPLE_HYPS[0])]) == 2
    assert "no reference file given" in capsys.readouterr().err


def test_filtered_table_shows_the_subsets_corpus_scores(app: AppTest) -> None:
    from sacrebleu.metrics import CHRF

    app.session_state["metrics"] = ["chrF"]
    app.switch_page("bleuviz/app/page_scripts/sentences.py")
    app.run()
    app.selectbox(key="sent_system").set_value("terse").run()
    app.text_input(key="sent_search").set_value("tram").run()
    assert not app.exception
    rows = [int(s) - 1 for s in app.dataframe[0].value["seg"]]
    hyps = [HYPS["terse"][i] for i in rows]
    refs = [[r[i] for i in rows] for r in REFS]
    caption = next(c.value for c in app.caption if "segments (" in c.value)
    assert caption.startswith(f"{len(rows)} of 126 segments (search “tram”)")
    bleu = sacrebleu.corpus_bleu(hyps, refs).score
    chrf = CHRF().corpus_score(hyps, refs).score
    assert f"corpus BLEU {bleu:.2f} · chrF {chrf:.2f}" in caption
    app.text_input(key="sent_search").set_value("no such words anywhere").run()
    caption = next(c.value for c in app.caption if "segments (" in c.value)
    assert "0 of 126 segments (search “no such words anywhere”): no segment passes" in caption


def test_drill_down_opens_the_segment_in_learn(
    app: AppTest, new_app: Callable[..., AppTest]
) -> None:
    app.switch_page("bleuviz/app/page_scripts/sentences.py")
    app.query_params["sys"] = "terse"
    app.query_params["seg"] = "4"
    app.run()
    link = next(p for p in app.get("page_link") if p.proto.label == "Open this segment in Learn")
    params = parse_qs(link.proto.query_string)
    assert params["hyp"] == [HYPS["terse"][3]]
    assert params["ref"] == [r[3] for r in REFS]
    learn = new_app()
    learn.switch_page("bleuviz/app/page_scripts/learn.py")
    learn.query_params["hyp"] = HYPS["terse"][3]
    learn.query_params["ref"] = [r[3] for r in REFS]
    learn.run()
    assert not learn.exception
    assert learn.session_state["learn_hyp"] == HYPS["terse"][3]


def test_sentence_semantics_are_chosen_and_said(app: AppTest) -> None:
    from sacrebleu.metrics import BLEU

    app.switch_page("bleuviz/app/page_scripts/sentences.py")
    app.run()
    app.selectbox(key="sent_system").set_value("terse").run()
    note = next(c.value for c in app.caption if c.value.startswith("Sentence BLEU:"))
    assert "sentence_bleu: effective order on" in note and "eff:yes" in note
    default = app.dataframe[0].value["bleu"].tolist()
    want = [
        sacrebleu.sentence_bleu(h, [r[i] for r in REFS]).score for i, h in enumerate(HYPS["terse"])
    ]
    assert default == pytest.approx(want, abs=1e-9)
    app.sidebar.radio(key="sentence_semantics").set_value("corpus").run()
    assert not app.exception
    note = next(c.value for c in app.caption if c.value.startswith("Sentence BLEU:"))
    assert "BLEU(...).sentence_score" in note and "eff:no" in note
    plain = app.dataframe[0].value["bleu"].tolist()
    bleu = BLEU()
    want = [bleu.sentence_score(h, [r[i] for r in REFS]).score for i, h in enumerate(HYPS["terse"])]
    assert plain == pytest.approx(want, abs=1e-9)
    assert plain != default  # effective order changes short segments


def test_stepping_follows_the_shown_rows_and_filters_can_be_cleared(app: AppTest) -> None:
    app.switch_page("bleuviz/app/page_scripts/sentences.py")
    app.query_params["sys"] = "terse"
    app.query_params["seg"] = "1"
    app.run()
    app.text_input(key="sent_search").set_value("euros").run()
    shown = [int(s) for s in app.dataframe[0].value["seg"]]
    outside = next(s for s in range(1, 127) if s not in shown)
    app.number_input(key="sent_seg").set_value(outside).run()
    assert any("not among the" in c.value for c in app.caption)
    app.button(key="sent_step_next").click().run()
    assert app.number_input(key="sent_seg").value == shown[0]
    app.button(key="sent_step_next").click().run()
    assert app.number_input(key="sent_seg").value == shown[1]
    app.button(key="sent_step_prev").click().run()
    assert app.number_input(key="sent_seg").value == shown[0]
    assert any(f"row 1 of the {len(shown)} shown" in c.value for c in app.caption)
    app.number_input(key="sent_seg").set_value(outside).run()
    app.button(key="sent_step_clear").click().run()
    assert not app.exception
    assert len(app.dataframe[0].value) == 126


def test_search_marks_hits_says_where_and_travels_in_the_link(app: AppTest) -> None:
    from bleuviz.render.search_marks import mark_hits

    app.switch_page("bleuviz/app/page_scripts/sentences.py")
    app.query_params["sys"] = "terse"
    app.query_params["q"] = "Euros"
    app.run()
    assert not app.exception
    assert app.text_input(key="sent_search").value == "Euros"
    table = app.dataframe[0].value
    for seg, where in zip(table["seg"], table["matched in"], strict=True):
        i = int(seg) - 1
        places = ["hypothesis"] * ("euros" in HYPS["terse"][i].lower())
        places += [f"reference {r}" for r, ref in enumerate(REFS, 1) if "euros" in ref[i].lower()]
        assert where.startswith(", ".join(places)) and where
    app.number_input(key="sent_seg").set_value(int(table["seg"].iloc[0])).run()
    hits = next(b for b in html_bodies(app) if "bv-hit" in b)
    assert "<mark>" in hits
    assert app.query_params["q"] in ("Euros", ["Euros"])  # AppTest may keep a list
    assert mark_hits("<b>Euros</b> and euros", "EUROS") == (
        "&#60;b&#62;<mark>Euros</mark>&#60;&#47;b&#62; and <mark>euros</mark>"
    )


def test_compare_filters_are_chips_and_an_empty_result_names_them(app: AppTest) -> None:
    app.switch_page("bleuviz/app/page_scripts/compare.py")
    app.session_state["cmp_n_bootstrap"] = 100
    app.session_state["cmp_n_ar"] = 100
    open_view(app, BUCKETS)
    buckets = [b for b in app.selectbox(key="cmp_bucket").options if b != "(all)"]
    app.selectbox(key="cmp_bucket").set_value(buckets[-1]).run()
    shown = len(segment_table(open_view(app, SEGMENTS), "cmp_table").value)
    open_view(app, NGRAMS)
    ngrams = app.selectbox(key="cmp_salient").options
    for gram in ngrams[1:]:  # find an n-gram that empties the bucket's table
        app.selectbox(key="cmp_salient").set_value(gram).run()
        if len(segment_table(open_view(app, SEGMENTS), "cmp_table").value) == 0:
            break
        open_view(app, NGRAMS)
    else:
        pytest.fail("every salient n-gram occurs in the last bucket: pick another sample case")
    captions = [c.value for c in app.caption]
    assert any("0 of 126 segments" in c and "no segment passes" in c for c in captions)
    assert any(c.startswith("Each filter on its own: bucket") for c in captions)
    app.button(key="cmp_chip_all").click().run()
    assert not app.exception
    assert len(segment_table(app, "cmp_table").value) == 126 > shown


def test_learn_shows_one_set_of_settings_and_the_sidebars_are_kept(app: AppTest) -> None:
    app.run()
    app.sidebar.selectbox(key="flavor").set_value("nltk").run()
    app.sidebar.number_input(key="max_order").set_value(3).run()
    app.switch_page("bleuviz/app/page_scripts/learn.py")
    app.run()
    assert not app.exception
    assert not [s for s in app.sidebar.selectbox if s.key == "flavor"]
    assert [s for s in app.selectbox if s.key == "learn_flavor"]
    app.switch_page("bleuviz/app/page_scripts/overview.py")
    app.run()
    assert app.sidebar.selectbox(key="flavor").value == "nltk"
    assert app.sidebar.number_input(key="max_order").value == 3


def test_the_open_mark_follows_the_open_segment(app: AppTest) -> None:
    app.switch_page("bleuviz/app/page_scripts/sentences.py")
    app.query_params["sys"] = "terse"
    app.query_params["seg"] = "5"
    app.run()
    assert marked_segments(app, "sent_table") == [5]
    app.text_input(key="sent_search").set_value("euros").run()
    shown = [int(s) for s in segment_table(app, "sent_table").value["seg"]]
    assert 5 in shown and shown.index(5) != 4  # segment 5 holds "euros", in another row now
    assert marked_segments(app, "sent_table") == [5]
    app.text_input(key="sent_search").set_value("zzz-nowhere").run()
    assert marked_segments(app, "sent_table") == []  # the open segment is not in the table
    app.text_input(key="sent_search").set_value("").run()
    app.button(key="sent_step_next").click().run()
    assert marked_segments(app, "sent_table") == [6]


def test_sentences_filters_are_chips(app: AppTest) -> None:
    app.switch_page("bleuviz/app/page_scripts/sentences.py")
    app.run()
    app.text_input(key="sent_search").set_value("euros").run()
    app.slider(key="sent_bleu").set_value((10.0, 90.0)).run()
    labels = [b.label for b in app.button if b.key and b.key.startswith("sent_chip_")]
    assert labels == ["search “euros”", "sentence BLEU 10–90", "Clear all"]
    app.button(key="sent_chip_0").click().run()  # remove the search only
    assert app.text_input(key="sent_search").value == ""
    assert app.slider(key="sent_bleu").value == (10.0, 90.0)
    app.text_input(key="sent_search").set_value("euros").run()
    app.button(key="sent_chip_all").click().run()
    assert not app.exception
    assert app.slider(key="sent_bleu").value == (0.0, 100.0)
    assert len(segment_table(app, "sent_table").value) == 126


def test_score_reads_a_quoted_tsv_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    refs = ['The "tram" costs\t118 million .', "It rained ."]
    hyps = ['The "tram" costs 118 million .', "It rained all day ."]
    table = tmp_path / "quoted.tsv"
    with table.open("w", newline="") as f:
        writer = csv.writer(f, dialect="excel-tab")
        writer.writerow(["ref", "sysA"])
        writer.writerows(zip(refs, hyps, strict=True))
    assert main(["score", "--hyp", str(table), "-f", "json"]) == 0
    out = json.loads(capsys.readouterr().out)["systems"][0]
    assert out["name"] == "sysA"
    assert out["bleu"] == pytest.approx(sacrebleu.corpus_bleu(hyps, [refs]).score, abs=1e-9)
