"""The app on the workspace: saved test sets, set= links, notes; bad workspaces named.

Oracles: the workspace read back through ``Workspace`` (SQLite), and the ids
``testset_id`` derives from the files; sacrebleu 2.6.0 for the scores shown.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
import sacrebleu
from streamlit.testing.v1 import AppTest

from bleuviz.app.ui.cache.loading import sample_paths
from bleuviz.bleu.corpus import compute_corpus_stats
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.io.decode import read_path
from bleuviz.io.load import load_paths
from bleuviz.io.seg_scores import attach_seg_scores
from bleuviz.io.testset import TestSet
from bleuviz.progress import Progress
from bleuviz.workspace import DB_NAME, SCHEMA_VERSION, SavedSet, Workspace
from bleuviz.workspace.identity import testset_id as content_id
from tests.app.markup import message_text
from tests.data import SAMPLE_HYPS, SAMPLE_REF_LINES, SAMPLE_REFS, SAMPLE_SYSTEM_LINES

REF = ["The cat sat on the mat .", "It rained all day .", "We went home early ."]
HYP = ["The cat sat on a mat .", "It rained the whole day .", "We went home ."]


def files(tmp_path: Path) -> list[str]:
    (tmp_path / "ref.en").write_text("\n".join(REF) + "\n")
    (tmp_path / "hyp.alpha.en").write_text("\n".join(HYP) + "\n")
    return ["--ref", str(tmp_path / "ref.en"), "--hyp", str(tmp_path / "hyp.alpha.en")]


def run(app: AppTest) -> AppTest:
    app.run()
    assert not app.exception, [e.value for e in app.exception]
    return app


def saved_sample(folder: Path) -> tuple[Workspace, SavedSet]:
    """The workspace in ``folder`` with the bundled sample saved in it (as "sample")."""
    workspace = Workspace.open(folder)
    return workspace, workspace.save_testset(load_paths(SAMPLE_HYPS, SAMPLE_REFS), "sample")


def warnings(app: AppTest) -> list[str]:
    return [message_text(w.value) for w in app.warning]


def test_command_line_files_are_saved_and_named_in_the_link(
    new_app: Callable[..., AppTest], tmp_path: Path, isolated_workspace: Path
) -> None:
    app = run(new_app(*files(tmp_path)))
    expected = content_id(load_paths([str(tmp_path / "hyp.alpha.en")], [str(tmp_path / "ref.en")]))
    assert app.sidebar.radio(key="data_source").value == "saved"
    assert app.query_params["set"] in (expected, [expected])
    (saved,) = Workspace.open(isolated_workspace).testsets()
    assert saved.id == expected and saved.systems == ("alpha",) and saved.n_segments == 3
    assert next(m.value for m in app.metric) == f"{sacrebleu.corpus_bleu(HYP, [REF]).score:.2f}"


def test_a_link_to_a_saved_set_opens_it_in_a_new_session(
    new_app: Callable[..., AppTest], isolated_workspace: Path
) -> None:
    saved = Workspace.open(isolated_workspace).save_testset(
        load_paths(SAMPLE_HYPS[:1], SAMPLE_REFS), "one system of the sample"
    )
    app = new_app()
    app.switch_page("bleuviz/app/page_scripts/sentences.py")
    app.query_params.update({"set": saved.id, "seg": "5"})
    run(app)
    assert app.sidebar.radio(key="data_source").value == "saved"
    assert app.sidebar.selectbox(key="saved_set").value == saved.id
    assert app.selectbox(key="sent_system").options == ["literal"]
    assert app.subheader[0].value.startswith("Segment 5 ")
    assert not warnings(app)


def test_an_unknown_set_is_named_and_the_sidebar_choice_shown(
    new_app: Callable[..., AppTest], isolated_workspace: Path
) -> None:
    app = new_app()
    app.query_params["set"] = "0123456789abcdef"
    run(app)
    (message,) = warnings(app)
    assert "set=0123456789abcdef" in message and "no such test set" in message
    assert str(isolated_workspace) in message
    assert app.sidebar.radio(key="data_source").value == "sample"
    assert len(app.metric) == len(SAMPLE_SYSTEM_LINES)


def note_widgets(app: AppTest) -> tuple[str, str, str]:
    text = next(t.key for t in app.text_area if t.key and t.key.endswith("::text"))
    base = text.removesuffix("::text")
    return text, base + "::category", base + "::save"


def test_a_note_on_the_sample_saves_the_sample_and_the_note(
    new_app: Callable[..., AppTest], isolated_workspace: Path
) -> None:
    app = new_app()
    app.switch_page("bleuviz/app/page_scripts/sentences.py")
    app.query_params.update({"sys": "terse", "seg": "7"})
    run(app)
    text, category, save = note_widgets(app)
    app.text_area(key=text).input("drops the <b>subject</b> *entirely*")
    app.selectbox(key=category).set_value("omission")
    app.button(key=save).click()
    run(app)
    workspace = Workspace.open(isolated_workspace)
    (saved,) = workspace.testsets()
    assert saved.name == "Bundled sample" and saved.n_segments == len(SAMPLE_REF_LINES[0])
    (note,) = workspace.notes(saved.id)
    assert (note.system, note.segment, note.category) == ("terse", 6, "omission")
    assert note.text == "drops the <b>subject</b> *entirely*"
    assert app.sidebar.radio(key="data_source").value == "saved"
    assert app.query_params["set"] in (saved.id, [saved.id])
    table = next(d.value for d in app.dataframe if "note" in d.value.columns)
    assert table.loc[table["seg"] == 7, "note"].item() == f"omission: {note.text}"
    app.multiselect(key="sent_notes").set_value(["omission"])
    run(app)
    table = next(d.value for d in app.dataframe if "note" in d.value.columns)
    assert list(table["seg"]) == [7]
    app.multiselect(key="sent_notes").set_value(["style"])
    run(app)
    table = next(d.value for d in app.dataframe if "note" in d.value.columns)
    assert table.empty


def test_a_saved_note_is_shown_again_and_replaced_on_save(
    new_app: Callable[..., AppTest], isolated_workspace: Path
) -> None:
    workspace, saved = saved_sample(isolated_workspace)
    workspace.save_note(saved.id, "repeat", 0, "repeats itself", "fluency/grammar")
    app = new_app()
    app.switch_page("bleuviz/app/page_scripts/sentences.py")
    app.query_params.update({"set": saved.id, "sys": "repeat", "seg": "1"})
    run(app)
    text, category, save = note_widgets(app)
    assert app.text_area(key=text).value == "repeats itself"
    assert app.selectbox(key=category).value == "fluency/grammar"
    assert any("Saved " in c.value for c in app.caption)
    app.text_area(key=text).input("repeats a phrase")
    app.button(key=save).click()
    run(app)
    (note,) = workspace.notes(saved.id)
    assert note.text == "repeats a phrase" and note.category == "fluency/grammar"


def test_rename_and_delete_from_the_sidebar(
    new_app: Callable[..., AppTest], isolated_workspace: Path
) -> None:
    workspace, first = saved_sample(isolated_workspace)
    workspace.save_note(first.id, "terse", 2, "kept in the trash", "style")
    app = new_app()
    app.query_params["set"] = first.id
    run(app)
    app.sidebar.text_input(key="ws_new_name").input("WMT-like sample")
    app.sidebar.button(key="ws_rename").click()
    run(app)
    assert workspace.get(first.id).name == "WMT-like sample"
    assert "WMT-like sample" in app.sidebar.selectbox(key="saved_set").format_func(first.id)
    assert app.sidebar.button(key="ws_delete").disabled  # asks first
    confirm = app.sidebar.checkbox(key=f"ws_delete_confirm::{first.id}")
    label = confirm.label.replace("\\", "")  # escaped Markdown
    assert label.endswith("to the trash: 3 systems (literal, terse, repeat), 1 note")
    confirm.check()
    run(app)
    app.sidebar.button(key="ws_delete").click()
    run(app)
    assert workspace.testsets() == ()
    assert app.sidebar.radio(key="data_source").value == "sample"
    assert "set" not in app.query_params
    app.sidebar.button(key=f"ws_restore::{first.id}").click()  # the trash undoes it
    run(app)
    assert [s.id for s in workspace.testsets()] == [first.id]
    assert workspace.notes(first.id)[0].text == "kept in the trash"
    assert app.sidebar.radio(key="data_source").value == "saved"
    assert app.sidebar.selectbox(key="saved_set").value == first.id
    assert not [b for b in app.sidebar.button if (b.key or "").startswith("ws_restore::")]


def test_saved_sets_with_one_long_name_start_read_differently(
    new_app: Callable[..., AppTest], isolated_workspace: Path
) -> None:
    workspace = Workspace.open(isolated_workspace)
    stem = "newstest2020 English-German, all submitted systems with human scores, "
    ids = []
    for k, hyps in enumerate([SAMPLE_HYPS[:1], SAMPLE_HYPS[1:]]):
        refs = SAMPLE_REFS[k : k + 1]  # other references: another set
        ids.append(workspace.save_testset(load_paths(hyps, refs), f"{stem}run {k}").id)
    app = new_app()
    app.query_params["set"] = ids[0]
    run(app)
    chooser = app.sidebar.selectbox(key="saved_set")
    labels = [chooser.format_func(i) for i in ids]
    assert labels[0][:28] != labels[1][:28]  # the part the sidebar shows (a browser test)
    for label, set_id, n_systems in zip(labels, ids, (1, 2), strict=True):
        assert label.startswith("newstest2…")
        assert f"run {ids.index(set_id)} · {set_id[:6]} · " in label
        assert label.endswith(f" · {n_systems}×126")
    assert any(ids[0] in c.value and "run 0" in c.value for c in app.sidebar.caption)


def test_a_newer_workspace_is_named_and_the_app_still_works(
    new_app: Callable[..., AppTest], isolated_workspace: Path
) -> None:
    Workspace.open(isolated_workspace)
    with sqlite3.connect(isolated_workspace / DB_NAME) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    app = run(new_app())
    captions = " ".join(c.value for c in app.sidebar.caption)
    assert "Saving is off" in captions and "newer bleuviz" in captions
    assert len(app.metric) == len(SAMPLE_SYSTEM_LINES)
    app.switch_page("bleuviz/app/page_scripts/sentences.py")
    run(app)
    assert any("Notes cannot be saved" in c.value for c in app.caption)


@pytest.mark.parametrize(
    "page", ["bleuviz/app/page_scripts/overview.py", "bleuviz/app/page_scripts/compare.py"]
)
def test_set_travels_to_every_page(
    new_app: Callable[..., AppTest], tmp_path: Path, page: str
) -> None:
    app = run(new_app(*files(tmp_path)))
    set_id = app.query_params["set"]
    app.switch_page(page)
    run(app)
    assert app.query_params["set"] == set_id


def test_workspace_after_dashes_wins_over_the_environment(
    new_app: Callable[..., AppTest], tmp_path: Path, isolated_workspace: Path
) -> None:
    chosen = tmp_path / "team-workspace"
    run(new_app(*files(tmp_path), "--workspace", str(chosen)))
    assert [s.systems for s in Workspace.open(chosen).testsets()] == [("alpha",)]
    assert Workspace.open(isolated_workspace).testsets() == ()


def test_notes_download_appears_once_there_is_a_note(
    new_app: Callable[..., AppTest], isolated_workspace: Path
) -> None:
    workspace, saved = saved_sample(isolated_workspace)
    app = new_app()
    app.switch_page("bleuviz/app/page_scripts/sentences.py")
    app.query_params["set"] = saved.id
    run(app)
    assert not [b for b in app.get("download_button") if "Notes" in str(b.proto.label)]
    workspace.save_note(saved.id, "literal", 3, "", "terminology")
    run(app)
    assert [b for b in app.get("download_button") if "Notes" in str(b.proto.label)]


def test_a_note_written_on_compare_shows_on_sentences(
    new_app: Callable[..., AppTest], isolated_workspace: Path
) -> None:
    workspace, saved = saved_sample(isolated_workspace)
    app = new_app()
    app.switch_page("bleuviz/app/page_scripts/compare.py")
    app.query_params.update({"set": saved.id, "a": "literal", "b": "repeat", "seg": "9"})
    run(app)
    text = next(t.key for t in app.text_area if t.key and t.key.startswith("cmp_b_note::"))
    base = text.removesuffix("::text")
    app.text_area(key=text).input("repeats the subject")
    app.selectbox(key=base + "::category").set_value("addition")
    app.button(key=base + "::save").click()
    run(app)
    (note,) = workspace.notes(saved.id)
    assert (note.system, note.segment, note.category) == ("repeat", 8, "addition")
    app.switch_page("bleuviz/app/page_scripts/sentences.py")
    app.query_params.update({"sys": "repeat", "seg": "9"})
    run(app)
    assert app.text_area(key=f"sent_note::{saved.id}::repeat::8::text").value == note.text


def test_scores_saved_earlier_come_back_when_the_files_are_given_again(
    new_app: Callable[..., AppTest], tmp_path: Path, isolated_workspace: Path
) -> None:
    """A restarted server on the same files shows what the workspace holds, not just the files."""
    argv = files(tmp_path)
    testset = load_paths([argv[3]], [argv[1]])
    scores = tmp_path / "COMET.seg.score"
    scores.write_text("".join(f"alpha\t{v}\n" for v in (0.5, 0.25, 0.75)))
    scored = attach_seg_scores(testset, [read_path(str(scores))])
    Workspace.open(isolated_workspace).save_testset(scored, "earlier session")
    app = run(new_app(*argv))
    assert app.sidebar.radio(key="data_source").value == "saved"
    assert app.session_state["imported_names"] == ["COMET"]


def test_notes_on_the_saved_sample_show_when_the_sample_is_opened_again(
    new_app: Callable[..., AppTest], isolated_workspace: Path
) -> None:
    workspace = Workspace.open(isolated_workspace)
    sample = sample_paths()  # the sample as the app reads it: source and document ids too
    testset = load_paths(list(sample.hyp), list(sample.ref), sample.src, sample.docids)
    saved = workspace.save_testset(testset, "Bundled sample")
    workspace.save_note(saved.id, "terse", 4, "too short", "omission")
    app = new_app()
    app.switch_page("bleuviz/app/page_scripts/sentences.py")
    app.query_params.update({"sys": "terse", "seg": "5"})
    run(app)
    assert app.sidebar.radio(key="data_source").value == "sample"
    assert app.text_area(key=f"sent_note::{saved.id}::terse::4::text").value == "too short"
    table = next(d.value for d in app.dataframe if "note" in d.value.columns)
    assert table.loc[table["seg"] == 5, "note"].item() == "omission: too short"


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[tuple[tuple[str, ...], str, str]]:
    """Record each count of a test set's n-grams: (its systems, tokenizer, thread name)."""
    calls: list[tuple[tuple[str, ...], str, str]] = []

    def counting(
        testset: TestSet,
        tokenize: TokenizeConfig,
        order: int,
        workers: int,
        progress: Progress | None = None,
    ) -> object:
        calls.append((tuple(testset.systems), tokenize.name, threading.current_thread().name))
        return compute_corpus_stats(testset, tokenize, order, workers, progress=progress)

    monkeypatch.setattr("bleuviz.app.ui.cache.counting.compute_corpus_stats", counting)
    return calls


