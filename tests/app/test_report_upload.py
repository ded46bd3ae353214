"""The sidebar's report upload: a report opens again as the saved test set it holds.

Oracles: the command line's ``add --report`` on the same file (the saved set's
id is its content's, so both saves give one id) and ``score`` on the report's
own files against ``score --set`` on what the app saved.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from streamlit.testing.v1 import AppTest

from bleuviz.app.ui.frame.report_upload import REPORT_UPLOADER
from bleuviz.cli.main import main
from bleuviz.workspace import Workspace
from tests.app.markup import message_text
from tests.report import MQM_DOCIDS, MQM_FILE, MQM_HYPS, MQM_REF

TED = ["--ref", str(MQM_REF), "--hyp", *map(str, MQM_HYPS), "--docids", str(MQM_DOCIDS)]
TED += ["--mqm", str(MQM_FILE)]
#: A file name that would be a link and an image if a message rendered it as Markdown.
HOSTILE = "[expired](https://evil.example) ![t](http://127.0.0.1:9/b.png).html"


def run(app: AppTest) -> AppTest:
    app.run()
    assert not app.exception, [e.value for e in app.exception]
    return app


def uploaded(new_app: Callable[..., AppTest], report: Path, name: str) -> AppTest:
    """The app with ``report`` given to the sidebar's report uploader as ``name``."""
    app = run(new_app())
    app.sidebar.radio(key="data_source").set_value("upload")
    run(app)
    app.sidebar.file_uploader(key=REPORT_UPLOADER).set_value(
        (name, report.read_bytes(), "text/html")
    )
    return run(app)


def scores(capsys: pytest.CaptureFixture[str], *argv: str) -> list[dict]:
    capsys.readouterr()
    assert main(["score", *argv, "-m", "bleu", "chrf", "-f", "json"]) == 0
    return [
        {k: v for k, v in s.items() if k != "path"}
        for s in json.loads(capsys.readouterr().out)["systems"]
    ]


def test_an_uploaded_report_is_saved_and_shown(
    new_app: Callable[..., AppTest],
    isolated_workspace: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    report = tmp_path / "ted.html"
    assert main(["report", *TED, "-o", str(report)]) == 0
    app = uploaded(new_app, report, "ted.html")
    assert app.sidebar.radio(key="data_source").value == "saved"
    set_id = app.session_state["saved_set"]
    [saved] = Workspace.open(isolated_workspace).testsets()
    assert (saved.id, saved.name) == (set_id, "ted.html")
    other = str(tmp_path / "other")
    assert main(["add", "--report", str(report), "--workspace", other, "-f", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["id"] == set_id
    ws = str(isolated_workspace)
    assert scores(capsys, "--set", set_id, "--workspace", ws) == scores(capsys, *TED)
    expected = {s["name"]: f"{s['bleu']:.2f}" for s in scores(capsys, *TED)}
    cards = app.metric[: len(expected)]  # the Overview's BLEU cards, then imported scores'
    assert {message_text(m.label): m.value for m in cards} == expected


def test_a_sampled_report_is_refused_with_its_line_escaped(
    new_app: Callable[..., AppTest], isolated_workspace: Path, tmp_path: Path
) -> None:
    report = tmp_path / "sampled.html"
    assert main(["report", *TED, "--max-segments", "30", "-o", str(report)]) == 0
    app = uploaded(new_app, report, HOSTILE)
    [error] = app.sidebar.error
    assert message_text(error.value) == (
        f"{HOSTILE}: this report holds 10 of its 25 segments (a sample past --max-segments); "
        "it cannot be reopened whole"
    )
    rendered = MarkdownIt("commonmark").render(error.value)
    assert "<a " not in rendered and "<img" not in rendered
    assert Workspace.open(isolated_workspace).testsets() == ()
    assert app.sidebar.radio(key="data_source").value == "upload"
    run(app)  # the refusal stays while the file does, and nothing is tried again
    assert [message_text(e.value) for e in app.sidebar.error] == [message_text(error.value)]
