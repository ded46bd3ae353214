"""``python -m bleuviz restore ID``: bring a deleted test set back, or an earlier output.

A deleted test set (the app's "Delete this test set") stays in the trash for
``TRASH_DAYS`` days with its systems, scores and notes; ``bleuviz list --trash``
lists it. ``--system NAME --version N`` instead makes an output replaced by
``add --replace`` current again (``bleuviz list -f json`` lists the earlier
outputs); the one it replaces is kept in turn. Prints the set and its link,
as ``add`` does.
"""

from __future__ import annotations

import argparse
from typing import Any

from bleuviz.cli.add import print_saved
from bleuviz.cli.options import add_workspace_option, saved_workspace
from bleuviz.errors import InputError


def add_restore_parser(commands: Any) -> argparse.ArgumentParser:
    """Add the restore subcommand."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "restore", help="bring a deleted test set back from the workspace's trash"
    )
    parser.add_argument("id", metavar="ID", help="the test set's id (bleuviz list --trash)")
    parser.add_argument("--system", metavar="NAME", help="restore this system's earlier output")
    parser.add_argument(
        "--version", type=int, metavar="N", help="which earlier output of --system (1: the oldest)"
    )
    add_workspace_option(parser)
    parser.add_argument("--format", "-f", choices=("text", "json"), default="text")
    parser.set_defaults(func=run_restore)
    return parser


def run_restore(args: argparse.Namespace) -> int:
    """Restore the set, or one of its earlier outputs; print it and its link."""
    if (args.system is None) != (args.version is None):
        raise InputError("--system and --version: give both to restore an earlier output")
    workspace = saved_workspace(args.workspace)
    if args.system is None:
        saved = workspace.restore(args.id)
    else:
        saved = workspace.restore_output(args.id, args.system, args.version)
    print_saved(saved, args.format)
    return 0