def test_command_line_files_are_counted_once_while_they_are_saved(
    new_app: Callable[..., AppTest],
    tmp_path: Path,
    isolated_workspace: Path,
    counted: list[tuple[tuple[str, ...], str, str]],
) -> None:
    app = new_app(*files(tmp_path))
    app.query_params["tok"] = "char"  # the link's tokenizer is the one counted ahead
    run(app)
    assert counted == [(("alpha",), "char", "bleuviz-early-stats_0")]
    expected = sacrebleu.corpus_bleu(HYP, [REF], tokenize="char").score
    assert next(m.value for m in app.metric) == f"{expected:.2f}"
    run(app.switch_page("bleuviz/app/page_scripts/sentences.py"))
    assert len(counted) == 1


def test_files_saved_before_are_counted_as_loaded_not_ahead(
    new_app: Callable[..., AppTest],
    tmp_path: Path,
    isolated_workspace: Path,
    counted: list[tuple[tuple[str, ...], str, str]],
) -> None:
    """A set already in the workspace may hold more systems than the files: count what loads."""
    argv = files(tmp_path)
    (tmp_path / "hyp.beta.en").write_text("\n".join(REF) + "\n")
    earlier = load_paths([str(tmp_path / "hyp.beta.en")], [argv[1]])
    Workspace.open(isolated_workspace).save_testset(earlier, "earlier session")
    app = run(new_app(*argv))
    ((systems, tokenizer, thread),) = counted
    assert (systems, tokenizer) == (("beta", "alpha"), "13a")
    assert not thread.startswith("bleuviz-early-stats")
    assert app.sidebar.radio(key="data_source").value == "saved"


