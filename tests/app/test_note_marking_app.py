"""The note editor marks the erroneous words and a severity; the notes download as MQM TSV.

Oracles: the workspace read back through ``Workspace`` (SQLite), and the
sample's lines (``tests.data``) for the characters marked.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from bleuviz.io.load import load_paths
from bleuviz.io.testset import TestSet
from bleuviz.workspace import Workspace
from tests.data import SAMPLE_HYPS, SAMPLE_REFS, SAMPLE_SYSTEM_LINES

TERSE_0 = "City council argues over new tram"


def run(app: AppTest) -> AppTest:
    app.run()
    assert not app.exception, [e.value for e in app.exception]
    return app


@pytest.fixture
def opened(
    new_app: Callable[..., AppTest], isolated_workspace: Path
) -> tuple[AppTest, Workspace, str, str]:
    """Sentences on ``terse``'s first segment of the saved sample: app, workspace, id, key."""
    workspace = Workspace.open(isolated_workspace)
    saved = workspace.save_testset(load_paths(SAMPLE_HYPS, SAMPLE_REFS), "sample")
    app = new_app()
    app.switch_page("bleuviz/app/page_scripts/sentences.py")
    app.query_params.update({"set": saved.id, "sys": "terse", "seg": "1"})
    run(app)
    return app, workspace, saved.id, f"sent_note::{saved.id}::terse::0"


def test_the_words_offered_are_the_lines_and_the_chosen_ones_are_saved(
    opened: tuple[AppTest, Workspace, str, str],
) -> None:
    app, workspace, set_id, key = opened
    assert SAMPLE_SYSTEM_LINES["terse"][0] == TERSE_0
    words = app.multiselect(key=key + "::words")
    assert words.options == [f"{w} ·{k + 1}" for k, w in enumerate(TERSE_0.split())]
    app.selectbox(key=key + "::severity").set_value("major")
    words.set_value([3, 2])  # "over", "argues": the run from the first to the last
    run(app)
    assert any("Marks: major, marks “argues over”" in c.value for c in app.caption)
    app.text_area(key=key + "::text").input("too strong")
    app.button(key=key + "::save").click()
    run(app)
    note = workspace.note(set_id, "terse", 0)
    assert (note.severity, note.span, note.text) == ("major", (13, 24), "too strong")
    assert TERSE_0[13:24] == "argues over"
    table = next(d.value for d in app.dataframe if "note" in d.value.columns)
    assert table.loc[table["seg"] == 1, "note"].item() == "other (major): too strong"


def test_a_saved_span_is_shown_and_kept_exactly_when_the_words_are_untouched(
    opened: tuple[AppTest, Workspace, str, str],
) -> None:
    app, workspace, set_id, key = opened
    workspace.save_note(set_id, "terse", 0, "part of a word", "style", severity="minor",
                        span=(14, 17))  # fmt: skip
    run(app)
    assert app.multiselect(key=key + "::words").value == [2]  # "argues"
    assert app.selectbox(key=key + "::severity").value == "minor"
    app.text_area(key=key + "::text").input("still part of a word")
    app.button(key=key + "::save").click()
    run(app)
    note = workspace.note(set_id, "terse", 0)
    assert (note.text, note.span, note.revision) == ("still part of a word", (14, 17), 2)
    app.multiselect(key=key + "::words").set_value([])
    app.selectbox(key=key + "::severity").set_value("")
    app.button(key=key + "::save").click()
    run(app)
    note = workspace.note(set_id, "terse", 0)
    assert (note.severity, note.span, note.revision) == ("", None, 3)


def test_words_without_a_severity_are_refused_and_nothing_is_saved(
    opened: tuple[AppTest, Workspace, str, str],
) -> None:
    app, workspace, set_id, key = opened
    app.multiselect(key=key + "::words").set_value([0])
    app.button(key=key + "::save").click()
    run(app)
    assert any("marked words are an error and need a severity" in e.value for e in app.error)
    assert workspace.note(set_id, "terse", 0) is None


def test_a_conflict_names_both_severities_and_keep_both_keeps_mine(
    opened: tuple[AppTest, Workspace, str, str],
) -> None:
    app, workspace, set_id, key = opened
    app.selectbox(key=key + "::severity").set_value("minor")
    app.multiselect(key=key + "::words").set_value([5])
    app.text_area(key=key + "::text").input("mine")
    workspace.save_note(set_id, "terse", 0, "theirs", "style", severity="major", span=(0, 4),
                        author="bob")  # fmt: skip
    app.button(key=key + "::save").click()
    run(app)
    shown = " ".join(m.value for m in app.markdown)
    assert "major, marks “City”" in shown and "minor, marks “tram”" in shown
    app.button(key=key + "::keep_both").click()
    run(app)
    note = workspace.note(set_id, "terse", 0)
    assert (note.severity, note.span) == ("minor", (29, 33))
    assert note.text.startswith("theirs") and note.text.endswith("mine")


def test_the_mqm_download_is_offered_with_the_notes(
    opened: tuple[AppTest, Workspace, str, str],
) -> None:
    app, workspace, set_id, _ = opened
    workspace.save_note(set_id, "terse", 0, "", "style", severity="minor", span=(0, 4))
    run(app)
    labels = [str(b.proto.label) for b in app.get("download_button")]
    assert "Notes (MQM TSV)" in labels and "Notes (TSV)" in labels
    table, left_out = workspace.notes_mqm(set_id)
    assert "<v>City</v> council" in table and left_out == ()


def test_a_line_the_mqm_format_cannot_hold_is_named_instead_of_a_download(
    new_app: Callable[..., AppTest], isolated_workspace: Path
) -> None:
    testset = TestSet(systems={"tabbed": ("a\tb c", "d e")}, references=(("a b c", "d e"),))
    workspace = Workspace.open(isolated_workspace)
    saved = workspace.save_testset(testset, "tabs")
    workspace.save_note(saved.id, "tabbed", 0, "x", "other", severity="minor", span=(0, 1))
    app = new_app()
    app.switch_page("bleuviz/app/page_scripts/sentences.py")
    app.query_params.update({"set": saved.id, "sys": "tabbed", "seg": "1"})
    run(app)
    labels = [str(b.proto.label) for b in app.get("download_button")]
    assert "Notes (TSV)" in labels and "Notes (MQM TSV)" not in labels
    assert any(
        "No MQM TSV: system 'tabbed', segment 1: the target holds a tab"
        in c.value.replace("\\", "")
        for c in app.caption
    )


def test_words_past_the_end_of_a_replaced_output_are_dropped_not_an_error(
    opened: tuple[AppTest, Workspace, str, str],
) -> None:
    app, workspace, set_id, key = opened
    app.selectbox(key=key + "::severity").set_value("minor")
    app.multiselect(key=key + "::words").set_value([1, 5])  # "council" .. "tram"
    run(app)
    n = workspace.get(set_id).n_segments
    workspace.add_system(set_id, "terse", ["Short line"] * n, replace=True)
    run(app)
    assert app.multiselect(key=key + "::words").value == [1]
