"""The workspace: test sets and notes saved in an SQLite file, so analyses last and links travel."""

from typing import TYPE_CHECKING

from bleuviz.lazy import lazy_exports

if TYPE_CHECKING:
    from bleuviz.errors import UnknownTestSet, WorkspaceError
    from bleuviz.workspace.base import SavedSet
    from bleuviz.workspace.conflicts import NoteChanged, OutputChanged, SpansChanged
    from bleuviz.workspace.identity import DefiningStreams, testset_id
    from bleuviz.workspace.location import WORKSPACE_ENV, default_folder, resolve_folder
    from bleuviz.workspace.notes import ANONYMOUS, NOTE_CATEGORIES, NOTE_MAX_CHARS, Note
    from bleuviz.workspace.schema import DB_NAME, SCHEMA_VERSION
    from bleuviz.workspace.store import TRASH_DAYS, EarlierOutput, Workspace

_EXPORTS = {
    "UnknownTestSet": "bleuviz.errors",
    "WorkspaceError": "bleuviz.errors",
    "NoteChanged": "bleuviz.workspace.conflicts",
    "OutputChanged": "bleuviz.workspace.conflicts",
    "SpansChanged": "bleuviz.workspace.conflicts",
    "DefiningStreams": "bleuviz.workspace.identity",
    "testset_id": "bleuviz.workspace.identity",
    "WORKSPACE_ENV": "bleuviz.workspace.location",
    "default_folder": "bleuviz.workspace.location",
    "resolve_folder": "bleuviz.workspace.location",
    "ANONYMOUS": "bleuviz.workspace.notes",
    "NOTE_CATEGORIES": "bleuviz.workspace.notes",
    "NOTE_MAX_CHARS": "bleuviz.workspace.notes",
    "Note": "bleuviz.workspace.notes",
    "DB_NAME": "bleuviz.workspace.schema",
    "SCHEMA_VERSION": "bleuviz.workspace.schema",
    "TRASH_DAYS": "bleuviz.workspace.store",
    "EarlierOutput": "bleuviz.workspace.store",
    "SavedSet": "bleuviz.workspace.base",
    "Workspace": "bleuviz.workspace.store",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
__all__ = [
    "ANONYMOUS",
    "DB_NAME",
    "NOTE_CATEGORIES",
    "NOTE_MAX_CHARS",
    "SCHEMA_VERSION",
    "TRASH_DAYS",
    "WORKSPACE_ENV",
    "DefiningStreams",
    "EarlierOutput",
    "Note",
    "NoteChanged",
    "OutputChanged",
    "SavedSet",
    "SpansChanged",
    "UnknownTestSet",
    "Workspace",
    "WorkspaceError",
    "default_folder",
    "resolve_folder",
    "testset_id",
]