def _open_note(new_app: Callable[..., AppTest], set_id: str) -> tuple[AppTest, str, str]:
    """Sentences on ``repeat``'s segment 1 of a saved set: the app, its text and save keys."""
    app = new_app()
    app.switch_page("bleuviz/app/page_scripts/sentences.py")
    app.query_params.update({"set": set_id, "sys": "repeat", "seg": "1"})
    run(app)
    text, _, save = note_widgets(app)
    return app, text, save


@pytest.mark.parametrize(
    ("choice", "kept"),
    [
        ("keep_both", "bob's finding\n\n— ann: ann's finding"),
        ("replace", "ann's finding"),
        ("cancel", "bob's finding"),
    ],
)
def test_a_note_changed_meanwhile_shows_both_texts_and_asks(
    new_app: Callable[..., AppTest], isolated_workspace: Path, choice: str, kept: str
) -> None:
    workspace, saved = saved_sample(isolated_workspace)
    workspace.save_note(saved.id, "repeat", 0, "first", "other", author="carl")
    app, text, save = _open_note(new_app, saved.id)
    app.sidebar.text_input(key="note_author").input("ann")
    app.text_area(key=text).input("ann's finding")
    workspace.save_note(saved.id, "repeat", 0, "bob's finding", "style", author="bob")
    app.button(key=save).click()
    run(app)
    assert workspace.note(saved.id, "repeat", 0).text == "bob's finding"  # nothing saved yet
    shown = [t.value for t in app.text]
    assert "bob's finding" in shown and "ann's finding" in shown
    assert any("changed since you opened it" in w for w in warnings(app))
    base = save.removesuffix("::save")
    app.button(key=f"{base}::{choice}").click()
    run(app)
    note = workspace.note(saved.id, "repeat", 0)
    assert note.text == kept
    assert app.text_area(key=text).value == kept
    assert not any("changed since you opened it" in w for w in warnings(app))
    history = workspace.note_history(saved.id, "repeat", 0)
    assert [h.text for h in history][:2] == ["first", "bob's finding"]  # nothing is lost
    assert [h.author for h in history] == ["carl", "bob", "ann"][: len(history)]
    if choice != "cancel":
        expanders = [e.label for e in app.expander]
        assert "History (3 revisions)" in expanders


