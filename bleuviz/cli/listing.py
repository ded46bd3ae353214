"""``python -m bleuviz list``: the test sets saved in the workspace, newest first.

``--trash`` lists the deleted ones instead (restorable with ``bleuviz restore ID``
for ``TRASH_DAYS`` days), with when each was deleted. The JSON also lists each
set's earlier outputs (replaced by ``add --replace``; ``bleuviz restore ID
--system NAME --version N`` brings one back). Reads only: it works on a
read-only workspace.
"""

from __future__ import annotations

import argparse
import json
from datetime import datetime
from typing import Any

from bleuviz.cli.add import saved_dict
from bleuviz.cli.options import add_workspace_option

#: The text table's columns.
COLUMNS = ("id", "name", "segments", "systems", "refs", "added")


def add_list_parser(commands: Any) -> argparse.ArgumentParser:
    """Add the list subcommand."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "list", help="list the test sets saved in the workspace"
    )
    add_workspace_option(parser)
    parser.add_argument(
        "--trash",
        action="store_true",
        help="list the deleted test sets (restorable with bleuviz restore ID) instead",
    )
    parser.add_argument("--format", "-f", choices=("text", "json"), default="text")
    parser.set_defaults(func=run_list)
    return parser


def run_list(args: argparse.Namespace) -> int:
    """Print id, name, segments, systems, refs and time added of every saved test set."""
    from bleuviz.workspace.store import Workspace  # sqlite3, for this command only

    workspace = Workspace.open(args.workspace)
    listed = workspace.trash() if args.trash else workspace.testsets()
    saved = [saved_dict(s) for s in listed]
    if args.format == "json":
        for entry in saved:
            entry["earlier_outputs"] = [
                {"system": e.system, "version": e.version, "replaced": _when(e.replaced)}
                for e in workspace.earlier_outputs(entry["id"], trashed=args.trash)
            ]
        out = {"workspace": str(workspace.folder), "trash" if args.trash else "testsets": saved}
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    if not saved:
        where = "the trash of workspace" if args.trash else "workspace"
        print(f"no test sets in {where} {workspace.folder}")
        return 0
    columns = (*COLUMNS, "deleted") if args.trash else COLUMNS
    rows = [columns] + [
        (s["id"], s["name"], str(s["segments"]), str(len(s["systems"])), str(s["refs"]), s["added"])
        + ((s["deleted"],) if args.trash else ())
        for s in saved
    ]
    widths = [max(len(row[k]) for row in rows) for k in range(len(columns))]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    return 0


def _when(moment: datetime) -> str:
    """A time in UTC as the listing shows it (ISO 8601, seconds)."""
    return moment.isoformat(timespec="seconds")
