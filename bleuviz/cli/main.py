"""``bleuviz`` (or ``python -m bleuviz``): every subcommand's parser; errors are printed here.

Bad input or bad arguments print one line on stderr and exit with status 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from importlib import import_module

from bleuviz import __version__
from bleuviz.cli.options import OneLineParser
from bleuviz.errors import BleuvizError
from bleuviz.heap import keep_freed_memory

#: Each subcommand, in the order ``--help`` lists them: the module and the function
#: adding its parser. Only the module of the command run is imported: a small
#: ``score -m chrf`` is mostly start-up, and the others' imports (significance,
#: correlations, LaTeX) would add a tenth to it.
COMMANDS = {
    "score": ("bleuviz.cli.score", "add_score_parser"),
    "compare": ("bleuviz.cli.compare", "add_compare_parser"),
    "rouge": ("bleuviz.cli.rouge", "add_rouge_parser"),
    "correlate": ("bleuviz.cli.correlate", "add_correlate_parser"),
    "spans": ("bleuviz.cli.spans", "add_spans_parser"),
    "report": ("bleuviz.cli.report", "add_report_parser"),
    "add": ("bleuviz.cli.add", "add_add_parser"),
    "list": ("bleuviz.cli.listing", "add_list_parser"),
    "restore": ("bleuviz.cli.restore", "add_restore_parser"),
    "notes": ("bleuviz.cli.notes", "add_notes_parser"),
    "app": ("bleuviz.cli.app", "add_app_parser"),
}


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """Return the parser of the subcommand ``argv`` names, or of every subcommand.

    The top-level parser has no option but ``--help`` and ``--version``, so a
    known command is ``argv``'s first word; ``--version`` needs no command;
    without one (``--help``, a typo) every command is added, so the help and the
    "invalid choice" error list them all.
    """
    parser = OneLineParser(prog="bleuviz", description="Look inside BLEU scores.")
    parser.add_argument("--version", action="version", version=f"bleuviz {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)
    first = argv[0] if argv else None
    names = [first] if first in COMMANDS else [] if first == "--version" else list(COMMANDS)
    for name in names:
        module, adder = COMMANDS[name]
        getattr(import_module(module), adder)(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    try:
        status: int = args.func(args)
    except BleuvizError as exc:
        print(f"bleuviz: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    return status


def run() -> None:
    """Run the command line and leave with its status (the ``bleuviz`` command).

    It leaves without the interpreter's teardown, which frees every module and
    array one by one (about 10 ms of a small command once numpy is loaded): the
    output is flushed here, and the commands close their files, databases and
    worker pools before ``main`` returns (each in a with-block).
    """
    keep_freed_memory()  # a command counts chunk after chunk (bleuviz.heap)
    status = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:  # the reader left early (``| head``): nothing more to say
        pass
    os._exit(status)