def test_an_untouched_editor_follows_the_saved_note(
    new_app: Callable[..., AppTest], isolated_workspace: Path
) -> None:
    workspace, saved = saved_sample(isolated_workspace)
    app, text, save = _open_note(new_app, saved.id)
    assert app.text_area(key=text).value == ""
    workspace.save_note(saved.id, "repeat", 0, "from another session", "style", author="bob")
    run(app)
    assert app.text_area(key=text).value == "from another session"
    assert any("by bob (revision 1)" in c.value for c in app.caption)
    app.text_area(key=text).input("mine")
    app.button(key=save).click()
    run(app)
    note = workspace.note(saved.id, "repeat", 0)
    assert (note.text, note.author, note.revision) == ("mine", "anonymous", 2)


def test_a_note_on_a_replaced_output_says_so_in_the_table_the_editor_and_the_export(
    new_app: Callable[..., AppTest], isolated_workspace: Path
) -> None:
    workspace = Workspace.open(isolated_workspace)
    testset = load_paths(SAMPLE_HYPS, SAMPLE_REFS)
    saved = workspace.save_testset(testset, "sample")
    workspace.save_note(saved.id, "repeat", 0, "repeats itself", "fluency/grammar")
    workspace.save_note(saved.id, "repeat", 0, "repeats a phrase", "fluency/grammar")
    old_line = testset.systems["repeat"][0]
    new_lines = tuple(f"fixed {line}" for line in testset.systems["repeat"])
    workspace.add_system(saved.id, "repeat", new_lines, replace=True)
    app, _, _ = _open_note(new_app, saved.id)
    table = next(d.value for d in app.dataframe if "note" in d.value.columns)
    assert table.loc[table["seg"] == 1, "note"].item() == (
        "(on an earlier output) fluency/grammar: repeats a phrase"
    )
    caption = next(c.value for c in app.caption if "On an earlier output" in c.value)
    assert old_line.split()[0] in caption
    assert "History (2 revisions)" in [e.label for e in app.expander]
    captions = [c.value.replace("\\", "") for c in app.sidebar.caption]  # escaped Markdown
    assert any("Earlier outputs kept (replaced): repeat (1)" in c for c in captions)
    app.checkbox(key="sent_notes_export_revisions").check()
    run(app)
    revisions = workspace.notes_tsv(saved.id, revisions=True).splitlines()
    assert [r.split("\t")[-3:] for r in revisions[1:]] == [
        ["1", "earlier", "repeats itself"],
        ["2", "current", "repeats a phrase"],
    ]
    assert all("\tearlier\t" in r for r in revisions[1:])  # both on the earlier output


