"""``python -m bleuviz``: the parser of every subcommand, and the one place errors are printed.

Bad input or bad arguments print one line on stderr and exit with status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from bleuviz.cli.add import add_add_parser
from bleuviz.cli.compare import add_compare_parser
from bleuviz.cli.correlate import add_correlate_parser
from bleuviz.cli.listing import add_list_parser
from bleuviz.cli.options import OneLineParser
from bleuviz.cli.rouge import add_rouge_parser
from bleuviz.cli.score import add_score_parser
from bleuviz.errors import BleuvizError


def build_parser() -> argparse.ArgumentParser:
    """Return the parser with its subcommands."""
    parser = OneLineParser(prog="python -m bleuviz", description="Look inside BLEU scores.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)
    add_score_parser(commands)
    add_compare_parser(commands)
    add_rouge_parser(commands)
    add_correlate_parser(commands)
    add_add_parser(commands)
    add_list_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.func(args)
    except BleuvizError as exc:
        print(f"bleuviz: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    return status
