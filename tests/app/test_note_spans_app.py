"""AppTest: the words a saved note marks are drawn on the segment like a span file's errors.

Oracles: the notes saved here through ``Workspace`` (their words, severity,
category as the MQM export spells it) and the sample's lines (``tests.data``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from bleuviz.io.load import load_paths
from bleuviz.workspace import Workspace
from bleuviz.workspace.note_spans import NOTES_NAME
from tests.app.error_span_data import sample_annotations, with_spans
from tests.app.test_app_error_spans import breakdown, errors_drawn
from tests.data import SAMPLE_HYPS, SAMPLE_REFS, SAMPLE_SYSTEM_LINES

SENTENCES = "bleuviz/app/page_scripts/sentences.py"
COMPARE = "bleuviz/app/page_scripts/compare.py"
TERSE_0 = SAMPLE_SYSTEM_LINES["terse"][0]  # "City council argues over new tram"
ARGUES = (TERSE_0.index("argues"), TERSE_0.index("argues") + len("argues"))


def run(app: AppTest) -> AppTest:
    app.run()
    assert not app.exception, [e.value for e in app.exception]
    return app


@pytest.fixture
def saved(isolated_workspace: Path) -> tuple[Workspace, str]:
    """The sample saved in the test's workspace: the workspace and the set's id."""
    workspace = Workspace.open(isolated_workspace)
    return workspace, workspace.save_testset(load_paths(SAMPLE_HYPS, SAMPLE_REFS), "s").id


def opened(new_app: Callable[..., AppTest], page: str, set_id: str, **query: str) -> AppTest:
    app = new_app()
    app.switch_page(page)
    app.query_params.update({"set": set_id, **query})
    return run(app)


def table(app: AppTest) -> pd.DataFrame:
    frame: pd.DataFrame = next(d.value for d in app.dataframe if "seg" in d.value.columns)
    return frame


def test_a_note_saved_in_the_editor_is_drawn_on_the_segment(
    new_app: Callable[..., AppTest], saved: tuple[Workspace, str]
) -> None:
    workspace, set_id = saved
    app = opened(new_app, SENTENCES, set_id, sys="terse", seg="1")
    assert errors_drawn(app) == [] and "major" not in table(app).columns
    key = f"sent_note::{set_id}::terse::0"
    app.selectbox(key=key + "::severity").set_value("major")
    app.selectbox(key=key + "::category").set_value("terminology")
    app.multiselect(key=key + "::words").set_value([2])  # "argues"
    app.text_area(key=key + "::text").input("<b>too strong</b>")
    app.button(key=key + "::save").click()
    run(app)
    assert workspace.note(set_id, "terse", 0).span == ARGUES
    (error,) = errors_drawn(app)
    assert (error["data-severity"], error["data-category"], error["data-rater"]) == (
        "major",
        "Terminology",
        "bleuviz",
    )
    assert error["text"] == "argues"
    assert any("Your saved notes by bleuviz: 1 major" in c.value for c in app.caption)
    counts = table(app).set_index("seg")
    assert counts.loc[1, "major"] == 1 and counts.loc[1, "minor"] == 0
    assert counts.drop(index=1)["major"].isna().all()  # no note: not rated
    app.multiselect(key="sent_err_severities").set_value(["major"])
    assert list(run(app).dataframe[0].value["seg"]) == [1]


def test_comments_alone_draw_nothing(
    new_app: Callable[..., AppTest], saved: tuple[Workspace, str]
) -> None:
    workspace, set_id = saved
    workspace.save_note(set_id, "terse", 0, "a comment", "style")
    app = opened(new_app, SENTENCES, set_id, sys="terse", seg="1")
    assert errors_drawn(app) == [] and "major" not in table(app).columns
    assert not [s for s in app.selectbox if s.key == "sent_err_from"]


def test_compare_draws_each_sides_note_with_its_author(
    new_app: Callable[..., AppTest], saved: tuple[Workspace, str]
) -> None:
    workspace, set_id = saved
    workspace.save_note(set_id, "terse", 0, "", "style", severity="minor", span=ARGUES,
                        author="<i>ann</i>")  # fmt: skip
    app = opened(new_app, COMPARE, set_id, a="literal", b="terse", seg="1", view="segments")
    (error,) = errors_drawn(app)
    assert (error["data-severity"], error["data-rater"], error["text"]) == (
        "minor",
        "<i>ann</i>",  # escaped in the markup: read back as text by the parser
        "argues",
    )
    assert table(app).set_index("seg").loc[1, "minor B"] == 1


def test_beside_a_span_file_the_chooser_offers_the_notes_and_says_so(
    new_app: Callable[..., AppTest],
    saved: tuple[Workspace, str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with_spans(monkeypatch, sample_annotations)
    workspace, set_id = saved
    workspace.save_note(set_id, "terse", 0, "", "style", severity="major", span=ARGUES)
    app = opened(new_app, SENTENCES, set_id, sys="terse", seg="1")
    assert app.selectbox(key="sent_seg_err_from").options == ["MQM", NOTES_NAME]
    assert any("Your notes mark an error here too" in c.value for c in app.caption)
    assert {e["data-rater"] for e in errors_drawn(app)} == {"r1"}  # the file's, first
    app.selectbox(key="sent_seg_err_from").set_value(NOTES_NAME)
    (error,) = errors_drawn(run(app))
    assert (error["data-rater"], error["text"]) == ("bleuviz", "argues")
    assert not any("Your notes mark an error here too" in c.value for c in app.caption)


def test_overview_counts_the_notes_and_a_new_save_at_once(
    new_app: Callable[..., AppTest], saved: tuple[Workspace, str]
) -> None:
    """The breakdown's cache is keyed on the notes: a note saved meanwhile is counted."""
    workspace, set_id = saved
    workspace.save_note(set_id, "terse", 0, "", "terminology", severity="major", span=ARGUES)
    workspace.save_note(set_id, "literal", 1, "", "style", severity="minor", span=(0, 4))
    workspace.save_note(set_id, "literal", 2, "only a comment", "other")
    app = opened(new_app, "bleuviz/app/page_scripts/overview.py", set_id)
    assert any(
        "Error categories per system" in h.value and "Your notes" in h.value for h in app.subheader
    )
    assert any("What BLEU sees of" in h.value and "Your notes" in h.value for h in app.subheader)
    assert not app.error, [e.value for e in app.error]
    frame = breakdown(app)
    assert frame.loc["terse", "Terminology"] == 1 and frame.loc["terse", "ratings"] == 1
    assert frame.loc["literal", "Style"] == 1 and frame.loc["literal", "ratings"] == 2
    workspace.save_note(set_id, "literal", 3, "", "style", severity="major", span=(0, 4))
    assert breakdown(run(app)).loc["literal", "Style"] == 2
