"""``python -m bleuviz correlate``: every metric against a human score, system and segment level.

Segment-level Kendall is given with mt-metrics-eval's three groupings (none,
item, system) and pairwise accuracy with tie calibration (acc_eq); the human
translations a WMT score file scores as systems (``refA``, ``refB``...) are
left out by name unless ``--include-human`` keeps them, as mt-metrics-eval's
``include_human=False`` default does.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from bleuviz.analysis.correlation import Correlation, MetricView, correlate, scores_view
from bleuviz.analysis.meta_eval import is_human_reference
from bleuviz.cli.options import (
    add_bleu_options,
    add_input_options,
    add_jobs_option,
    bleu_config,
    cli_evaluation,
    load_testset,
)
from bleuviz.errors import ConfigError
from bleuviz.metrics.imported import imported_scores
from bleuviz.metrics.registry import SUMMED_METRICS
from bleuviz.render.json_stream import dumps

if TYPE_CHECKING:
    from bleuviz.io.testset import TestSet

#: ``-m`` names, as sacrebleu spells them, and the metric each computes: those with
#: statistics that sum (BLEU, chrF, chrF++, TER).
COMPUTED_METRICS = {label.lower(): label for label in SUMMED_METRICS}


def add_correlate_parser(commands: Any) -> argparse.ArgumentParser:
    """Add the correlate subcommand."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "correlate", help="correlation of every metric with a human score (--seg-scores)"
    )
    add_input_options(parser)
    add_bleu_options(parser)
    add_jobs_option(parser)
    parser.add_argument("--human", required=True, metavar="NAME", help="the human score")
    parser.add_argument(
        "--metrics",
        "-m",
        nargs="+",
        type=str.lower,
        choices=list(COMPUTED_METRICS),
        default=["bleu"],
        help="metrics bleuviz computes (default: bleu); every imported score is added",
    )
    parser.add_argument(
        "--include-human",
        action="store_true",
        help="count the human translations scored as systems (refA, refB, Human-A.0...), "
        "left out by default as mt-metrics-eval does",
    )
    parser.set_defaults(func=run_correlate)
    return parser


def run_correlate(args: argparse.Namespace) -> int:
    """Print each metric's correlations with the human score."""
    config = bleu_config(args)
    testset, _ = load_testset(args)
    human_scores = testset.seg_score(args.human)
    human = _imported_view(testset, args.human)
    evaluation = cli_evaluation(testset, args, config)
    computed = {COMPUTED_METRICS[m]: evaluation.scores(COMPUTED_METRICS[m]) for m in args.metrics}
    views = [scores_view(label, scores) for label, scores in computed.items()]
    views += [_imported_view(testset, s.name) for s in testset.seg_scores if s is not human_scores]
    left_out = [] if args.include_human else sorted(filter(is_human_reference, human.corpus))
    results = [correlate(view, human, left_out) for view in views]
    if args.format == "json":
        report = {
            "human": args.human,
            "left_out": left_out,
            "metrics": [r.as_dict() for r in results],
        }
        print(dumps(report))
    elif args.format == "latex":
        signatures = [next(iter(s.values())).signature for s in computed.values() if s]
        print(_latex(args.human, results, left_out, signatures))
    else:
        print("\n".join(_table(args.human, results, left_out)))
    return 0


def _imported_view(testset: TestSet, name: str) -> MetricView:
    """Means and segment scores of an imported metric, for the systems it scores."""
    scores = testset.seg_score(name)
    scored = {system: imported_scores(scores, system) for system in scores.values}
    if not scored:
        raise ConfigError(f"{scores.origin}: no system has {name} scores")
    return scores_view(name, scored)


def _tie(value: float | None, form: str) -> str:
    """acc_eq's ε or tied share as the text table shows it; n/a where undefined."""
    return "n/a" if value is None else form.format(value)


def _table(human: str, results: list[Correlation], left_out: list[str]) -> list[str]:
    """Return a text table, one metric a line, and a legend."""
    width = max(len("metric"), *(len(r.name) for r in results))
    head: tuple[str, ...] = ("sys r", "sys tau", "pair acc", "seg tau", "tau item", "tau sys")
    head += ("acc_eq", "eps", "tied %", "systems", "segments")
    lines = [f"Correlation with {human} (scores oriented so that higher is better)"]
    lines.append(f"{'metric':<{width}}  " + "  ".join(f"{h:>8}" for h in head))
    for r in results:
        cells = [r.system_pearson, r.system_kendall, r.pairwise_accuracy, r.segment_kendall]
        cells += [r.segment_kendall_item, r.segment_kendall_system, r.pairwise_accuracy_eq]
        shown = ["n/a" if c is None else f"{c:.4f}" for c in cells]
        shown += [_tie(r.tie_epsilon, "{:.4g}"), _tie(r.tied_share, "{:.1%}").rstrip("%")]
        shown += [str(r.n_systems), str(r.n_segments)]
        lines.append(f"{r.name:<{width}}  " + "  ".join(f"{c:>8}" for c in shown))
    lines.append(
        "seg tau: tau-b over every (system, segment) pair; tau item / tau sys: mean tau-b per "
        "segment / per system (mt-metrics-eval's average_by); acc_eq: pairwise accuracy with "
        "tie calibration per segment (Deutsch et al., 2023), eps its tie threshold, tied % the "
        "share of pairs eps ties"
    )
    tied = [r.name for r in results if r.mostly_tied]
    if tied:
        lines.append(
            f"acc_eq of {', '.join(tied)}: eps ties most pairs, so it mostly counts the pairs "
            "the humans tie too"
        )
    if left_out:
        lines.append(
            f"left out as human references (--include-human keeps them): {', '.join(left_out)}"
        )
    return lines


#: The LaTeX table's header, a column per field of ``Correlation`` shown in the text table.
_LATEX_HEADER = [
    "Metric",
    "Sys. $r$",
    "Sys. $\\tau$",
    "Pair acc.",
    "Seg. $\\tau$",
    "$\\tau$ item",
    "$\\tau$ sys.",
    "acc\\_eq",
    "Systems",
    "Segments",
]


def _latex(
    human: str, results: list[Correlation], left_out: list[str], signatures: list[str]
) -> str:
    """A booktabs table of the text table's columns; the human score, the metrics'
    signatures and the references left out as ``%`` comments."""
    from bleuviz.render.latex import booktabs_table, escape_latex

    rows = []
    for r in results:
        cells = [r.system_pearson, r.system_kendall, r.pairwise_accuracy, r.segment_kendall]
        cells += [r.segment_kendall_item, r.segment_kendall_system, r.pairwise_accuracy_eq]
        shown = ["--" if c is None else f"{c:.4f}" for c in cells]
        rows.append([escape_latex(r.name), *shown, str(r.n_systems), str(r.n_segments)])
    comments = [f"Correlation with {human} (scores oriented so that higher is better)"]
    comments += signatures
    if left_out:
        comments.append(f"left out as human references: {', '.join(left_out)}")
    return booktabs_table(_LATEX_HEADER, rows, "l" + "r" * (len(_LATEX_HEADER) - 1), comments)
