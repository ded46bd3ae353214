"""The workspace at the UI boundary: which one is open, its saved test sets, saving to it.

The workspace folder comes from ``--workspace DIR`` after ``--`` on the streamlit
command line, else ``BLEUVIZ_WORKSPACE``, else the per-user data folder. It is
opened once per server and shared by every session (``Workspace`` holds no
connection). A workspace that cannot be opened leaves the app usable on the
sample and command-line files, with the reason shown in the sidebar.
"""

from __future__ import annotations

import threading
from collections.abc import Collection
from datetime import UTC, datetime
from typing import Any, cast

from bleuviz.app.ui.cache.keys import cached_resource
from bleuviz.app.ui.state.app_args import app_args
from bleuviz.errors import BleuvizError
from bleuviz.io.content_id import LoadedTestSet
from bleuviz.io.testset import TestSet
from bleuviz.workspace import DefiningStreams, SavedSet, Workspace

#: Session-state keys: the data source's value for a saved set, and which set it is.
SAVED, SAVED_SET_KEY = "saved", "saved_set"
#: Session-state key of the name notes are saved under (the sidebar's "Your name").
AUTHOR_KEY = "note_author"


@cached_resource(show_spinner=False)
def _open(folder: str | None) -> Workspace | BleuvizError:
    """Open the workspace once per server; an error is kept (and shown) instead."""
    try:
        return Workspace.open(folder)
    except BleuvizError as exc:
        return exc


def open_workspace() -> Workspace | None:
    """The server's workspace, or None (the sidebar then says why, see ``workspace_problem``)."""
    opened = _open(app_args().workspace)
    return opened if isinstance(opened, Workspace) else None


def workspace_problem() -> str | None:
    """Why the workspace cannot be used, in one line, or None."""
    opened = _open(app_args().workspace)
    if isinstance(opened, Workspace):
        return opened.refusal
    return str(opened)


def workspace_readonly() -> bool:
    """Whether the open workspace refuses writes (True also when none is open)."""
    workspace = open_workspace()
    return workspace is None or workspace.read_only


def saved_sets() -> tuple[SavedSet, ...]:
    """The workspace's test sets, newest first (none without a workspace)."""
    workspace = open_workspace()
    return workspace.testsets() if workspace is not None else ()


@cached_resource(max_entries=6, show_spinner="Opening the saved test set…")
def _load(folder: str, saved: SavedSet) -> LoadedTestSet:
    """Load a saved test set (cached on its listing: adding or replacing a system changes it)."""
    workspace = open_workspace()
    if workspace is None:
        raise BleuvizError(workspace_problem() or f"workspace {folder}: not available")
    return LoadedTestSet.of(workspace.load(saved.id))


#: Test sets this server saved, as it held them: id -> (the listing after the save, the set).
#: Reading one back from the database would make a second copy of what is in memory.
_SAVED_HERE: dict[str, tuple[SavedSet, LoadedTestSet]] = {}


#: What this script run has read of the workspace's listing (set id -> ``SavedSet``), kept by
#: the run's thread. Every score of a page asks which test set is loaded (the Overview asked
#: 21 times a run, each a database connection and two queries); a run reads each listing
#: once, and the next run again, so a set another process changed shows on the next run. Not
#: in session state: a save may come from cached work, which must not touch it.
_THIS_RUN = threading.local()


def forget_listings() -> None:
    """Read the saved sets' listings afresh: at a run's start, and after this server changes one."""
    _THIS_RUN.listed = {}


def _listed() -> dict[str, SavedSet]:
    """The listings this run has read (on this thread)."""
    if not hasattr(_THIS_RUN, "listed"):
        forget_listings()
    listed: dict[str, SavedSet] = _THIS_RUN.listed
    return listed


def load_saved(set_id: str) -> LoadedTestSet:
    """The saved test set ``set_id`` with its content id; raises UnknownTestSet if it is gone."""
    workspace = open_workspace()
    if workspace is None:
        raise BleuvizError(workspace_problem() or "no workspace")
    listed = _listed()
    saved = listed.get(set_id)
    if saved is None:
        saved = listed[set_id] = workspace.get(set_id)
    here = _SAVED_HERE.get(set_id)
    if here is not None and here[0] == saved:  # nothing added or renamed since
        return here[1]
    return _load(str(workspace.folder), saved)


