"""The SQL the ``Workspace`` runs: rows of ``bleuviz.workspace.schema`` to and from Python values.

Each function takes a connection inside the caller's transaction and never
commits; the ``Workspace`` decides where a transaction begins and ends.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from datetime import datetime

from bleuviz.io.scores import SegmentScores
from bleuviz.io.testset import TestSet
from bleuviz.workspace.codec import compress_all, decode_all, decode_scores, encode_scores, payload
from bleuviz.workspace.identity import DefiningStreams, digest
from bleuviz.workspace.notes import Note

#: The kinds of stream a test set has besides its references and systems, in the order of
#: ``DefiningStreams.singles``.
_SINGLE_KINDS = ("source", "doc_ids", "seg_ids")


def find_testset(conn: sqlite3.Connection, set_id: str) -> tuple[str, str, int, int] | None:
    """Return (name, added, n_segments, n_refs) of ``set_id``, or None."""
    row = conn.execute(
        "SELECT name, added, n_segments, n_refs FROM testsets WHERE id = ?", (set_id,)
    ).fetchone()
    return None if row is None else (row[0], row[1], row[2], row[3])


def testset_ids_newest_first(conn: sqlite3.Connection) -> list[str]:
    """Return every test set's id, the most recently added first."""
    return [r[0] for r in conn.execute("SELECT id FROM testsets ORDER BY added DESC, id")]


def system_names(conn: sqlite3.Connection, set_id: str) -> tuple[str, ...]:
    """Return the set's system names in the order they were added."""
    cursor = conn.execute(
        "SELECT name FROM streams WHERE set_id = ? AND kind = 'system' ORDER BY position",
        (set_id,),
    )
    return tuple(r[0] for r in cursor)


def insert_testset(
    conn: sqlite3.Connection,
    set_id: str,
    name: str,
    added: datetime,
    testset: TestSet,
    defining: DefiningStreams,
) -> None:
    """Insert a new test set's row and its reference, source and id streams (not its systems).

    ``defining`` holds those streams' payloads (``DefiningStreams.of(testset)``).
    """
    conn.execute(
        "INSERT INTO testsets (id, name, added, n_segments, n_refs) VALUES (?, ?, ?, ?, ?)",
        (set_id, name, added.isoformat(), testset.n_segments, len(testset.references)),
    )
    keys = [("reference", str(k), k) for k in range(len(defining.references))]
    payloads = list(defining.references)
    digests = list(defining.reference_digests)
    for kind, data, data_digest in zip(
        _SINGLE_KINDS, defining.singles, defining.single_digests, strict=True
    ):
        if data is not None and data_digest is not None:
            keys.append((kind, "", 0))
            payloads.append(data)
            digests.append(data_digest)
    for (kind, key, position), stream_digest, blob in zip(
        keys, digests, compress_all(payloads), strict=True
    ):
        conn.execute(
            "INSERT INTO streams (set_id, kind, name, position, digest, lines) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (set_id, kind, key, position, stream_digest, blob),
        )


def put_systems(
    conn: sqlite3.Connection, set_id: str, systems: Mapping[str, Sequence[str]]
) -> None:
    """Add systems, or replace one's lines if they changed (dropping the old lines' scores).

    A system whose lines are saved already is not compressed or written again.
    """
    saved = dict(
        conn.execute(
            "SELECT name, digest FROM streams WHERE set_id = ? AND kind = 'system'", (set_id,)
        ).fetchall()
    )
    payloads = {name: payload(lines) for name, lines in systems.items()}
    digests = {name: digest(data) for name, data in payloads.items()}
    changed = [name for name in systems if saved.get(name) != digests[name]]
    blobs = compress_all([payloads[name] for name in changed])
    position = _next_position(conn, "streams", set_id, "kind = 'system'")
    for name, blob in zip(changed, blobs, strict=True):
        if name not in saved:
            conn.execute(
                "INSERT INTO streams (set_id, kind, name, position, digest, lines) "
                "VALUES (?, 'system', ?, ?, ?, ?)",
                (set_id, name, position, digests[name], blob),
            )
            position += 1
            continue
        conn.execute(
            "UPDATE streams SET digest = ?, lines = ? WHERE set_id = ? AND kind = 'system' "
            "AND name = ?",
            (digests[name], blob, set_id, name),
        )
        conn.execute("DELETE FROM seg_score_values WHERE set_id = ? AND system = ?", (set_id, name))
    _drop_empty_metrics(conn, set_id)


