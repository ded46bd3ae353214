"""``python -m bleuviz notes --set ID``: a saved test set's notes as TSV, as the app exports them.

``--revisions`` writes every revision of every note (who, when, what;
deletions included) instead of the current notes. ``--format json`` writes
the same records as JSON (``{"set": ..., "notes": [...]}``, the TSV's columns as
keys; see ``bleuviz.workspace.note_json``). ``--format mqm`` writes
them as Google's MQM TSV instead (rater: the note's author, ``bleuviz`` if
anonymous; the marked words between ``<v>`` and ``</v>``; see
``Workspace.notes_mqm``), which ``--mqm`` reads back; notes written on an
output since replaced are left out, and stderr says how many. Reads only: it
works on a read-only workspace.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from bleuviz.cli.options import add_workspace_option, saved_workspace
from bleuviz.errors import InputError
from bleuviz.io.decode import plural
from bleuviz.render.json_stream import dumps

#: ``--format`` values: the notes' own TSV, the same as JSON, or Google's MQM TSV.
FORMATS = ("tsv", "json", "mqm")


def add_notes_parser(commands: Any) -> argparse.ArgumentParser:
    """Add the notes subcommand."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "notes", help="print a saved test set's notes as TSV, or as Google's MQM TSV"
    )
    parser.add_argument("--set", required=True, metavar="ID", help="the saved test set's id")
    parser.add_argument(
        "--revisions", action="store_true", help="every revision of every note, deletions too"
    )
    parser.add_argument(
        "--format",
        "-f",
        choices=FORMATS,
        default="tsv",
        help="tsv: every field of the notes; json: the same fields as JSON; mqm: Google's "
        "MQM TSV of the current notes, rated by each note's author, which --mqm reads back "
        "(default: %(default)s)",
    )
    add_workspace_option(parser)
    parser.set_defaults(func=run_notes)
    return parser


def run_notes(args: argparse.Namespace) -> int:
    """Print the notes' TSV (or MQM TSV)."""
    workspace = saved_workspace(args.workspace)
    if args.format == "tsv":
        sys.stdout.write(workspace.notes_tsv(args.set, revisions=args.revisions))
        return 0
    if args.format == "json":
        records = workspace.notes_json(args.set, revisions=args.revisions)
        document = {"set": args.set, "revisions": args.revisions, "notes": records}
        print(dumps(document))
        return 0
    if args.revisions:
        raise InputError("--revisions: the MQM TSV holds the current notes only (-f tsv)")
    table, left_out = workspace.notes_mqm(args.set)
    sys.stdout.write(table)
    if left_out:
        print(
            f"bleuviz: note: {plural(len(left_out), 'note')} written on an output since "
            "replaced left out (their words no longer match the line)",
            file=sys.stderr,
        )
    return 0
