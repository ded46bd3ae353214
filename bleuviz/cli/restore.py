"""``python -m bleuviz restore ID``: bring a deleted test set back from the workspace's trash.

A deleted test set (the app's "Delete this test set") stays in the trash for
``TRASH_DAYS`` days with its systems, scores and notes; ``bleuviz list --trash``
lists it. Prints the restored set and its link, as ``add`` does.
"""

from __future__ import annotations

import argparse
from typing import Any

from bleuviz.cli.add import print_saved
from bleuviz.cli.options import add_workspace_option


def add_restore_parser(commands: Any) -> argparse.ArgumentParser:
    """Add the restore subcommand."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "restore", help="bring a deleted test set back from the workspace's trash"
    )
    parser.add_argument("id", metavar="ID", help="the test set's id (bleuviz list --trash)")
    add_workspace_option(parser)
    parser.add_argument("--format", "-f", choices=("text", "json"), default="text")
    parser.set_defaults(func=run_restore)
    return parser


def run_restore(args: argparse.Namespace) -> int:
    """Restore the set; print it and its link."""
    from bleuviz.workspace.store import Workspace  # sqlite3, for this command only

    print_saved(Workspace.open(args.workspace).restore(args.id), args.format)
    return 0