def test_every_page_reads_a_workspace_that_cannot_be_written(
    new_app: Callable[..., AppTest], isolated_workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace, saved = saved_sample(isolated_workspace)
    workspace.save_note(saved.id, "terse", 0, "kept", "style", author="ann")
    monkeypatch.setattr("bleuviz.workspace.opening.os.access", lambda path, mode: False)
    why = f"workspace {isolated_workspace} is read-only (its folder cannot be written)"
    app = new_app()
    app.query_params.update({"set": saved.id, "sys": "terse", "seg": "1"})
    run(app)
    assert app.sidebar.selectbox(key="saved_set").value == saved.id
    assert any(why in c.value.replace("\\", "") for c in app.sidebar.caption)
    refs = [p.read_text(encoding="utf-8").splitlines() for p in SAMPLE_REFS]
    literal = SAMPLE_HYPS[0].read_text(encoding="utf-8").splitlines()
    assert f"{sacrebleu.corpus_bleu(literal, refs).score:.2f}" in [m.value for m in app.metric]
    for page in ("sentences", "compare"):
        app.switch_page(f"bleuviz/app/page_scripts/{page}.py")
        run(app)
    app.switch_page("bleuviz/app/page_scripts/sentences.py")
    app.query_params.update({"sys": "terse", "seg": "1"})
    run(app)
    table = next(d.value for d in app.dataframe if "note" in d.value.columns)
    assert table.loc[table["seg"] == 1, "note"].item() == "style: kept"
    assert any("Notes cannot be saved" in c.value for c in app.caption)
    assert [b for b in app.get("download_button") if "Notes" in str(b.proto.label)]
    assert not [b for b in app.sidebar.button if b.key == "ws_delete"]


def test_files_of_a_trashed_set_bring_it_back_whole(
    new_app: Callable[..., AppTest], tmp_path: Path, isolated_workspace: Path
) -> None:
    """The set comes back from the trash with what it held, not only what was given now."""
    argv = files(tmp_path)
    (tmp_path / "hyp.beta.en").write_text("\n".join(REF) + "\n")
    earlier = load_paths([str(tmp_path / "hyp.beta.en")], [argv[1]])
    workspace = Workspace.open(isolated_workspace)
    set_id = workspace.save_testset(earlier, "earlier session").id
    workspace.save_note(set_id, "beta", 0, "perfect", "other")
    workspace.delete(set_id)
    app = run(new_app(*argv))
    assert app.sidebar.radio(key="data_source").value == "saved"
    assert workspace.get(set_id).systems == ("beta", "alpha")
    assert len(app.metric) == 2
    assert workspace.notes(set_id)[0].text == "perfect"


def test_a_note_shows_again_after_a_visit_to_another_page(
    new_app: Callable[..., AppTest], isolated_workspace: Path
) -> None:
    workspace, saved = saved_sample(isolated_workspace)
    workspace.save_note(saved.id, "repeat", 0, "repeats itself", "style")
    app, text, _ = _open_note(new_app, saved.id)
    assert app.text_area(key=text).value == "repeats itself"
    run(app.switch_page("bleuviz/app/page_scripts/overview.py"))
    app.switch_page("bleuviz/app/page_scripts/sentences.py")
    app.query_params.update({"sys": "repeat", "seg": "1"})
    run(app)
    assert app.text_area(key=text).value == "repeats itself"


def test_an_output_replaced_by_another_process_is_shown_on_the_next_run(
    new_app: Callable[..., AppTest], isolated_workspace: Path
) -> None:
    workspace, saved = saved_sample(isolated_workspace)
    app = new_app()
    app.query_params["set"] = saved.id
    run(app)
    refs = [p.read_text(encoding="utf-8").splitlines() for p in SAMPLE_REFS]
    workspace.add_system(saved.id, "repeat", refs[0], replace=True)  # e.g. bleuviz add --replace
    run(app)
    repeat = next(m for m in app.metric if m.label == "repeat")
    assert repeat.value == f"{sacrebleu.corpus_bleu(refs[0], refs).score:.2f}"


def test_a_run_reads_its_sets_listing_once(
    new_app: Callable[..., AppTest], isolated_workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each score asks which set is loaded: one run reads the listing once, each run again."""
    _, saved = saved_sample(isolated_workspace)
    app = new_app()
    app.query_params["set"] = saved.id
    run(app)
    asked: list[str] = []
    read = Workspace.get
    monkeypatch.setattr(
        Workspace, "get", lambda self, set_id: asked.append(set_id) or read(self, set_id)
    )
    for page in ("overview", "sentences", "compare"):
        asked.clear()
        app.switch_page(f"bleuviz/app/page_scripts/{page}.py")
        run(app)
        assert asked == [saved.id], page


def test_a_workspace_failing_during_a_run_is_one_message_not_a_traceback(
    new_app: Callable[..., AppTest], isolated_workspace: Path
) -> None:
    """Issue 44: a read of a workspace gone bad between two runs showed a traceback."""
    _, saved = saved_sample(isolated_workspace)
    app = new_app()
    app.query_params["set"] = saved.id
    run(app)
    db = isolated_workspace / DB_NAME
    with sqlite3.connect(db) as conn:
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    data = bytearray(db.read_bytes())
    data[page_size:] = b"\xff" * (len(data) - page_size)  # every page but the header's
    db.write_bytes(bytes(data))
    for _ in range(2):  # the run after the failure, and the next, say it again
        run(app)
        shown = [e.value.replace("\\", "") for e in app.error]
        expected = f"workspace {isolated_workspace}: the database is corrupt"
        assert [m for m in shown if m.startswith(expected)] == shown != []
        assert all("\n" not in m for m in shown)
