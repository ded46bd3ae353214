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
from bleuviz.workspace.conflicts import OutputChanged
from bleuviz.workspace.identity import DefiningStreams, digest
from bleuviz.workspace.span_rows import drop_system_spans

#: The kinds of stream a test set has besides its references and systems, in the order of
#: ``DefiningStreams.singles``.
_SINGLE_KINDS = ("source", "doc_ids", "seg_ids")


def find_testset(
    conn: sqlite3.Connection, set_id: str
) -> tuple[str, str, int, int, str | None, int] | None:
    """Return (name, added, n_segments, n_refs, deleted, revision) of ``set_id``, or None.

    ``deleted`` is when the set was moved to the trash, None if it is not there;
    ``revision`` counts the saves that changed its data (``bump_revision``).
    """
    row = conn.execute(
        "SELECT name, added, n_segments, n_refs, deleted, revision FROM testsets WHERE id = ?",
        (set_id,),
    ).fetchone()
    return None if row is None else (row[0], row[1], row[2], row[3], row[4], row[5])


def bump_revision(conn: sqlite3.Connection, set_id: str) -> None:
    """Count one more save that changed the set's systems, imported scores or error spans."""
    conn.execute("UPDATE testsets SET revision = revision + 1 WHERE id = ?", (set_id,))


def testset_ids_newest_first(conn: sqlite3.Connection, trashed: bool = False) -> list[str]:
    """Return the test sets' ids, the most recently added (or trashed) first.

    ``trashed``: the sets in the trash instead of the others.
    """
    if trashed:
        sql = "SELECT id FROM testsets WHERE deleted IS NOT NULL ORDER BY deleted DESC, id"
    else:
        sql = "SELECT id FROM testsets WHERE deleted IS NULL ORDER BY added DESC, id"
    return [r[0] for r in conn.execute(sql)]


def set_trashed(conn: sqlite3.Connection, set_id: str, when: datetime | None) -> None:
    """Move the set to the trash at ``when``, or (None) out of it."""
    stamp = None if when is None else when.isoformat()
    conn.execute("UPDATE testsets SET deleted = ? WHERE id = ?", (stamp, set_id))


def purge_trash(conn: sqlite3.Connection, before: datetime) -> int:
    """Delete for good the sets moved to the trash before ``before``; return how many."""
    cursor = conn.execute("DELETE FROM testsets WHERE deleted < ?", (before.isoformat(),))
    return cursor.rowcount


def oldest_in_trash(conn: sqlite3.Connection) -> datetime | None:
    """Return when the longest-trashed set was moved there, or None if the trash is empty."""
    row = conn.execute("SELECT min(deleted) FROM testsets").fetchone()
    return None if row[0] is None else datetime.fromisoformat(row[0])


def system_outputs(conn: sqlite3.Connection, set_id: str) -> list[tuple[str, str]]:
    """Return each system's (name, digest of its current lines), in the order they were added."""
    cursor = conn.execute(
        "SELECT name, digest FROM streams WHERE set_id = ? AND kind = 'system' ORDER BY position",
        (set_id,),
    )
    return [(r[0], r[1]) for r in cursor]


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
    conn: sqlite3.Connection,
    set_id: str,
    systems: Mapping[str, Sequence[str]],
    replaced_at: datetime | None,
) -> None:
    """Add systems, or replace one's lines if they changed and ``replaced_at`` is given.

    A replaced output is kept in ``output_versions`` (replaced at ``replaced_at``)
    and the imported scores and error spans of its old lines are dropped. A system whose lines
    are saved already is not compressed or written again.

    Raises:
        OutputChanged: a system's lines changed and ``replaced_at`` is None
            (nothing is written).
    """
    saved = system_digests(conn, set_id)
    payloads = {name: payload(lines) for name, lines in systems.items()}
    digests = {name: digest(data) for name, data in payloads.items()}
    changed = [name for name in systems if saved.get(name) != digests[name]]
    replaced = [name for name in changed if name in saved]
    if replaced and replaced_at is None:
        found = find_testset(conn, set_id)
        raise OutputChanged(replaced, set_id, found[0] if found else set_id)
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
        if replaced_at is not None:  # else refused above
            _keep_earlier_output(conn, set_id, name, replaced_at)
        conn.execute(
            "UPDATE streams SET digest = ?, lines = ? WHERE set_id = ? AND kind = 'system' "
            "AND name = ?",
            (digests[name], blob, set_id, name),
        )
        conn.execute("DELETE FROM seg_score_values WHERE set_id = ? AND system = ?", (set_id, name))
    _drop_empty_metrics(conn, set_id)
    drop_system_spans(conn, set_id, replaced)


