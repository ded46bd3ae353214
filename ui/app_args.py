"""The app's own arguments: what follows ``--`` on the streamlit command line, parsed once.

``streamlit run app.py -- --ref R1 [R2 ...] --hyp H1 [H2 ...] [--src S] [--docids D]
[--seg-scores F ...] [--lower-is-better NAME ...] [--workspace DIR]``. The sidebar
and the workspace read their parts; the command line does not change while a
server runs, so it is parsed once per server, not on every script run.
"""

from __future__ import annotations

import argparse
import functools
import sys
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class AppArgs:
    """The arguments after ``--`` (empty where not given)."""

    ref: tuple[str, ...]
    hyp: tuple[str, ...]
    src: str | None
    docids: str | None
    seg_scores: tuple[str, ...]
    lower_is_better: tuple[str, ...]
    workspace: str | None


def app_args() -> AppArgs:
    """This server's arguments after ``--``."""
    return _parse(tuple(sys.argv[1:]))


@functools.cache
def _parse(argv: tuple[str, ...]) -> AppArgs:
    """Parse ``argv``, ignoring what is not the app's (cached on the arguments)."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--ref", nargs="+", default=[])
    parser.add_argument("--hyp", nargs="+", default=[])
    parser.add_argument("--src")
    parser.add_argument("--docids")
    parser.add_argument("--seg-scores", nargs="+", default=[])
    parser.add_argument("--lower-is-better", nargs="+", default=[])
    parser.add_argument("--workspace")
    args, _ = parser.parse_known_args(argv)
    return AppArgs(
        tuple(args.ref),
        tuple(args.hyp),
        args.src,
        args.docids,
        tuple(args.seg_scores),
        tuple(args.lower_is_better),
        str(args.workspace) if args.workspace else None,
    )
