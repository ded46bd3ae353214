"""``python -m bleuviz``: the parser of every subcommand, and the one place errors are printed.

Bad input or bad arguments print one line on stderr and exit with status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib import import_module

from bleuviz.cli.options import OneLineParser
from bleuviz.errors import BleuvizError

#: Each subcommand, in the order ``--help`` lists them: the module and the function
#: adding its parser. Only the module of the command run is imported: a small
#: ``score -m chrf`` is mostly start-up, and the others' imports (significance,
#: correlations, LaTeX) would add a tenth to it.
COMMANDS = {
    "score": ("bleuviz.cli.score", "add_score_parser"),
    "compare": ("bleuviz.cli.compare", "add_compare_parser"),
    "rouge": ("bleuviz.cli.rouge", "add_rouge_parser"),
    "correlate": ("bleuviz.cli.correlate", "add_correlate_parser"),
    "add": ("bleuviz.cli.add", "add_add_parser"),
    "list": ("bleuviz.cli.listing", "add_list_parser"),
}


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """Return the parser of the subcommand ``argv`` names, or of every subcommand.

    The top-level parser has no option but ``--help``, so a known command is
    ``argv``'s first word; without one (``--help``, a typo) every command is
    added, so the help and the "invalid choice" error list them all.
    """
    parser = OneLineParser(prog="python -m bleuviz", description="Look inside BLEU scores.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)
    first = argv[0] if argv else None
    for name in [first] if first in COMMANDS else COMMANDS:
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