def system_digests(conn: sqlite3.Connection, set_id: str) -> dict[str, str]:
    """Return each system's name -> the digest of its current lines."""
    cursor = conn.execute(
        "SELECT name, digest FROM streams WHERE set_id = ? AND kind = 'system'", (set_id,)
    )
    return dict(cursor.fetchall())


def _keep_earlier_output(
    conn: sqlite3.Connection, set_id: str, system: str, replaced_at: datetime
) -> None:
    """Copy a system's current lines into ``output_versions`` as its next earlier version."""
    version = _next_version(conn, set_id, system)
    conn.execute(
        "INSERT INTO output_versions (set_id, system, version, digest, lines, replaced) "
        "SELECT set_id, name, ?, digest, lines, ? FROM streams "
        "WHERE set_id = ? AND kind = 'system' AND name = ?",
        (version, replaced_at.isoformat(), set_id, system),
    )


def _next_version(conn: sqlite3.Connection, set_id: str, system: str) -> int:
    row = conn.execute(
        "SELECT coalesce(max(version) + 1, 1) FROM output_versions WHERE set_id = ? AND system = ?",
        (set_id, system),
    ).fetchone()
    return int(row[0])


def earlier_outputs(conn: sqlite3.Connection, set_id: str) -> list[tuple[str, int, str, datetime]]:
    """Return (system, version, digest, replaced) of the set's earlier outputs, oldest first."""
    cursor = conn.execute(
        "SELECT system, version, digest, replaced FROM output_versions WHERE set_id = ? "
        "ORDER BY system, version",
        (set_id,),
    )
    return [(s, v, d, datetime.fromisoformat(r)) for s, v, d, r in cursor]


def earlier_lines(
    conn: sqlite3.Connection, set_id: str, system: str, output_digest: str
) -> tuple[str, ...] | None:
    """Return the lines of the system's earlier output with ``output_digest``, or None."""
    row = conn.execute(
        "SELECT lines FROM output_versions WHERE set_id = ? AND system = ? AND digest = ? "
        "ORDER BY version DESC LIMIT 1",
        (set_id, system, output_digest),
    ).fetchone()
    return None if row is None else decode_all([row[0]])[0]


def put_seg_scores(conn: sqlite3.Connection, set_id: str, scores: SegmentScores) -> None:
    """Add an imported metric, or update its origin, direction and the systems it scores.

    Rows that would not change are not written (the caller counts changes).
    """
    exists = conn.execute(
        "SELECT 1 FROM seg_scores WHERE set_id = ? AND name = ?", (set_id, scores.name)
    ).fetchone()
    fields = (scores.origin, int(scores.lower_is_better))
    if exists:
        conn.execute(
            "UPDATE seg_scores SET origin = ?, lower_is_better = ? WHERE set_id = ? AND name = ? "
            "AND (origin != ? OR lower_is_better != ?)",
            (*fields, set_id, scores.name, *fields),
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
            "DO UPDATE SET scores = excluded.scores WHERE scores != excluded.scores",
            (set_id, scores.name, system, position, encode_scores(values)),
        )


def clear_seg_score_values(conn: sqlite3.Connection, set_id: str, name: str) -> None:
    """Forget every system's values of the imported metric ``name`` (its row stays)."""
    conn.execute("DELETE FROM seg_score_values WHERE set_id = ? AND metric = ?", (set_id, name))


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
