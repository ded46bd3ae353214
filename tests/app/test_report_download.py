"""The Overview's Report download: the file ``bleuviz report`` writes of the same inputs.

The oracle is the command line on the same files and options, under the same
``SOURCE_DATE_EPOCH``: the app's file equals it byte for byte once the command
line's provenance row reads "built in the app" (the input files, signatures,
numbers, charts and packed segments are the same).
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import bleuviz.report.build
from bleuviz.app.ui.sections.report_download import BUILT_IN_APP
from bleuviz.cli.main import main
from bleuviz.io.load import load_paths
from bleuviz.workspace import Workspace
from tests.app.downloads import capture_downloads
from tests.data import (
    COMET_SCORES,
    HUMAN_SCORES,
    METRICX_SCORES,
    SAMPLE_DOCIDS,
    SAMPLE_HYPS,
    SAMPLE_REFS,
    SAMPLE_SOURCE,
)
from tests.report import html_table

OVERVIEW = "bleuviz/app/page_scripts/overview.py"
FILES = ["--ref", *map(str, SAMPLE_REFS), "--hyp", *map(str, SAMPLE_HYPS)]
SCORES = ["--seg-scores", *(str(p) for p in (COMET_SCORES, METRICX_SCORES, HUMAN_SCORES))]
SAMPLE = [*FILES, "--src", str(SAMPLE_SOURCE), "--docids", str(SAMPLE_DOCIDS)]


@pytest.fixture(autouse=True)
def fixed_date(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")


def command_line_report(tmp_path: Path, *argv: str) -> str:
    """``bleuviz report ARGV``'s file, with its command line written as the app writes it."""
    out = tmp_path / "cli.html"
    assert main(["report", *argv, "-o", str(out)]) == 0
    html = out.read_text(encoding="utf-8")
    about = dict(row for row in html_table(html, "How this report was made")[1:] if len(row) == 2)
    assert about["command"].startswith("bleuviz report ")
    return html.replace(f">{escape(about['command'])}<", f">{BUILT_IN_APP}<", 1)


def built_in_app(at: AppTest, monkeypatch: pytest.MonkeyPatch) -> tuple[str, list[int]]:
    """Click "Build the report", then download it; return its text and the builds counted."""
    downloads = capture_downloads(monkeypatch)
    builds: list[int] = []
    build = bleuviz.report.build.build_report

    def counted(*args: object, **kwargs: object) -> bleuviz.report.build.Report:
        builds.append(1)
        return build(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(bleuviz.report.build, "build_report", counted)
    assert "ov_report_download" not in downloads  # nothing built before the click
    at.button(key="ov_report_build").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return downloads["ov_report_download"]().decode("utf-8"), builds


def test_the_report_is_the_command_line_s_file(
    new_app: Callable[..., AppTest], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    at = new_app()
    at.switch_page(OVERVIEW)
    at.run()
    at.sidebar.multiselect(key="metrics").set_value(["chrF"]).run()
    html, builds = built_in_app(at, monkeypatch)
    assert builds == [1]
    at.run()  # a rerun shows the download again from the cache
    assert builds == [1] and not at.exception
    assert html == command_line_report(tmp_path, *SAMPLE, "-m", "chrf")
    assert [b.label for b in at.button if b.key == "ov_report_build"] == []
    at.sidebar.multiselect(key="metrics").set_value([]).run()  # other choices: ask again
    assert at.button(key="ov_report_build").label == "Build the report"


def test_human_score_and_lowercase_are_those_chosen(
    new_app: Callable[..., AppTest],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    isolated_workspace: Path,
) -> None:
    at = new_app(*FILES, *SCORES)  # the app saves the command line's files in the workspace
    at.switch_page(OVERVIEW)
    at.run()
    at.sidebar.selectbox(key="human_metric").set_value("human").run()
    at.sidebar.checkbox(key="lowercase").check().run()
    html, _ = built_in_app(at, monkeypatch)
    saved = ["--set", at.session_state["saved_set"], "--workspace", str(isolated_workspace)]
    assert html == command_line_report(tmp_path, *saved, "--human", "human", "-lc")
    assert 'id="human"' in html  # the correlations are there: the human score was chosen


def test_a_saved_set_s_notes_are_in_the_report(
    new_app: Callable[..., AppTest],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    isolated_workspace: Path,
) -> None:
    workspace = Workspace.open(isolated_workspace)
    saved = workspace.save_testset(load_paths(SAMPLE_HYPS, SAMPLE_REFS), "sample")
    workspace.save_note(saved.id, "terse", 0, "<b>too</b> strong", "accuracy/mistranslation",
                        author="Ana", severity="major", span=(13, 19))  # fmt: skip
    at = new_app()
    at.switch_page(OVERVIEW)
    at.query_params.update({"set": saved.id})
    at.run()
    html, _ = built_in_app(at, monkeypatch)
    ws = str(isolated_workspace)
    assert html == command_line_report(tmp_path, "--set", saved.id, "--workspace", ws)
    assert "&lt;b&gt;too&lt;/b&gt; strong" in html
