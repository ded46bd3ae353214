"""``python -m bleuviz spans``: what BLEU sees of human errors, per system and for all.

Reads the test set and its error spans (``--mqm FILE...``, or a saved ``--set``)
as ``score`` does, with the same tokenizer, lowercasing and order options, and
prints :func:`bleuviz.analysis.error_tokens.what_bleu_sees`: per order, how many
tokens inside error spans and outside them BLEU flags, by severity and category,
and the MPP agreement of the runs of flagged tokens with the spans.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Sequence
from typing import Any

from bleuviz.analysis.error_categories import TOP_CATEGORIES
from bleuviz.analysis.error_tokens import (
    ErrorTokenAnalysis,
    ErrorTokenReport,
    OrderCounts,
    shown_categories,
    what_bleu_sees,
)
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.cli.options import (
    add_bleu_options,
    add_input_options,
    add_jobs_option,
    bleu_config,
    load_testset,
)
from bleuviz.errors import InputError
from bleuviz.io.error_spans import HUMAN, UNDECIDED, ErrorAnnotations
from bleuviz.io.testset import TestSet
from bleuviz.jobs import job_count
from bleuviz.render.json_stream import dumps

_EPILOG = """\
Definitions. A hypothesis token (BLEU's tokenizer, placed in the line's
characters) is an error token if it overlaps a target-side span (not on the
source, not an omission) of severity major or minor (or critical); otherwise
an other token, unless it lies under an ESA span of severity undecided: those
are counted apart, as their own group, neither error nor other tokens. A
token is flagged at order n if no matched n-gram of order n covers it (an
n-gram's first min(hypothesis count, clip count) occurrences are matched, as in
the app's highlight). BLEU sees errors when error tokens are flagged more often
than other tokens: the table shows both shares and their difference in points,
by severity and by top-level category (Accuracy, Fluency, Terminology, Style,
Locale convention, Other; Non-translation! counts as Accuracy, unknown
categories as Other; a category without error tokens in the file is left
out, and all of them when no span names one, as ESA's). Several raters: a
token is an error token if any rater marked it (--rater keeps one rater's
spans and segments). Span agreement: the runs of flagged tokens against the
union of the error spans, MPP micro-averaged (partial overlap, partial credit;
Perrella et al., 2026). Segments whose tokens cannot be placed in the line are
counted as unaligned, listed, and left out."""


def add_spans_parser(commands: Any) -> argparse.ArgumentParser:
    """Add the spans subcommand."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "spans",
        help="what BLEU sees of human error spans (MQM, ESA), per system",
        description="Compare BLEU's flagged tokens with error spans marked by people "
        "(or by a metric), per system and for all.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_input_options(parser)
    add_bleu_options(parser)
    add_jobs_option(parser)
    parser.add_argument(
        "--annotations",
        metavar="NAME",
        help="which error spans, when several files are given (default: the first people's)",
    )
    parser.add_argument("--rater", metavar="NAME", help="count only this rater's spans")
    parser.set_defaults(func=run_spans)
    return parser


def run_spans(args: argparse.Namespace) -> int:
    """Print the analysis as a table or JSON."""
    config = bleu_config(args)
    workers = job_count(args.jobs, os.environ)
    testset, _ = load_testset(args)
    annotations = _chosen(testset, args.annotations)
    if args.rater is not None:
        _check_rater(annotations, args.rater)
    tokenize = TokenizeConfig(args.tokenize, args.lowercase)
    analysis = what_bleu_sees(testset, annotations, tokenize, config, args.rater, workers)
    categories = shown_categories(analysis, annotations)
    if args.format == "json":
        print(dumps(analysis_dict(analysis, categories)))
    elif args.format == "latex":
        print(latex_report(analysis, tokenize, categories))
    else:
        print("\n".join(text_report(analysis, tokenize, categories)))
    if analysis.not_annotated:
        names = ", ".join(analysis.not_annotated)
        print(
            f"bleuviz: note: {annotations.name} annotates no segment of: {names}", file=sys.stderr
        )
    return 0


def _chosen(testset: TestSet, name: str | None) -> ErrorAnnotations:
    """Return the error spans ``--annotations`` names, else the first people's, else the first.

    Raises:
        InputError: no error spans are loaded, or none has that name.
    """
    loaded = testset.error_spans
    if not loaded:
        raise InputError("spans: no error spans loaded; give --mqm FILE (MQM TSV, ESA, ...)")
    if name is None:
        return next((a for a in loaded if a.kind == HUMAN), loaded[0])
    for spans in loaded:
        if spans.name == name:
            return spans
    known = ", ".join(a.name for a in loaded)
    raise InputError(f"--annotations: no error spans named {name!r} (loaded: {known})")


def _check_rater(annotations: ErrorAnnotations, rater: str) -> None:
    """Refuse a rater who rated nothing in ``annotations``."""
    raters = {
        r for segments in annotations.segments.values() for a in segments if a for r in a.raters
    }
    if rater not in raters:
        shown = ", ".join(sorted(raters)[:10]) or "none"
        raise InputError(f"--rater: {annotations.name} has no rater {rater!r} (raters: {shown})")


def _rows(rows: Sequence[OrderCounts]) -> list[dict[str, int]]:
    return [
        {
            "order": r.order,
            "error_tokens": r.error_tokens,
            "error_flagged": r.error_flagged,
            "other_tokens": r.other_tokens,
            "other_flagged": r.other_flagged,
        }
        for r in rows
    ]


def report_dict(report: ErrorTokenReport, categories: Sequence[str]) -> dict[str, Any]:
    """One system's (or all's) fields, as the JSON output has them (``categories``' rows)."""
    return {
        "name": report.name,
        "segments": report.segments,
        "unaligned": len(report.unaligned),
        "orders": _rows(report.orders),
        "by_severity": {s: _rows(rows) for s, rows in report.by_severity.items()},
        "by_category": {c: _rows(report.by_category[c]) for c in categories},
        "spans": [
            {"order": s.order, "precision": s.precision, "recall": s.recall, "f1": s.f1}
            for s in report.spans
        ],
    }


def analysis_dict(analysis: ErrorTokenAnalysis, categories: Sequence[str]) -> dict[str, Any]:
    """The JSON output: every system, then all."""
    return {
        "systems": [report_dict(r, categories) for r in analysis.systems],
        "all": report_dict(analysis.all, categories),
    }


def _percent(value: float) -> str:
    return "-" if math.isnan(value) else f"{100 * value:.1f}"


def _diff(value: float) -> str:
    return "" if math.isnan(value) else f"{100 * value:+.1f}"


def _group_line(label: str, rows: Sequence[OrderCounts]) -> str:
    cells = "".join(f"{_percent(r.error_rate):>7} {_diff(r.difference):>6}" for r in rows)
    return f"{label:<20}{rows[0].error_tokens:>8}{cells}"


def _table(report: ErrorTokenReport, categories: Sequence[str]) -> list[str]:
    """One report as a table: a row per group, per order the flagged share and difference."""
    header = "".join(f"{'n=' + str(r.order):>7} {'diff':>6}" for r in report.orders)
    other = "".join(f"{_percent(r.other_rate):>7} {'':>6}" for r in report.orders)
    lines = [
        f"{'group':<20}{'tokens':>8}{header}",
        f"{'other tokens':<20}{report.orders[0].other_tokens:>8}{other}",
        _group_line("error tokens", report.orders),
    ]
    lines += [
        _group_line(f"  {s}" if s != UNDECIDED else f"{s} (apart)", rows)
        for s, rows in report.by_severity.items()
    ]
    lines += [_group_line(f"  {c}", report.by_category[c]) for c in categories]
    agreement = "".join(
        f"  P {100 * s.precision:.1f} R {100 * s.recall:.1f} F {100 * s.f1:.1f}"
        for s in report.spans
    )
    lines.append(f"{'span agreement':<20}{'MPP':>8}{agreement}")
    if report.unaligned:
        shown = ", ".join(f"{name} {i + 1}" for name, i in report.unaligned[:20])
        more = f", … ({len(report.unaligned) - 20} more)" if len(report.unaligned) > 20 else ""
        lines.append(f"unaligned segments (left out): {shown}{more}")
    return lines


def _best_and_worst(report: ErrorTokenReport, categories: Sequence[str]) -> list[str]:
    """Per order, the categories whose error tokens BLEU flags most and least over the rest."""
    lines = []
    for k in range(len(report.orders)):
        seen = [
            (rows[k].difference, name)
            for name, rows in report.by_category.items()
            if name in categories and rows[k].error_tokens and not math.isnan(rows[k].difference)
        ]
        if seen:
            best, worst = max(seen), min(seen)
            tokens = {name: rows[k].error_tokens for name, rows in report.by_category.items()}
            lines.append(
                f"order {k + 1}: BLEU sees {best[1]} best ({_diff(best[0])} points, "
                f"{tokens[best[1]]} tokens), {worst[1]} worst ({_diff(worst[0])} points, "
                f"{tokens[worst[1]]} tokens)"
            )
    return lines


def text_report(
    analysis: ErrorTokenAnalysis, tokenize: TokenizeConfig, categories: Sequence[str]
) -> list[str]:
    """The text output: the settings, a table per system, then all (``categories``' rows)."""
    rater = analysis.rater or "any rater"
    lines = [
        f"What BLEU sees of {analysis.annotations} error spans ({rater}; tokenizer "
        f"{tokenize.name}{', lowercased' if tokenize.lowercase else ''}; "
        f"orders 1-{analysis.max_order}).",
        "Share of tokens BLEU flags (no matched n-gram covers them), in %; diff: error "
        "tokens minus other tokens, in points. " + _categories_said(categories),
    ]
    for report in (*analysis.systems, analysis.all):
        title = "All systems" if report is analysis.all else report.name
        unaligned = f", {len(report.unaligned)} unaligned" if report.unaligned else ""
        lines += ["", f"== {title}: {report.segments} segments{unaligned} =="]
        lines += _table(report, categories)
    lines += _best_and_worst(analysis.all, categories)
    return lines


def _categories_said(categories: Sequence[str]) -> str:
    """The sentence naming the category rows, or saying why there are none."""
    if not categories:
        return "Categories: none (no error token under a named category)."
    left_out = [c for c in TOP_CATEGORIES if c not in categories]
    said = f"Categories: {', '.join(categories)}."
    return said + (f" Without error tokens: {', '.join(left_out)}." if left_out else "")


#: The LaTeX table's columns: the app's "what BLEU sees" export, one row per group and order.
_LATEX_HEADER = [
    "System",
    "Group",
    "$n$",
    "Error tokens",
    "Flagged (\\%)",
    "Other tokens",
    "Flagged (\\%)",
    "Diff.",
]


def _latex_cells(c: OrderCounts) -> list[str]:
    """One order's cells: tokens, flagged shares (%, -- for no tokens), difference (points)."""

    def share(value: float) -> str:
        return "--" if math.isnan(value) else f"{100 * value:.1f}"

    diff = "--" if math.isnan(c.difference) else f"${100 * c.difference:+.1f}$"
    tokens = [str(c.order), str(c.error_tokens), share(c.error_rate)]
    return [*tokens, str(c.other_tokens), share(c.other_rate), diff]


def latex_report(
    analysis: ErrorTokenAnalysis, tokenize: TokenizeConfig, categories: Sequence[str]
) -> str:
    """A booktabs table: per system (then all), group and order, the flagged shares.

    Shares are in %, the difference in points, as in the text table; a share
    of no tokens is ``--``.
    """
    from bleuviz.render.latex import booktabs_table, escape_latex

    rows = []
    for report in (*analysis.systems, analysis.all):
        name = "All systems" if report is analysis.all else escape_latex(report.name)
        named = {c: report.by_category[c] for c in categories}
        groups = {"error tokens": report.orders, **report.by_severity, **named}
        rows += [
            [name, escape_latex(group), *_latex_cells(c)]
            for group, counts in groups.items()
            for c in counts
        ]
    rater = analysis.rater or "any rater"
    lowercased = ", lowercased" if tokenize.lowercase else ""
    comments = [
        f"What BLEU sees of {analysis.annotations} error spans ({rater}; tokenizer "
        f"{tokenize.name}{lowercased}; orders 1-{analysis.max_order})",
        "Flagged: share of tokens no matched n-gram of order n covers; Diff.: error minus "
        "other, in points",
    ]
    return booktabs_table(_LATEX_HEADER, rows, "llrrrrrr", comments)
