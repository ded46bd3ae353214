"""``python -m bleuviz notes --set ID``: a saved test set's notes as TSV, as the app exports them.

``--revisions`` writes every revision of every note (who, when, what;
deletions included) instead of the current notes. Reads only: it works on a
read-only workspace.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from bleuviz.cli.options import add_workspace_option


def add_notes_parser(commands: Any) -> argparse.ArgumentParser:
    """Add the notes subcommand."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "notes", help="print a saved test set's notes as TSV"
    )
    parser.add_argument("--set", required=True, metavar="ID", help="the saved test set's id")
    parser.add_argument(
        "--revisions", action="store_true", help="every revision of every note, deletions too"
    )
    add_workspace_option(parser)
    parser.set_defaults(func=run_notes)
    return parser


def run_notes(args: argparse.Namespace) -> int:
    """Print the notes' TSV."""
    from bleuviz.workspace.store import Workspace  # sqlite3, for this command only

    workspace = Workspace.open(args.workspace)
    sys.stdout.write(workspace.notes_tsv(args.set, revisions=args.revisions))
    return 0
