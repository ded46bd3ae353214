"""Write ``workspace_v2.sql``: a schema-2 workspace, as bleuviz wrote it before schema 3.

Run once at commit d86ed46 (the last commit writing schema 2), from the repository's
root: ``python3 tests/data/workspace_v2/make_v2.py``. Its output is kept as SQL text
(``sqlite3``'s ``iterdump``), so the migration test reads a file the earlier code
really wrote; running this script with a later bleuviz writes that bleuviz's schema.

What it holds: the bundled sample with its three imported metrics, saved as
"sample"; a note with three revisions by two authors, a deleted note, a note on
an output since replaced (``terse``, whose first output is an earlier version);
and a second set (the sample without ``repeat``, one reference) in the trash.
"""

from __future__ import annotations

import sqlite3
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from bleuviz.io.load import load_paths
from bleuviz.workspace import DB_NAME, SCHEMA_VERSION, Workspace
from tests.data import SAMPLE_HYPS, SAMPLE_REFS
from tests.workspace.conftest import sample_testset

OUT = Path(__file__).resolve().parent / "workspace_v2.sql"


def main() -> None:
    assert SCHEMA_VERSION == 2, "run at the last commit writing schema 2"
    with tempfile.TemporaryDirectory() as folder:
        workspace = Workspace.open(folder)
        testset = sample_testset()
        set_id = workspace.save_testset(testset, "sample").id
        workspace.save_note(set_id, "literal", 0, "first", "omission", author="ann")
        workspace.save_note(set_id, "literal", 0, "second", "style", author="bob")
        workspace.save_note(set_id, "literal", 0, "third\tline\nend", "other", author="ann")
        workspace.save_note(set_id, "repeat", 2, "gone soon", "addition", author="bob")
        workspace.delete_note(set_id, "repeat", 2, author="ann")
        workspace.save_note(set_id, "terse", 1, "on the old output", "terminology")
        lines = [line + " (v2)" for line in testset.systems["terse"]]
        workspace.add_system(set_id, "terse", lines, replace=True)
        trashed = load_paths(SAMPLE_HYPS[:2], SAMPLE_REFS[:1])
        trash_id = workspace.save_testset(trashed, "to the trash").id
        workspace.delete(trash_id)
        conn = sqlite3.connect(Path(folder) / DB_NAME)
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        dump = "\n".join(conn.iterdump())
        conn.close()
    OUT.write_text(f"-- schema version {version}\n{dump}\nPRAGMA user_version = {version};\n")


if __name__ == "__main__":
    main()