def save_testset(
    testset: TestSet | LoadedTestSet,
    name: str,
    defining: DefiningStreams | None = None,
    *,
    replace: bool = False,
    replace_scores: Collection[str] = (),
) -> SavedSet:
    """Save ``testset`` (merging into the set of the same references) and forget stale copies.

    ``defining``: ``DefiningStreams.of(testset)``, if the caller has built it already.
    ``replace``: replace systems saved under the same names with other lines
    (the old lines stay as earlier versions); else such a save raises
    ``bleuviz.workspace.OutputChanged`` and saves nothing. ``replace_scores``: imported
    metrics whose saved values the test set's replace, for every system; error spans
    of those names replace the saved ones too (the sidebar's "Replace NAME" covers
    an error-span file's spans and their score alike).
    A ``LoadedTestSet`` brings its content id, which is otherwise computed when
    the set is new to the workspace (it is then served from memory).
    """
    loaded = testset if isinstance(testset, LoadedTestSet) else None
    plain = testset.testset if isinstance(testset, LoadedTestSet) else testset
    workspace = open_workspace()
    if workspace is None:
        raise BleuvizError(workspace_problem() or "no workspace")
    before = {s.id for s in workspace.testsets() + workspace.trash()}  # a trashed one comes back
    saved = workspace.save_testset(
        plain,
        name,
        defining,
        replace=replace,
        replace_scores=replace_scores,
        replace_spans=replace_scores,
    )
    new = saved.id not in before
    forget_listings()
    # A replaced system keeps the listing, so the cached copy could be stale. (``cached_resource``
    # types the function as it was declared, without Streamlit's ``clear``.)
    cast("Any", _load).clear()
    _SAVED_HERE.pop(saved.id, None)
    if new:  # the database now holds exactly the set given (no earlier systems or scores)
        _SAVED_HERE[saved.id] = (saved, loaded or LoadedTestSet.of(plain))
    return saved


def upload_name(file_names: list[str]) -> str:
    """A name for an upload: its first hypothesis file, how many more, and when."""
    first = file_names[0] if file_names else "upload"
    more = f" + {len(file_names) - 1} more" if len(file_names) > 1 else ""
    return f"{first}{more} ({datetime.now(UTC):%Y-%m-%d %H:%M} UTC)"


#: The longest name ``describe`` shows whole; a longer one keeps its start and its end.
#: The sidebar's list shows about 30 characters of a line (Chromium, default sidebar width):
#: the name and the id's start fit in them.
NAME_CHARS = 20


def describe(saved: SavedSet) -> str:
    """One line naming a saved set in the sidebar's list: name, id, date, size.

    Names often share a long start (``hyp.system.de.txt + 12 more (...)``), or
    are the same, and the sidebar cuts a long line: a long name is cut in its
    middle, keeping its end, and the start of the id follows it, so two sets
    never read the same in the part that shows; when it was saved and its
    size come after (the caption under the list has them in full).
    """
    name = saved.name
    if len(name) > NAME_CHARS:
        head = (NAME_CHARS - 1) // 2
        name = f"{name[:head]}…{name[-(NAME_CHARS - 1 - head) :]}"
    size = f"{len(saved.systems)}×{saved.n_segments:,}"
    return f"{name} · {saved.id[:6]} · {saved.added:%m-%d %H:%M} · {size}"


def earlier_outputs_text(saved: SavedSet) -> str:
    """The systems of a saved set with earlier outputs kept, and how many ("" if none)."""
    workspace = open_workspace()
    if workspace is None:
        return ""
    counts: dict[str, int] = {}
    for earlier in workspace.earlier_outputs(saved.id):
        counts[earlier.system] = counts.get(earlier.system, 0) + 1
    return ", ".join(f"{system} ({n})" for system, n in counts.items())


def error_spans_text(saved: SavedSet) -> str:
    """The names of the error spans kept with a saved set (``MQM, xCOMET``), "" if none."""
    workspace = open_workspace()
    return ", ".join(workspace.error_span_names(saved.id)) if workspace is not None else ""


def what_goes(saved: SavedSet) -> str:
    """What deleting a saved set takes with it: systems, notes, error spans, earlier outputs."""
    workspace = open_workspace()
    if workspace is None:
        return ""
    notes = workspace.count_notes(saved.id)
    earlier = len(workspace.earlier_outputs(saved.id))
    spans = workspace.error_span_names(saved.id)
    parts = [
        _count(len(saved.systems), "system") + f" ({', '.join(saved.systems)})",
        _count(notes, "note"),
    ]
    if spans:
        parts.append(f"error spans ({', '.join(spans)})")
    if earlier:
        parts.append(_count(earlier, "earlier output"))
    return ", ".join(parts)


def _count(n: int, unit: str) -> str:
    return f"{n:,} {unit}" + ("" if n == 1 else "s")
