"""The SQL of error spans kept with a test set (tables ``error_spans``, ``error_span_values``).

Each function takes a connection inside the caller's transaction and never
commits (see ``bleuviz.workspace.rows``). Two different judgements never mix
under one name: spans that disagree with the saved ones on a system both hold
are refused unless the user asks to replace, which replaces the saved ones
whole, like an imported metric the user replaced. Spans that agree on every
system both hold (the same file, read with more or fewer systems loaded) add
the systems they have beyond the saved ones and keep the others.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection

from bleuviz.io.error_spans import ErrorAnnotations
from bleuviz.workspace.codec import compress_all, decompress
from bleuviz.workspace.conflicts import SpansChanged
from bleuviz.workspace.span_codec import spans_of, spans_payload


def put_error_spans(
    conn: sqlite3.Connection, set_id: str, annotations: ErrorAnnotations, replace: bool
) -> None:
    """Save ``annotations`` under its name; a repeat is a no-op.

    ``replace``: the saved annotation of that name is dropped for every system
    and ``annotations`` saved instead (the user chose this file over it). Else
    the same name saved with other spans for a system both hold (or another
    kind) is a change, refused; one that agrees on every system both hold and
    adds systems (the same file read for a set that gained a system) adds
    them, taking the new file's origin and skipped systems.

    Raises:
        SpansChanged: a change and ``replace`` is False (nothing is written).
    """
    payloads = {s: spans_payload(segs) for s, segs in annotations.segments.items()}
    saved = _saved_payloads(conn, set_id, annotations.name)
    if saved is not None and replace:
        conn.execute(
            "DELETE FROM error_spans WHERE set_id = ? AND name = ?", (set_id, annotations.name)
        )
        saved = None
    if saved is not None:
        kind, by_system = saved
        if kind != annotations.kind or any(
            by_system[s] != payloads[s] for s in payloads.keys() & by_system.keys()
        ):
            raise SpansChanged(annotations.name, set_id, annotations.origin)
    _put_row(conn, set_id, annotations, exists=saved is not None)
    known = set() if saved is None else set(saved[1])
    new = [s for s in payloads if s not in known]
    position = _next_value_position(conn, set_id, annotations.name)
    for k, (system, blob) in enumerate(
        zip(new, compress_all([payloads[s] for s in new]), strict=True)
    ):
        conn.execute(
            "INSERT INTO error_span_values (set_id, annotation, system, position, segments) "
            "VALUES (?, ?, ?, ?, ?)",
            (set_id, annotations.name, system, position + k, blob),
        )


def _put_row(
    conn: sqlite3.Connection, set_id: str, annotations: ErrorAnnotations, exists: bool
) -> None:
    """Insert the annotation's row, or update its origin and skipped systems."""
    skipped = json.dumps(list(annotations.skipped), ensure_ascii=False)
    if exists:
        conn.execute(
            "UPDATE error_spans SET origin = ?, skipped = ? WHERE set_id = ? AND name = ? "
            "AND (origin != ? OR skipped != ?)",
            (annotations.origin, skipped, set_id, annotations.name, annotations.origin, skipped),
        )
        return
    position = conn.execute(
        "SELECT coalesce(max(position) + 1, 0) FROM error_spans WHERE set_id = ?", (set_id,)
    ).fetchone()[0]
    conn.execute(
        "INSERT INTO error_spans (set_id, name, origin, kind, skipped, position) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (set_id, annotations.name, annotations.origin, annotations.kind, skipped, position),
    )


def _saved_payloads(
    conn: sqlite3.Connection, set_id: str, name: str
) -> tuple[str, dict[str, bytes]] | None:
    """Return the saved annotation's kind and each system's payload, or None if none."""
    row = conn.execute(
        "SELECT kind FROM error_spans WHERE set_id = ? AND name = ?", (set_id, name)
    ).fetchone()
    if row is None:
        return None
    cursor = conn.execute(
        "SELECT system, segments FROM error_span_values WHERE set_id = ? AND annotation = ?",
        (set_id, name),
    )
    return str(row[0]), {system: decompress(blob) for system, blob in cursor}


def _next_value_position(conn: sqlite3.Connection, set_id: str, name: str) -> int:
    row = conn.execute(
        "SELECT coalesce(max(position) + 1, 0) FROM error_span_values "
        "WHERE set_id = ? AND annotation = ?",
        (set_id, name),
    ).fetchone()
    return int(row[0])


def drop_system_spans(conn: sqlite3.Connection, set_id: str, systems: Collection[str]) -> None:
    """Forget the spans marked on ``systems``' lines (replaced: the offsets no longer fit).

    An annotation left without any system is deleted.
    """
    for system in systems:
        conn.execute(
            "DELETE FROM error_span_values WHERE set_id = ? AND system = ?", (set_id, system)
        )
    conn.execute(
        "DELETE FROM error_spans WHERE set_id = ? AND NOT EXISTS (SELECT 1 FROM "
        "error_span_values AS v WHERE v.set_id = error_spans.set_id "
        "AND v.annotation = error_spans.name)",
        (set_id,),
    )


def error_span_names(conn: sqlite3.Connection, set_id: str) -> tuple[str, ...]:
    """Return the names of the set's annotations, in import order."""
    cursor = conn.execute(
        "SELECT name FROM error_spans WHERE set_id = ? ORDER BY position", (set_id,)
    )
    return tuple(r[0] for r in cursor)


def error_spans(conn: sqlite3.Connection, set_id: str) -> tuple[ErrorAnnotations, ...]:
    """Return the set's annotations in import order, each system's segments in order."""
    found = conn.execute(
        "SELECT name, origin, kind, skipped FROM error_spans WHERE set_id = ? ORDER BY position",
        (set_id,),
    ).fetchall()
    out = []
    for name, origin, kind, skipped in found:
        cursor = conn.execute(
            "SELECT system, segments FROM error_span_values WHERE set_id = ? AND annotation = ? "
            "ORDER BY position",
            (set_id, name),
        ).fetchall()
        segments = {system: spans_of(decompress(blob)) for system, blob in cursor}
        out.append(ErrorAnnotations(name, origin, kind, segments, tuple(json.loads(skipped))))
    return tuple(out)
