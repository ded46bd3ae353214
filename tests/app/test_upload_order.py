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

from bleuviz.render.labels import escape_markdown
from bleuviz.workspace import Workspace
from tests.data import COMET_SCORES, SAMPLE_DOCIDS, SAMPLE_HYPS, SAMPLE_REFS

SAMPLE = Path(SAMPLE_REFS[0]).parent
SOURCE = SAMPLE / "source.de"
UPLOADERS = {"hyp": "up_hyp", "ref": "up_ref", "src": "up_src", "docids": "up_docids"}


def as_upload(path: Path | str) -> tuple[str, bytes, str]:
    path = Path(path)
    return (path.name, path.read_bytes(), "text/plain")


FILES: dict[str, list[tuple[str, bytes, str]]] = {
    "hyp": [as_upload(p) for p in SAMPLE_HYPS[:2]],
    "ref": [as_upload(p) for p in SAMPLE_REFS],
    "src": [as_upload(SOURCE)],
    "docids": [as_upload(SAMPLE_DOCIDS)],
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
    assert Workspace.open(isolated_workspace).trash() == ()  # no trail (issue 44 item 6)


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


# ------------------------------------------- issue 44 items 5 and 6: one set, asked first


def only_set(folder: Path) -> tuple[str, Workspace]:
    """The id of the workspace's one saved set (and the workspace); its trash is empty."""
    workspace = Workspace.open(folder)
    (saved,) = workspace.testsets()
    assert workspace.trash() == ()
    return saved.id, workspace


def test_removing_a_file_given_later_brings_nothing_back_from_the_trash(
    new_app: Callable[..., AppTest], isolated_workspace: Path
) -> None:
    app = uploading(new_app)
    for kind in ("hyp", "ref", "src", "docids"):
        give(app, kind)
    set_id, workspace = only_set(isolated_workspace)
    assert workspace.load(set_id).doc_ids == lines(SAMPLE_DOCIDS)
    app.sidebar.file_uploader(key="up_docids").set_value(None)  # a partial upload again
    run(app)
    set_id, workspace = only_set(isolated_workspace)
    testset = workspace.load(set_id)
    assert testset.doc_ids is None and testset.source == lines(SOURCE)
    assert app.session_state["saved_set"] == set_id


def test_scores_saved_on_an_upload_stay_with_it_when_a_source_comes(
    new_app: Callable[..., AppTest], isolated_workspace: Path
) -> None:
    app = give(give(uploading(new_app), "hyp"), "ref")
    (scores,) = [u for u in app.sidebar.get("file_uploader") if "Segment scores" in u.label]
    scores.set_value((COMET_SCORES.name, COMET_SCORES.read_bytes(), "text/plain"))  # type: ignore[attr-defined]
    run(app)
    set_id, workspace = only_set(isolated_workspace)
    saved = {s.name: s.values for s in workspace.load(set_id).seg_scores}
    assert list(saved) == ["COMET-test"]
    give(app, "src")
    grown_id, workspace = only_set(isolated_workspace)
    assert grown_id != set_id  # a source makes another id (bleuviz.workspace.identity)
    grown = workspace.load(grown_id)
    assert grown.source == lines(SOURCE)
    assert [s.name for s in grown.seg_scores] == ["COMET-test"]
    for system, values in grown.seg_scores[0].values.items():
        assert list(values) == pytest.approx(list(saved["COMET-test"][system]), nan_ok=True)


@pytest.mark.parametrize("answer", ["upload_replace", "upload_keep"])
@pytest.mark.parametrize("saved_first", [True, False])
def test_a_hypothesis_given_again_under_its_name_asks_first(
    new_app: Callable[..., AppTest], isolated_workspace: Path, answer: str, saved_first: bool
) -> None:
    """A corrected hyp.literal.en beside the old one is "literal" again, never "literal (2)"."""
    app = uploading(new_app)
    if saved_first:  # the corrected file comes after the set was saved
        give(give(app, "hyp"), "ref")
        app.sidebar.file_uploader(key="up_hyp").set_value([*FILES["hyp"], changed_hyp()])
        run(app)
    else:  # both files come before the references
        app.sidebar.file_uploader(key="up_hyp").set_value([*FILES["hyp"], changed_hyp()])
        give(run(app), "ref")
    set_id, workspace = only_set(isolated_workspace)
    assert workspace.load(set_id).systems["literal"] == lines(SAMPLE_HYPS[0])  # not yet
    said = f"Given again under its name: {escape_markdown(SAMPLE_HYPS[0].name)}."
    assert any(c.value.startswith(said) for c in app.sidebar.caption)
    buttons = dialog_buttons(app)
    assert set(buttons) == {"upload_replace", "upload_keep", "upload_cancel"}
    buttons[answer].click()  # type: ignore[attr-defined]
    run(app)
    set_id, workspace = only_set(isolated_workspace)
    systems = workspace.load(set_id).systems
    assert sorted(systems) == ["literal", "terse"]
    expected = changed_hyp()[1].decode().removesuffix("\n").split("\n")
    if answer == "upload_keep":
        expected = list(lines(SAMPLE_HYPS[0]))
    assert list(systems["literal"]) == expected
    assert not dialog_buttons(run(app))


def test_a_source_given_while_a_clash_waits_moves_the_set_and_asks_again(
    new_app: Callable[..., AppTest], isolated_workspace: Path
) -> None:
    app = give(give(uploading(new_app), "hyp"), "ref")
    app.sidebar.file_uploader(key="up_hyp").set_value([*FILES["hyp"], changed_hyp()])
    dialog_buttons(run(app))["upload_cancel"].click()  # type: ignore[attr-defined]
    give(run(app), "src")
    set_id, workspace = only_set(isolated_workspace)
    assert workspace.load(set_id).source == lines(SOURCE)  # moved under its new id
    assert workspace.load(set_id).systems["literal"] == lines(SAMPLE_HYPS[0])  # not yet
    assert app.session_state["saved_set"] == set_id
    assert app.sidebar.file_uploader(key="up_src").value is not None  # the uploaders stay
    dialog_buttons(app)["upload_replace"].click()  # type: ignore[attr-defined]
    run(app)
    set_id, workspace = only_set(isolated_workspace)
    literal = workspace.load(set_id).systems["literal"]
    assert literal[0] == "A changed first line ." and literal[1:] == lines(SAMPLE_HYPS[0])[1:]


def test_a_clash_cancelled_when_the_source_comes_leaves_the_workspace_as_it_was(
    new_app: Callable[..., AppTest], isolated_workspace: Path
) -> None:
    """Found trying WMT24's ESA excerpt: a corrected system given with the references, then
    the source, to a workspace holding that set. The upload saved a set without the source,
    then asked about the clash; on Cancel that set stayed, shown, holding the corrected
    lines, while the sidebar said "Not saved"."""
    first = uploading(new_app)  # another session saved the set before
    for kind in ("hyp", "ref", "src"):
        give(first, kind)
    set_id, _ = only_set(isolated_workspace)
    app = uploading(new_app)
    app.sidebar.file_uploader(key="up_hyp").set_value([changed_hyp(), FILES["hyp"][1]])
    give(run(app), "ref")  # saved at once: a set without the source
    give(app, "src")  # now the upload is the saved set, whose literal has other lines
    dialog_buttons(app)["upload_cancel"].click()  # type: ignore[attr-defined]
    run(run(app))
    assert only_set(isolated_workspace)[0] == set_id  # nothing of the upload saved
    assert Workspace.open(isolated_workspace).load(set_id).systems["literal"] == lines(
        SAMPLE_HYPS[0]
    )
    assert any(c.value.startswith("Not saved:") for c in app.sidebar.caption)
    for kind in ("hyp", "ref", "src"):  # the files stay given, to rename or ask again
        assert app.sidebar.file_uploader(key=UPLOADERS[kind]).value
