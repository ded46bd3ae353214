"""The app's own arguments: what follows ``--`` on the streamlit command line, parsed once.

``streamlit run app.py -- --ref R1 [R2 ...] --hyp H1 [H2 ...] [--src S] [--docids D]
[--seg-scores F ...] [--mqm F ...] [--mqm-weights W] [--lower-is-better NAME ...]
[--workspace DIR]``. The sidebar
and the workspace read their parts; the command line does not change while a
server runs, so it is parsed once per server, not on every script run.

A mistake (``--source`` for ``--src``, ``--ref`` without ``--hyp``, a stray
file name) is not ignored: every page says what is wrong, and the app opens
what the rest of the arguments name. Arguments are only checked when the
script runs as ``app.py`` or ``serve.py`` (``streamlit run`` sets ``sys.argv[0]``);
embedded in another program (a test runner), ``sys.argv`` is that program's.
"""

from __future__ import annotations

import argparse
import functools
import sys
from dataclasses import dataclass
from pathlib import Path

from bleuviz.cli.app import APP_OPTIONS, add_app_arguments
from bleuviz.errors import ConfigError
from bleuviz.io.load import holds_references
from bleuviz.io.mqm_score import DEFAULT_WEIGHTS_SPEC, parse_weights

#: The scripts ``streamlit run`` is given (the app, or the server that wraps it): their
#: arguments are this app's.
SCRIPTS = ("app.py", "serve.py")


@dataclass(frozen=True, slots=True)
class AppArgs:
    """The arguments after ``--`` (empty where not given).

    ``seg_scores`` holds the ``--seg-scores`` files, then the ``--mqm`` files: the
    app reads each by its layout (``bleuviz.io.error_span_files.attach_score_files``),
    so error spans and their scores load wherever segment scores do.
    """

    ref: tuple[str, ...]
    hyp: tuple[str, ...]
    src: str | None
    docids: str | None
    seg_scores: tuple[str, ...]
    lower_is_better: tuple[str, ...]
    workspace: str | None
    problem: str | None = None  # what is wrong with the arguments, in one line
    mqm_weights: str = DEFAULT_WEIGHTS_SPEC  # --mqm-weights, checked (else the default)


def app_args() -> AppArgs:
    """This server's arguments after ``--``."""
    return parse_argv(tuple(sys.argv))


@functools.cache
def parse_argv(argv: tuple[str, ...]) -> AppArgs:
    """Parse ``argv`` (the script, then its arguments; cached on them)."""
    parser = argparse.ArgumentParser(prog=SCRIPTS[0], add_help=False, exit_on_error=False)
    add_app_arguments(parser)
    ours = bool(argv) and Path(argv[0]).name in SCRIPTS
    try:
        args, unknown = parser.parse_known_args(argv[1:])
    except argparse.ArgumentError as exc:
        failed = f"app arguments after --: {exc}; no file on the command line was opened"
        return _empty(failed if ours else None)
    problem = _problem(args, unknown) if ours else None
    weights, weights_problem = _weights(args.mqm_weights)
    return AppArgs(
        tuple(args.ref),
        tuple(args.hyp),
        args.src,
        args.docids,
        (*args.seg_scores, *args.mqm),
        tuple(args.lower_is_better),
        str(args.workspace) if args.workspace else None,
        problem or (weights_problem if ours else None),
        weights,
    )


def _weights(spec: str | None) -> tuple[str, str | None]:
    """Return the MQM weights to use and what is wrong with ``--mqm-weights``, if anything.

    Malformed weights are not used: the app weighs with the defaults and says why.
    """
    if spec is None:
        return DEFAULT_WEIGHTS_SPEC, None
    try:
        return parse_weights(spec).spec, None
    except ConfigError as exc:
        return DEFAULT_WEIGHTS_SPEC, f"app arguments after --: {exc}; MQM uses the default weights"


def _problem(args: argparse.Namespace, unknown: list[str]) -> str | None:
    """Say in one line what is wrong with parsed arguments, or None."""
    if unknown:
        return (
            f"app arguments after --: {' '.join(unknown)} not understood "
            f"(the app reads {', '.join(APP_OPTIONS)}); it opened what the others name"
        )
    if bool(args.ref) != bool(args.hyp) and not (args.hyp and holds_references(args.hyp)):
        given, missing = ("--ref", "--hyp") if args.ref else ("--hyp", "--ref")
        return f"app arguments after --: {given} without {missing}; both are needed to open files"
    return None


def _empty(problem: str | None) -> AppArgs:
    """No files, no settings: what the app runs with when the arguments cannot be parsed."""
    return AppArgs((), (), None, None, (), (), None, problem)
