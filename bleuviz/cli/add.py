"""``python -m bleuviz add``: save a test set (or a new system output) in the workspace.

A new test set is read by the same loaders as ``score`` (the same refusals,
exit status 2); ``--set ID`` instead adds plain-text system outputs (one
segment per line), ``--seg-scores`` and ``--mqm`` files to a saved set, which
keeps its id. A system saved under the same name with other lines is refused
unless ``--replace`` (the old lines then stay in the workspace as an earlier
version). ``--mqm`` files' error spans are kept with the set (and their score
as an imported metric); other spans under a saved name (``MQM``) are refused
unless ``--replace``, which replaces the saved spans and their score for every
system. Prints the id and the app's link path, ``/?set=ID``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bleuviz.cli.add_report import add_report_option, save_report
from bleuviz.cli.options import (
    STDIN,
    add_input_options,
    read_stdin,
    read_testset,
    with_seg_scores,
)
from bleuviz.errors import InputError
from bleuviz.io.assemble import build_testset
from bleuviz.io.decode import decode_lines, plural, read_path
from bleuviz.io.plain import system_name_from_filename
from bleuviz.io.testset import TestSet

if TYPE_CHECKING:
    from bleuviz.workspace.base import SavedSet
    from bleuviz.workspace.store import Workspace


def add_add_parser(commands: Any) -> argparse.ArgumentParser:
    """Add the add subcommand."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "add", help="save a test set, or a new system output of a saved one, in the workspace"
    )
    add_input_options(parser)  # its --set ID: add the --hyp outputs to that saved test set
    add_report_option(parser)
    parser.add_argument(
        "--name", help="the test set's name (default: the first reference's file name)"
    )
    parser.add_argument(
        "--replace",
        action="store_true",
        help="replace a saved system whose lines differ (the old lines are kept as an "
        "earlier version), and error spans saved under a --mqm file's name; without it such "
        "an add is refused",
    )
    parser.add_argument("--format", "-f", choices=("text", "json"), default="text")
    parser.set_defaults(func=run_add)
    return parser


def run_add(args: argparse.Namespace) -> int:
    """Save the files; print the test set's id and link path."""
    from bleuviz.workspace.conflicts import OutputChanged, SpansChanged
    from bleuviz.workspace.store import Workspace  # sqlite3, for this command only

    workspace = Workspace.open(args.workspace)
    if args.report is not None:
        print_saved(save_report(args, workspace), args.format)
        return 0
    try:
        if args.set is None:
            testset = with_seg_scores(read_testset(args), args)
            name = args.name or _default_name(args)
            saved = workspace.save_testset(testset, name, replace=args.replace)
        else:
            saved = _add_to_saved(workspace, args)
    except OutputChanged as exc:
        how = "--replace replaces them, keeping the saved lines as an earlier version"
        raise OutputChanged(exc.systems, exc.set_id, exc.set_name, how) from None
    except SpansChanged as exc:
        how = "--replace replaces them and their score for every system"
        raise SpansChanged(exc.name, exc.set_id, exc.origin, how) from None
    print_saved(saved, args.format)
    return 0


def print_saved(saved: SavedSet, output: str) -> None:
    """Print one saved test set and its link, as text or JSON."""
    if output == "json":
        print(json.dumps(saved_dict(saved), indent=2, ensure_ascii=False))
        return
    counts = ", ".join(
        plural(n, unit)
        for n, unit in [
            (saved.n_segments, "segment"),
            (len(saved.systems), "system"),
            (saved.n_refs, "reference"),
        ]
    )
    print(f"saved {saved.id}  {saved.name}  ({counts})")
    print(f"link: {link_path(saved.id)}")


def saved_dict(saved: SavedSet) -> dict[str, Any]:
    """Return the JSON fields of a saved test set."""
    return {
        "id": saved.id,
        "name": saved.name,
        "link": link_path(saved.id),
        "segments": saved.n_segments,
        "systems": list(saved.systems),
        "refs": saved.n_refs,
        "added": saved.added.isoformat(timespec="seconds"),
    } | ({} if saved.deleted is None else {"deleted": saved.deleted.isoformat(timespec="seconds")})


def link_path(set_id: str) -> str:
    """Return the app's path that opens test set ``set_id``."""
    return f"/?set={set_id}"


def _default_name(args: argparse.Namespace) -> str:
    """The first reference's file name, or the first hypothesis's (a table holds both)."""
    first = args.ref[0] if args.ref else args.hyp[0]
    return Path(first).name


def _add_to_saved(workspace: Workspace, args: argparse.Namespace) -> SavedSet:
    """Add the --hyp outputs, --seg-scores and --mqm files to saved set ``--set``; its id stays.

    A system named like one the set has, with other lines, is refused unless
    ``--replace``; ``--name`` renames the set. The set is read and written in
    one transaction (``Workspace.add_to_testset``), so runs at once for other
    systems lose nothing; the --hyp files are read before it takes the lock.

    Raises:
        InputError: --ref/--src/--docids given with --set, nothing to add, a file
            is refused, or its line count differs from the set's.
        UnknownTestSet: no such test set.
    """
    extra = [opt for opt in ("ref", "src", "docids") if getattr(args, opt)]
    if extra:
        raise InputError(f"--set: --{extra[0]} cannot be changed; a saved set keeps its streams")
    if not (args.hyp or args.seg_scores or args.mqm):
        raise InputError(
            "--set: give what to add to the saved test set: --hyp outputs, --seg-scores "
            "or --mqm files"
        )
    workspace.get(args.set)  # an unknown set is named before any file is read
    hyps = _read_outputs(args)

    def change(base: TestSet) -> TestSet:
        systems = dict(base.systems)
        for name, lines in _named_outputs(hyps, args.set, base):
            systems[name] = lines
        testset = TestSet(systems, base.references, base.source, base.doc_ids, base.seg_ids)
        return with_seg_scores(testset, args)

    return workspace.add_to_testset(args.set, change, name=args.name, replace=args.replace)


def _read_outputs(args: argparse.Namespace) -> list[tuple[str, tuple[str, ...]]]:
    """Read each --hyp as plain text (``-``: standard input): (file name, lines)."""
    if args.hyp.count(STDIN) > 1:
        raise InputError("--hyp: standard input (-) can be read only once")
    outputs = []
    for path in args.hyp:
        f = read_path(path, args.max_bytes) if path != STDIN else read_stdin(args.max_bytes)
        outputs.append((f.name, decode_lines(f, args.max_bytes)))
    return outputs


def _named_outputs(
    hyps: list[tuple[str, tuple[str, ...]]], set_id: str, base: TestSet
) -> list[tuple[str, tuple[str, ...]]]:
    """Name each output after its file, checking its line count against the set's."""
    outputs = []
    for file_name, lines in hyps:
        if len(lines) != base.n_segments:
            raise InputError(
                f"{file_name}: {len(lines)} lines, but test set {set_id} has "
                f"{base.n_segments} segments"
            )
        outputs.append((system_name_from_filename(file_name), lines))
    # Names are made unique within the files given, as every loader does.
    named = build_testset(outputs, base.references)
    return list(named.systems.items())
