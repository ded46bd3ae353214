"""The set an upload saved before, when a file given afterwards gives the upload a new id.

A test set's id derives from its references, source and ids
(``bleuviz.workspace.identity``), so a source or document ids given after the
hypotheses and references make the upload another set. Growing an upload must
update one set, not leave a trail (issue 44 item 6): the set this upload made is
saved again under the new id with everything it holds (its systems as saved,
imported scores, error spans), and deleted for good, never sent to the trash the
user did not ask for. A set with notes or earlier outputs holds work of its own:
it stays (notes) or goes to the trash (earlier outputs), as before.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import replace

from bleuviz.app.ui.cache.workspace import forget_listings, open_workspace, save_testset
from bleuviz.errors import BleuvizError
from bleuviz.io.testset import TestSet
from bleuviz.workspace import DefiningStreams


def regrow(earlier_id: str, testset: TestSet, defining: DefiningStreams) -> bool:
    """Save the set ``earlier_id`` again with ``testset``'s streams, then delete it for good.

    ``testset``: the upload as read now (its references, source and ids define the
    new set); ``defining``: its ``DefiningStreams`` (the new id). Returns whether the
    set was moved; it is not when it holds work of its own (notes, earlier outputs),
    is gone, or does not fit the new streams (another number of segments).

    Raises:
        WorkspaceError: the workspace refuses the save.
    """
    workspace = open_workspace()
    if workspace is None:
        return False
    try:
        if workspace.count_notes(earlier_id) or workspace.earlier_outputs(earlier_id):
            return False
        name, old = workspace.get(earlier_id).name, workspace.load(earlier_id)
        grown = replace(
            testset, systems=old.systems, seg_scores=old.seg_scores, error_spans=old.error_spans
        )
    except BleuvizError:  # gone, or another number of segments: not a growth
        return False
    save_testset(grown, name, defining)
    with suppress(BleuvizError):  # a note was written on it meanwhile: it stays
        workspace.discard(earlier_id)
    forget_listings()
    return True


def retire(set_id: str) -> None:
    """Take away a set this upload made and no longer shows, unless a note was written on it.

    Deleted for good when it holds nothing but uploaded files; to the trash
    (restorable) when it keeps earlier outputs or imported scores.
    """
    workspace = open_workspace()
    if workspace is None:
        return
    try:
        if workspace.count_notes(set_id):
            return
        kept = workspace.load(set_id)
        if workspace.earlier_outputs(set_id) or kept.seg_scores or kept.error_spans:
            workspace.delete(set_id)
        else:
            workspace.discard(set_id)
    except BleuvizError:  # gone already, or the workspace refuses: it stays as it is
        return
    finally:
        forget_listings()
