"""Error spans and the app's workspace: saved with command-line files, drawn when reopened.

Oracle: the spans saved through ``Workspace`` (a Major error on ``terse``'s first
segment), which the drill-down draws with ``data-severity``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from streamlit.testing.v1 import AppTest

from bleuviz.io.decode import NamedBytes
from bleuviz.io.error_span_files import read_error_spans
from bleuviz.io.error_spans import HUMAN, ErrorAnnotations, ErrorSpan, SegmentAnnotation
from bleuviz.io.load import load_paths
from bleuviz.io.mqm_export import MqmRow, mqm_tsv
from bleuviz.workspace import Workspace
from tests.data import SAMPLE_HYPS, SAMPLE_REFS


def page_markup(app: AppTest) -> str:
    """Every element's protobuf text on the page (markdown and HTML bodies included)."""
    return "\n".join(str(node.proto) for node in _walk(app.main))


def _walk(node: Any) -> Iterator[Any]:
    yield node
    for child in getattr(node, "children", {}).values():
        yield from _walk(child)


def test_spans_saved_with_the_set_are_drawn_when_it_is_opened(
    new_app: Callable[..., AppTest], isolated_workspace: Path
) -> None:
    testset = load_paths(SAMPLE_HYPS, SAMPLE_REFS)
    n = testset.n_segments
    marked = SegmentAnnotation(
        ("rater1",), (ErrorSpan(13, 19, "major", "Accuracy/Mistranslation", "rater1"),)
    )
    spans = ErrorAnnotations("MQM", "saved.tsv", HUMAN, {"terse": (marked,) + (None,) * (n - 1)})
    workspace = Workspace.open(isolated_workspace)
    saved = workspace.save_testset(testset.with_error_spans((spans,)), "sample with MQM")
    app = new_app()
    app.switch_page("bleuviz/app/page_scripts/sentences.py")
    app.query_params.update({"set": saved.id, "sys": "terse", "seg": "1"})
    app.run()
    assert not app.exception, [e.value for e in app.exception]
    markup = page_markup(app)
    assert 'data-severity=\\"major\\"' in markup  # escaped in the protobuf's text
    assert any("Error spans kept: MQM" in c.value for c in app.sidebar.caption)
    confirm = app.sidebar.checkbox(key=f"ws_delete_confirm::{saved.id}")
    assert confirm.label.replace("\\", "").endswith("0 notes, error spans (MQM)")
    confirm.check()
    app.run()
    app.sidebar.button(key="ws_delete").click()
    app.run()
    workspace.restore(saved.id)
    assert workspace.error_span_names(saved.id) == ("MQM",)


def test_command_line_mqm_spans_are_saved_with_the_files(
    new_app: Callable[..., AppTest], tmp_path: Path, isolated_workspace: Path
) -> None:
    testset = load_paths(SAMPLE_HYPS, SAMPLE_REFS)
    rows = [
        MqmRow("terse", 0, "major", "Accuracy/Mistranslation", (13, 19)),
        MqmRow("repeat", 2, ""),
    ]
    path = tmp_path / "notes.mqm.tsv"
    path.write_text(mqm_tsv(rows, testset))
    argv = ["--ref", *map(str, SAMPLE_REFS), "--hyp", *map(str, SAMPLE_HYPS), "--mqm", str(path)]
    app = new_app(*argv)
    app.run()
    assert not app.exception, [e.value for e in app.exception]
    (saved,) = Workspace.open(isolated_workspace).testsets()
    (spans,) = Workspace.open(isolated_workspace).load(saved.id).error_spans
    expected = read_error_spans(NamedBytes(str(path), path.read_bytes()), testset)
    assert (spans.name, dict(spans.segments)) == (expected.name, dict(expected.segments))
    assert spans.annotation("terse", 0).spans[0].start == 13


def test_spans_another_process_adds_to_an_open_set_show_on_the_next_run(
    new_app: Callable[..., AppTest], isolated_workspace: Path
) -> None:
    testset = load_paths(SAMPLE_HYPS, SAMPLE_REFS)
    workspace = Workspace.open(isolated_workspace)
    saved = workspace.save_testset(testset, "sample")
    app = new_app()
    app.switch_page("bleuviz/app/page_scripts/sentences.py")
    app.query_params.update({"set": saved.id, "sys": "terse", "seg": "1"})
    app.run()
    assert 'data-severity=\\"major\\"' not in page_markup(app)
    marked = SegmentAnnotation(("r",), (ErrorSpan(13, 19, "major", "Other", "r"),))
    n = testset.n_segments
    spans = ErrorAnnotations("MQM", "cli.tsv", HUMAN, {"terse": (marked,) + (None,) * (n - 1)})
    Workspace.open(isolated_workspace).save_testset(testset.with_error_spans((spans,)), "sample")
    app.run()  # as bleuviz add --set ID --mqm FILE in a terminal, then a rerun
    assert not app.exception, [e.value for e in app.exception]
    assert 'data-severity=\\"major\\"' in page_markup(app)
