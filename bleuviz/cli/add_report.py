"""``bleuviz add --report FILE.html``: save the test set a report holds, with its notes.

The report's texts, imported scores (exact), error spans and notes are saved
in the workspace (``bleuviz.report.saving``, which the app's sidebar calls too),
so that the saved set's scores equal the report's. A report holding a sample of
its segments cannot be reopened whole and is refused.

``add`` calls this module (``add_report_option`` adds the option to its
parser, ``save_report`` runs it); this module never imports ``add``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from bleuviz.errors import InputError
from bleuviz.io.decode import plural, read_path

if TYPE_CHECKING:
    from bleuviz.workspace.base import SavedSet
    from bleuviz.workspace.store import Workspace

#: Options that name files of a test set or say how to read them: a report holds its own.
_FILES = (
    "ref", "hyp", "src", "docids", "seg_scores", "mqm", "mqm_weights", "lower_is_better",
    "higher_is_better", "set",
)  # fmt: skip


def add_report_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--report FILE.html`` to ``add``'s parser."""
    parser.add_argument(
        "--report",
        metavar="FILE.html",
        help="a report written by bleuviz report: save the test set it holds (texts, "
        "imported scores, error spans, notes) instead of files",
    )


def save_report(args: argparse.Namespace, workspace: Workspace) -> SavedSet:
    """Save the test set and notes of ``--report`` in ``workspace``; return the saved set.

    Raises:
        InputError: files given beside it, the file refused (size, encoding), not a
            report, a malformed one, or one holding a sample of its segments.
    """
    from bleuviz.report.saving import save_report as save

    given = [opt for opt in _FILES if getattr(args, opt, None)]
    if given:
        option = "--" + given[0].replace("_", "-")
        raise InputError(f"--report: {option} cannot be given with a report (it holds its files)")
    f = read_path(args.report, args.max_bytes)
    name = args.name or Path(args.report).name
    done = save(workspace, f, name, replace=args.replace)
    if done.earlier:
        print(
            f"bleuviz: note: {plural(done.earlier, 'note')} written on an output since "
            "replaced left out (the report shows the current lines)",
            file=sys.stderr,
        )
    return done.saved
