"""The workspace database's schema: its tables, columns and keys, its version, its migrations.

One SQLite file, ``bleuviz.sqlite3``, in the workspace folder, in WAL mode
(readers never wait for a writer; every write is one transaction). The schema
version is SQLite's ``PRAGMA user_version``: 0 is a new, empty file; a file
with a higher version than ``SCHEMA_VERSION`` was written by a newer bleuviz
and is refused, never changed; a lower one is brought up to date by the steps
in ``MIGRATIONS``, in one transaction.

Tables (version 1):

``testsets``: one row per saved test set.
    ``id`` TEXT primary key, content-derived (``bleuviz.workspace.identity``);
    ``name`` TEXT, the user's name for it (renamable, not unique);
    ``added`` TEXT, when it was first saved, ISO 8601 in UTC (sorts by time);
    ``n_segments``, ``n_refs`` INTEGER.

``streams``: every stream of lines of a test set, one row per stream.
    ``set_id`` → ``testsets.id`` (deleted with it);
    ``kind`` TEXT: ``reference``, ``source``, ``doc_ids``, ``seg_ids`` or ``system``;
    ``name`` TEXT: the system's name; a reference's 0-based index; '' otherwise;
    ``position`` INTEGER: the order references and systems were loaded in;
    ``digest`` TEXT: SHA-256 of the lines (a re-upload of the same output is a no-op);
    ``lines`` BLOB: the N lines, joined (or JSON), compressed (``bleuviz.workspace.codec``).
    Primary key (``set_id``, ``kind``, ``name``).

``seg_scores``: metrics scored outside (COMET, human judgements), one row per metric.
    ``set_id`` → ``testsets.id``; ``name`` TEXT; ``origin`` TEXT (the file it was
    read from); ``lower_is_better`` INTEGER 0/1; ``position`` INTEGER (import order).
    Primary key (``set_id``, ``name``).

``seg_score_values``: one metric's scores for one system.
    (``set_id``, ``metric``) → ``seg_scores`` (deleted with it); ``system`` TEXT;
    ``position`` INTEGER (order within the metric); ``scores`` BLOB: N
    little-endian float64, NaN where a segment has no score.
    Primary key (``set_id``, ``metric``, ``system``).

``notes``: the current note per test set, system and segment.
    ``set_id`` → ``testsets.id`` (deleted with it); ``system`` TEXT;
    ``segment`` INTEGER, 0-based; ``text`` TEXT; ``category`` TEXT (one of
    ``bleuviz.workspace.notes.NOTE_CATEGORIES``); ``saved`` TEXT, ISO 8601 UTC.
    Primary key (``set_id``, ``system``, ``segment``).

Version 2 keeps history instead of overwriting it:

``testsets.deleted`` TEXT: when the set was moved to the trash (NULL: it is not);
    a set in the trash for ``TRASH_DAYS`` days is deleted for good.

``notes.revision`` INTEGER: the note's revision number (1, 2, ...; a save checks
    that the note is still at the revision the editor loaded); ``notes.author``
    TEXT; ``notes.output`` TEXT: the digest of the system's lines the note was
    written on (it is "on an earlier output" once the system's lines change).

``note_revisions``: every revision of every note, the current one included.
    (``set_id``, ``system``, ``segment``, ``revision``) primary key; ``text``,
    ``category``, ``author``, ``saved``, ``output`` as in ``notes``;
    ``deleted`` INTEGER 0/1: this revision deleted the note (its text is the
    deleted one's). Deleted with the test set.

``output_versions``: the earlier outputs of a system, replaced under its name.
    (``set_id``, ``system``, ``version``) primary key, ``version`` 1, 2, ... in
    the order they were replaced; ``digest``, ``lines`` as in ``streams``;
    ``replaced`` TEXT, ISO 8601 UTC. The current output stays in ``streams``.

Version 3 keeps error spans with the test set and lets a note mark an error:

``testsets.revision`` INTEGER: how many saves changed the set's systems, imported
    scores or error spans (0 for a set saved before version 3): a copy loaded at
    another revision is stale, whichever process saved the change.

``error_spans``: error annotations read from outside (MQM, ESA, xCOMET), one row
    per name. ``set_id`` → ``testsets.id`` (deleted with it); ``name`` TEXT;
    ``origin`` TEXT (the file); ``kind`` TEXT (``human`` or ``metric``);
    ``skipped`` TEXT (a JSON array: systems the file annotates that the set does
    not hold); ``position`` INTEGER (import order). Primary key (``set_id``, ``name``).

``error_span_values``: one annotation's segments for one system.
    (``set_id``, ``annotation``) → ``error_spans`` (deleted with it); ``system``
    TEXT; ``position`` INTEGER (order within the annotation); ``segments`` BLOB:
    the N segments' annotations as compressed JSON (``bleuviz.workspace.span_codec``).
    Primary key (``set_id``, ``annotation``, ``system``).

``notes.severity``, ``note_revisions.severity`` TEXT: ``major``, ``minor``,
    ``neutral``, or '' (a note without a severity is a comment, not an error);
    ``notes.span_start``, ``notes.span_end`` (and in ``note_revisions``) INTEGER:
    the marked words as character offsets into the hypothesis line the note was
    written on, end exclusive; NULL if the note marks no words.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bleuviz.errors import WorkspaceError

#: The file in the workspace folder.
DB_NAME = "bleuviz.sqlite3"
#: The version this bleuviz writes and reads (``PRAGMA user_version``).
SCHEMA_VERSION = 3

#: Statements creating version 1 (a new file then takes the migrations).
CREATE: tuple[str, ...] = (
    """CREATE TABLE testsets (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        added TEXT NOT NULL,
        n_segments INTEGER NOT NULL,
        n_refs INTEGER NOT NULL
    )""",
    """CREATE TABLE streams (
        set_id TEXT NOT NULL REFERENCES testsets(id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('reference', 'source', 'doc_ids', 'seg_ids', 'system')),
        name TEXT NOT NULL,
        position INTEGER NOT NULL,
        digest TEXT NOT NULL,
        lines BLOB NOT NULL,
        PRIMARY KEY (set_id, kind, name)
    )""",
    """CREATE TABLE seg_scores (
        set_id TEXT NOT NULL REFERENCES testsets(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        origin TEXT NOT NULL,
        lower_is_better INTEGER NOT NULL,
        position INTEGER NOT NULL,
        PRIMARY KEY (set_id, name)
    )""",
    """CREATE TABLE seg_score_values (
        set_id TEXT NOT NULL,
        metric TEXT NOT NULL,
        system TEXT NOT NULL,
        position INTEGER NOT NULL,
        scores BLOB NOT NULL,
        PRIMARY KEY (set_id, metric, system),
        FOREIGN KEY (set_id, metric) REFERENCES seg_scores(set_id, name) ON DELETE CASCADE
    )""",
    """CREATE TABLE notes (
        set_id TEXT NOT NULL REFERENCES testsets(id) ON DELETE CASCADE,
        system TEXT NOT NULL,
        segment INTEGER NOT NULL,
        text TEXT NOT NULL,
        category TEXT NOT NULL,
        saved TEXT NOT NULL,
        PRIMARY KEY (set_id, system, segment)
    )""",
)

#: Version v -> the statements that bring a version-v file to version v + 1.
MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        "ALTER TABLE testsets ADD COLUMN deleted TEXT",
        "ALTER TABLE notes ADD COLUMN revision INTEGER NOT NULL DEFAULT 1",
        "ALTER TABLE notes ADD COLUMN author TEXT NOT NULL DEFAULT 'anonymous'",
        "ALTER TABLE notes ADD COLUMN output TEXT NOT NULL DEFAULT ''",
        # A note of version 1 was written on the output the set holds now.
        """UPDATE notes SET output = coalesce((SELECT s.digest FROM streams AS s
            WHERE s.set_id = notes.set_id AND s.kind = 'system' AND s.name = notes.system), '')""",
        """CREATE TABLE note_revisions (
            set_id TEXT NOT NULL REFERENCES testsets(id) ON DELETE CASCADE,
            system TEXT NOT NULL,
            segment INTEGER NOT NULL,
            revision INTEGER NOT NULL,
            text TEXT NOT NULL,
            category TEXT NOT NULL,
            author TEXT NOT NULL,
            saved TEXT NOT NULL,
            output TEXT NOT NULL,
            deleted INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (set_id, system, segment, revision)
        )""",
        """INSERT INTO note_revisions (set_id, system, segment, revision, text, category,
            author, saved, output) SELECT set_id, system, segment, revision, text, category,
            author, saved, output FROM notes""",
        """CREATE TABLE output_versions (
            set_id TEXT NOT NULL REFERENCES testsets(id) ON DELETE CASCADE,
            system TEXT NOT NULL,
            version INTEGER NOT NULL,
            digest TEXT NOT NULL,
            lines BLOB NOT NULL,
            replaced TEXT NOT NULL,
            PRIMARY KEY (set_id, system, version)
        )""",
    ),
    2: (
        "ALTER TABLE testsets ADD COLUMN revision INTEGER NOT NULL DEFAULT 0",
        """CREATE TABLE error_spans (
            set_id TEXT NOT NULL REFERENCES testsets(id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            origin TEXT NOT NULL,
            kind TEXT NOT NULL,
            skipped TEXT NOT NULL,
            position INTEGER NOT NULL,
            PRIMARY KEY (set_id, name)
        )""",
        """CREATE TABLE error_span_values (
            set_id TEXT NOT NULL,
            annotation TEXT NOT NULL,
            system TEXT NOT NULL,
            position INTEGER NOT NULL,
            segments BLOB NOT NULL,
            PRIMARY KEY (set_id, annotation, system),
            FOREIGN KEY (set_id, annotation) REFERENCES error_spans(set_id, name)
                ON DELETE CASCADE
        )""",
        *(
            f"ALTER TABLE {table} ADD COLUMN {column}"
            for table in ("notes", "note_revisions")
            for column in (
                "severity TEXT NOT NULL DEFAULT ''",
                "span_start INTEGER",
                "span_end INTEGER",
            )
        ),
    ),
}


def prepare(conn: sqlite3.Connection, folder: Path, writable: bool) -> None:
    """Create the schema in a new file, migrate an older one, refuse a newer one.

    ``conn`` is in autocommit mode; creation and migration run in one
    ``BEGIN IMMEDIATE`` transaction that re-reads the version, so two processes
    opening a new workspace at once create it once.

    Raises:
        WorkspaceError: the file was written by a newer bleuviz, is not a
            bleuviz workspace, or needs creating or migrating but is read-only.
    """
    version = _version(conn, folder)
    if version == SCHEMA_VERSION:
        return
    if not writable:
        raise WorkspaceError(
            f"workspace {folder} is read-only and its schema (version {version}) "
            f"needs {'creating' if version == 0 else 'migrating'} to version {SCHEMA_VERSION}"
        )
    _steps(conn, folder, version)  # refuses a foreign file before anything is written
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = _version(conn, folder)
        for statement in _steps(conn, folder, version):
            conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def schema_version(conn: sqlite3.Connection, folder: Path) -> int:
    """Return the file's schema version (0: a new file), refusing one newer than this bleuviz's.

    Raises:
        WorkspaceError: written by a newer bleuviz.
    """
    return _version(conn, folder)


def _version(conn: sqlite3.Connection, folder: Path) -> int:
    """Return the file's schema version, refusing one newer than ``SCHEMA_VERSION``."""
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if version > SCHEMA_VERSION:
        raise WorkspaceError(
            f"workspace {folder} was written by a newer bleuviz "
            f"(schema {version}, this one reads up to {SCHEMA_VERSION})"
        )
    return version


def _steps(conn: sqlite3.Connection, folder: Path, version: int) -> list[str]:
    """Return the statements that bring a version-``version`` file up to date."""
    if version == 0:
        tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if tables:
            raise WorkspaceError(
                f"workspace {folder}: {DB_NAME} is an SQLite file but not a bleuviz workspace"
            )
        steps = list(CREATE)
        version = 1
    else:
        steps = []
    for v in range(version, SCHEMA_VERSION):
        steps += MIGRATIONS[v]
    return steps
