"""Uploads in any order end in one saved set with everything uploaded (issue 33 item 6).

Also: a half-done upload is a hint, not an error; a system re-uploaded under its
name with other lines asks first (issue 34 item 1, in the app). Oracles: the
workspace read back through ``Workspace`` (SQLite) and the sample's own files.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import permutations
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from bleuviz.workspace import Workspace
from tests.data import SAMPLE_HYPS, SAMPLE_REFS

SAMPLE = Path(SAMPLE_REFS[0]).parent
SOURCE = SAMPLE / "source.de"
UPLOADERS = {"hyp": "up_hyp", "ref": "up_ref", "src": "up_src"}


def as_upload(path: Path | str) -> tuple[str, bytes, str]:
    path = Path(path)
    return (path.name, path.read_bytes(), "text/plain")


FILES: dict[str, list[tuple[str, bytes, str]]] = {
    "hyp": [as_upload(p) for p in SAMPLE_HYPS[:2]],
    "ref": [as_upload(p) for p in SAMPLE_REFS],
    "src": [as_upload(SOURCE)],
}


def run(app: AppTest) -> AppTest:
    app.run()
    assert not app.exception, [e.value for e in app.exception]
    return app


def give(app: AppTest, kind: str) -> AppTest:
    """Upload the ``kind`` files in the uploader of that kind and rerun."""
    uploader = app.sidebar.file_uploader(key=UPLOADERS[kind])
    files = FILES[kind]
    uploader.set_value(files if uploader.accept_multiple_files else files[0])
    return run(app)


def uploading(new_app: Callable[..., AppTest]) -> AppTest:
    app = run(new_app())
    app.sidebar.radio(key="data_source").set_value("upload")
    return run(app)


def lines(path: Path | str) -> tuple[str, ...]:
    return tuple(Path(path).read_text(encoding="utf-8").removesuffix("\n").split("\n"))


@pytest.mark.parametrize("order", list(permutations(["hyp", "ref", "src"])))
def test_any_order_of_uploads_ends_in_one_saved_set_with_everything(
    new_app: Callable[..., AppTest], isolated_workspace: Path, order: Sequence[str]
) -> None:
    app = uploading(new_app)
    for kind in order:
        give(app, kind)
        assert not app.error, [e.value for e in app.error]
    (saved,) = Workspace.open(isolated_workspace).testsets()
    testset = Workspace.open(isolated_workspace).load(saved.id)
    assert testset.source == lines(SOURCE)
    assert testset.references == tuple(lines(p) for p in SAMPLE_REFS)
    assert [testset.systems[n] for n in ("literal", "terse")] == [lines(p) for p in SAMPLE_HYPS[:2]]
    assert app.sidebar.radio(key="data_source").value == "saved"
    assert app.session_state["saved_set"] == saved.id
    assert app.sidebar.file_uploader(key="up_src").value is not None  # the uploaders stay


def test_hypotheses_without_references_are_a_hint_not_an_error(
    new_app: Callable[..., AppTest], isolated_workspace: Path
) -> None:
    app = give(uploading(new_app), "hyp")
    assert not app.error, [e.value for e in app.error]
    (hint,) = [i.value for i in app.info if "no reference yet" in i.value]
    assert hint.startswith("2 hypothesis files given")
    assert Workspace.open(isolated_workspace).testsets() == ()


def test_references_without_hypotheses_are_a_hint(new_app: Callable[..., AppTest]) -> None:
    app = give(uploading(new_app), "ref")
    assert not app.error, [e.value for e in app.error]
    assert any("no hypotheses yet" in i.value.lower() for i in app.info)


def changed_hyp() -> tuple[str, bytes, str]:
    name, data, mime = FILES["hyp"][0]
    _, rest = data.split(b"\n", 1)
    return name, b"A changed first line .\n" + rest, mime


def saved_then_changed(new_app: Callable[..., AppTest]) -> tuple[AppTest, str]:
    """Save the sample's first two systems; then upload the first again with a changed line."""
    app = give(give(uploading(new_app), "hyp"), "ref")
    set_id = app.session_state["saved_set"]
    app.sidebar.radio(key="data_source").set_value("upload")
    run(app)
    app.sidebar.file_uploader(key="up_hyp").set_value([changed_hyp()])
    return run(app), set_id


def dialog_buttons(app: AppTest) -> dict[str, object]:
    return {
        b.key: b for b in app.button if b.key in ("upload_replace", "upload_keep", "upload_cancel")
    }


@pytest.mark.parametrize("answer", ["upload_replace", "upload_keep", "upload_cancel"])
def test_a_system_uploaded_again_with_other_lines_asks_first(
    new_app: Callable[..., AppTest], isolated_workspace: Path, answer: str
) -> None:
    app, set_id = saved_then_changed(new_app)
    name = "literal"  # hyp.literal.en
    workspace = Workspace.open(isolated_workspace)
    assert workspace.load(set_id).systems[name] == lines(SAMPLE_HYPS[0])  # not yet replaced
    buttons = dialog_buttons(app)
    assert set(buttons) == {"upload_replace", "upload_keep", "upload_cancel"}
    buttons[answer].click()  # type: ignore[attr-defined]
    run(app)
    saved = workspace.load(set_id).systems[name]
    if answer == "upload_replace":
        assert saved[0] == "A changed first line ." and saved[1:] == lines(SAMPLE_HYPS[0])[1:]
        assert [e.system for e in workspace.earlier_outputs(set_id)] == [name]
    else:
        assert saved == lines(SAMPLE_HYPS[0])
        assert workspace.earlier_outputs(set_id) == ()
    run(app)
    assert not dialog_buttons(app)  # answered: not asked again
    assert len(workspace.testsets()) == 1