def put_seg_scores(conn: sqlite3.Connection, set_id: str, scores: SegmentScores) -> None:
    """Add an imported metric, or update its origin, direction and the systems it scores."""
    exists = conn.execute(
        "SELECT 1 FROM seg_scores WHERE set_id = ? AND name = ?", (set_id, scores.name)
    ).fetchone()
    if exists:
        conn.execute(
            "UPDATE seg_scores SET origin = ?, lower_is_better = ? WHERE set_id = ? AND name = ?",
            (scores.origin, int(scores.lower_is_better), set_id, scores.name),
        )
    else:
        position = _next_position(conn, "seg_scores", set_id)
        conn.execute(
            "INSERT INTO seg_scores (set_id, name, origin, lower_is_better, position) "
            "VALUES (?, ?, ?, ?, ?)",
            (set_id, scores.name, scores.origin, int(scores.lower_is_better), position),
        )
    for system, values in scores.values.items():
        position = _next_position(conn, "seg_score_values", set_id, "metric = ?", (scores.name,))
        conn.execute(
            "INSERT INTO seg_score_values (set_id, metric, system, position, scores) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (set_id, metric, system) "
            "DO UPDATE SET scores = excluded.scores",
            (set_id, scores.name, system, position, encode_scores(values)),
        )


def streams(
    conn: sqlite3.Connection, set_id: str, kinds: Sequence[str] | None = None
) -> dict[str, dict[str, tuple[str, ...]]]:
    """Return kind -> name -> lines of the set's streams (of ``kinds`` only, if given), in order."""
    sql = "SELECT kind, name, lines FROM streams WHERE set_id = ?"
    params: list[str] = [set_id]
    if kinds is not None:
        sql += f" AND kind IN ({', '.join('?' * len(kinds))})"
        params += kinds
    found = conn.execute(sql + " ORDER BY kind, position", params).fetchall()
    out: dict[str, dict[str, tuple[str, ...]]] = {}
    for (kind, name, _), lines in zip(found, decode_all([r[2] for r in found]), strict=True):
        out.setdefault(kind, {})[name] = lines
    return out


def seg_scores(conn: sqlite3.Connection, set_id: str) -> tuple[SegmentScores, ...]:
    """Return the set's imported metrics in import order, each system's scores in order."""
    metrics = conn.execute(
        "SELECT name, origin, lower_is_better FROM seg_scores WHERE set_id = ? ORDER BY position",
        (set_id,),
    ).fetchall()
    out = []
    for name, origin, lower in metrics:
        cursor = conn.execute(
            "SELECT system, scores FROM seg_score_values WHERE set_id = ? AND metric = ? "
            "ORDER BY position",
            (set_id, name),
        )
        values = {system: decode_scores(blob) for system, blob in cursor}
        out.append(SegmentScores(name, origin, values, bool(lower)))
    return tuple(out)


def put_note(conn: sqlite3.Connection, note: Note) -> None:
    """Insert or overwrite the note on (set, system, segment)."""
    conn.execute(
        "INSERT INTO notes (set_id, system, segment, text, category, saved) "
        "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (set_id, system, segment) DO UPDATE SET "
        "text = excluded.text, category = excluded.category, saved = excluded.saved",
        (note.set_id, note.system, note.segment, note.text, note.category, note.saved.isoformat()),
    )


def notes(conn: sqlite3.Connection, set_id: str) -> tuple[Note, ...]:
    """Return the set's notes ordered by system (load order), then segment."""
    cursor = conn.execute(
        "SELECT n.system, n.segment, n.text, n.category, n.saved FROM notes AS n "
        "LEFT JOIN streams AS s ON s.set_id = n.set_id AND s.kind = 'system' AND s.name = n.system "
        "WHERE n.set_id = ? ORDER BY s.position, n.system, n.segment",
        (set_id,),
    )
    return tuple(_note(set_id, row) for row in cursor)


def note(conn: sqlite3.Connection, set_id: str, system: str, segment: int) -> Note | None:
    """Return the note on (set, system, segment), or None."""
    row = conn.execute(
        "SELECT system, segment, text, category, saved FROM notes "
        "WHERE set_id = ? AND system = ? AND segment = ?",
        (set_id, system, segment),
    ).fetchone()
    return None if row is None else _note(set_id, row)


def _note(set_id: str, row: tuple[str, int, str, str, str]) -> Note:
    system, segment, text, category, saved = row
    return Note(set_id, system, segment, text, category, datetime.fromisoformat(saved))


def _next_position(
    conn: sqlite3.Connection,
    table: str,
    set_id: str,
    where: str = "1",
    params: tuple[str, ...] = (),
) -> int:
    """Return one more than the highest ``position`` of the set's rows in ``table``."""
    sql = f"SELECT coalesce(max(position) + 1, 0) FROM {table} WHERE set_id = ? AND {where}"
    return int(conn.execute(sql, (set_id, *params)).fetchone()[0])


def _drop_empty_metrics(conn: sqlite3.Connection, set_id: str) -> None:
    """Delete imported metrics left without any system's scores."""
    conn.execute(
        "DELETE FROM seg_scores WHERE set_id = ? AND NOT EXISTS (SELECT 1 FROM seg_score_values "
        "AS v WHERE v.set_id = seg_scores.set_id AND v.metric = seg_scores.name)",
        (set_id,),
    )
