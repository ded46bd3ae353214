"""Writers at once lose nothing: processes and threads saving notes to one workspace."""

from __future__ import annotations

import multiprocessing
import threading
from pathlib import Path

from bleuviz.workspace import Note, Workspace
from tests.workspace.conftest import sample_testset

WRITERS = 4
NOTES_EACH = 25


def _write_notes(folder: str, set_id: str, writer: int) -> None:
    """One writer: its own Workspace (its own connections), a note per segment it owns."""
    workspace = Workspace.open(folder)
    for k in range(NOTES_EACH):
        segment = writer * NOTES_EACH + k
        workspace.save_note(set_id, "literal", segment, f"writer {writer} note {k}", "style")
        workspace.save_note(set_id, "terse", k, f"overwritten by {writer}", "other")


def _expected(notes: tuple[Note, ...]) -> None:
    texts = {(n.system, n.segment): n.text for n in notes}
    for writer in range(WRITERS):
        for k in range(NOTES_EACH):
            assert texts[("literal", writer * NOTES_EACH + k)] == f"writer {writer} note {k}"
    assert len(texts) == WRITERS * NOTES_EACH + NOTES_EACH
    assert {texts[("terse", k)] for k in range(NOTES_EACH)} <= {
        f"overwritten by {w}" for w in range(WRITERS)
    }


def test_processes_saving_notes_at_once_lose_nothing(tmp_path: Path) -> None:
    workspace = Workspace.open(tmp_path)
    set_id = workspace.save_testset(sample_testset(), "sample").id
    context = multiprocessing.get_context("fork")  # no connection is open to inherit
    processes = [
        context.Process(target=_write_notes, args=(str(tmp_path), set_id, w))
        for w in range(WRITERS)
    ]
    for p in processes:
        p.start()
    for p in processes:
        p.join()
    assert [p.exitcode for p in processes] == [0] * WRITERS
    _expected(workspace.notes(set_id))


def test_threads_sharing_one_workspace_lose_nothing(tmp_path: Path) -> None:
    """As Streamlit sessions do: one Workspace object, a thread per session."""
    workspace = Workspace.open(tmp_path)
    set_id = workspace.save_testset(sample_testset(), "sample").id
    errors: list[BaseException] = []

    def session(writer: int) -> None:
        try:
            for k in range(NOTES_EACH):
                segment = writer * NOTES_EACH + k
                text = f"writer {writer} note {k}"
                workspace.save_note(set_id, "literal", segment, text, "style")
                workspace.save_note(set_id, "terse", k, f"overwritten by {writer}", "other")
                assert workspace.note(set_id, "literal", segment) is not None
                workspace.load(set_id)
        except BaseException as e:  # surfaced below: a thread's exception is otherwise lost
            errors.append(e)

    threads = [threading.Thread(target=session, args=(w,)) for w in range(WRITERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    _expected(workspace.notes(set_id))
