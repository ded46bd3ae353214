"""A schema-2 workspace, written by bleuviz before error spans, migrates to schema 3 whole.

The file is ``tests/data/workspace_v2/workspace_v2.sql``: the SQL dump of a
workspace the code of commit d86ed46 wrote (``make_v2.py`` there says what it
holds and how it was made).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bleuviz.io.error_spans import HUMAN, ErrorAnnotations, ErrorSpan, SegmentAnnotation
from bleuviz.io.load import load_paths
from bleuviz.workspace import DB_NAME, SCHEMA_VERSION, Workspace
from tests.data import SAMPLE_HYPS, SAMPLE_REFS
from tests.workspace.conftest import assert_same_testset, sample_testset

DUMP = Path(__file__).resolve().parents[1] / "data" / "workspace_v2" / "workspace_v2.sql"
#: Every table of schema 2, with the order its rows are compared in.
V2_TABLES = {
    "testsets": "id",
    "streams": "set_id, kind, name",
    "seg_scores": "set_id, name",
    "seg_score_values": "set_id, metric, system",
    "notes": "set_id, system, segment",
    "note_revisions": "set_id, system, segment, revision",
    "output_versions": "set_id, system, version",
}


def v2_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "v2"
    folder.mkdir()
    conn = sqlite3.connect(folder / DB_NAME)
    conn.executescript(DUMP.read_text())
    conn.close()
    return folder


def table_rows(folder: Path, columns: dict[str, list[str]] | None = None) -> dict[str, list[tuple]]:
    """Each schema-2 table's rows, in schema 2's columns (``columns``: as read before)."""
    conn = sqlite3.connect(folder / DB_NAME)
    out = {}
    for table, order in V2_TABLES.items():
        names = (columns or {}).get(table) or [
            r[1] for r in conn.execute(f"PRAGMA table_info({table})")
        ]
        sql = f"SELECT {', '.join(names)} FROM {table} ORDER BY {order}"
        out[table] = conn.execute(sql).fetchall()
    conn.close()
    return out


def columns_of(folder: Path) -> dict[str, list[str]]:
    conn = sqlite3.connect(folder / DB_NAME)
    out = {t: [r[1] for r in conn.execute(f"PRAGMA table_info({t})")] for t in V2_TABLES}
    conn.close()
    return out


def test_the_fixture_is_schema_2(tmp_path: Path) -> None:
    conn = sqlite3.connect(v2_folder(tmp_path) / DB_NAME)
    assert conn.execute("PRAGMA user_version").fetchone() == (2,)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    conn.close()
    assert tables == set(V2_TABLES)


def test_every_row_of_schema_2_is_kept(tmp_path: Path) -> None:
    folder = v2_folder(tmp_path)
    columns = columns_of(folder)
    before = table_rows(folder)
    Workspace.open(folder)
    conn = sqlite3.connect(folder / DB_NAME)
    assert conn.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,) == (3,)
    new_note_columns = [r[1] for r in conn.execute("PRAGMA table_info(notes)")]
    defaults = conn.execute("SELECT DISTINCT severity, span_start, span_end FROM notes").fetchall()
    conn.close()
    assert table_rows(folder, columns) == before
    assert new_note_columns[-3:] == ["severity", "span_start", "span_end"]
    assert defaults == [("", None, None)]


def test_the_migrated_workspace_reads_and_works_as_before(tmp_path: Path) -> None:
    workspace = Workspace.open(v2_folder(tmp_path))
    (saved,) = workspace.testsets()
    (trashed,) = workspace.trash()
    assert (saved.name, trashed.name) == ("sample", "to the trash")
    assert saved.revision == trashed.revision == 0  # no save counted before schema 3
    testset = sample_testset()
    got = workspace.load(saved.id)
    assert got.systems["terse"] == tuple(line + " (v2)" for line in testset.systems["terse"])
    assert workspace.earlier_lines(saved.id, "terse", 1) == testset.systems["terse"]
    assert [s.name for s in got.seg_scores] == [s.name for s in testset.seg_scores]
    assert all("terse" not in s.values for s in got.seg_scores)  # dropped with the old lines
    assert got.error_spans == ()
    history = workspace.note_history(saved.id, "literal", 0)
    assert [(n.text, n.category, n.author, n.severity, n.span) for n in history] == [
        ("first", "omission", "ann", "", None),
        ("second", "style", "bob", "", None),
        ("third\tline\nend", "other", "ann", "", None),
    ]
    assert [n.deleted for n in workspace.note_history(saved.id, "repeat", 2)] == [False, True]
    (on_old,) = [n for n in workspace.notes(saved.id) if n.system == "terse"]
    assert on_old.on_earlier_output
    assert workspace.note_written_on(on_old) == testset.systems["terse"][1]
    # What schema 3 adds works on the migrated file, and the trash still restores.
    note = workspace.save_note(
        saved.id, "literal", 0, "fourth", "omission", severity="minor", span=(0, 3),
        expected_revision=3,
    )  # fmt: skip
    assert workspace.note(saved.id, "literal", 0) == note
    spans = ErrorAnnotations(
        "MQM", "m.tsv", HUMAN,
        {"literal": (SegmentAnnotation(("r",), (ErrorSpan(0, 2, "major", "Other", "r"),)),)
         + (None,) * (got.n_segments - 1)},
    )  # fmt: skip
    workspace.save_testset(got.with_error_spans((spans,)), "sample")
    assert workspace.load(saved.id).error_spans[0].segments == spans.segments
    restored = workspace.restore(trashed.id)
    assert_same_testset(workspace.load(restored.id), load_paths(SAMPLE_HYPS[:2], SAMPLE_REFS[:1]))


def test_a_read_only_schema_2_workspace_is_read_from_a_migrated_copy(tmp_path: Path) -> None:
    folder = v2_folder(tmp_path)
    before = (folder / DB_NAME).read_bytes()
    workspace = Workspace.open(folder, read_only=True)
    (saved,) = workspace.testsets()
    assert workspace.load(saved.id).error_spans == ()
    assert len(workspace.note_history(saved.id, "literal", 0)) == 3
    assert (folder / DB_NAME).read_bytes() == before
