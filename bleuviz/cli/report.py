"""``python -m bleuviz report``: the whole analysis as one self-contained HTML file.

Reads the inputs as ``score`` and ``compare`` do, computes every section
(``bleuviz.report``) and writes one page that opens offline: ranked systems
with CIs and ``compare --all-pairs`` clusters (Holm past two systems, with the
resamples it needs), BLEU's anatomy, buckets and salient n-grams, the human
score's correlations and disagreements, the error spans, and every segment.
With ``SOURCE_DATE_EPOCH`` set, the same inputs give the same bytes.
"""

from __future__ import annotations

import argparse
import shlex
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bleuviz import __version__
from bleuviz.cli.options import (
    SCORE_METRICS,
    STDIN,
    add_bleu_options,
    add_input_options,
    add_jobs_option,
    add_metric_options,
    bleu_config,
    chrf_config,
    cli_evaluation,
    load_testset,
    saved_workspace,
    ter_config,
    whole_number,
)
from bleuviz.cli.tested import BLEU, metric_label
from bleuviz.errors import ConfigError, InputError
from bleuviz.io.error_spans import HUMAN
from bleuviz.limits import RESAMPLES, SEEDS, TRIALS
from bleuviz.metrics.chrf_scorers import ChrfMetric
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.metrics.registry import get_spec
from bleuviz.metrics.spec import Settings
from bleuviz.metrics.ter_config import TerConfig
from bleuviz.report.options import (
    DEFAULT_MAX_SEGMENTS,
    InputFile,
    Provenance,
    ReportOptions,
    build_date,
    file_digest,
    paired_counts,
)
from bleuviz.significance.resampling import DEFAULT_SEED

if TYPE_CHECKING:
    from bleuviz.report.build import Report

#: Options left out of the command line the report states: they change no number, and
#: the report's own name would make two builds of the same inputs differ.
_UNSTATED = ("func", "command", "workspace", "output", "jobs")


def add_report_parser(commands: Any) -> argparse.ArgumentParser:
    """Add the report subcommand."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "report", help="the whole analysis as one self-contained HTML file (opens offline)"
    )
    add_input_options(parser)
    add_bleu_options(parser, formats=("html",))
    add_metric_options(parser)
    add_jobs_option(parser)
    parser.add_argument("--output", "-o", required=True, metavar="FILE.html", help="the report")
    parser.add_argument(
        "--human",
        metavar="NAME",
        help="the imported score taken as human (default: the "
        "score of the first people's error spans, if any)",
    )
    parser.add_argument(
        "--max-segments",
        type=whole_number(1),
        default=DEFAULT_MAX_SEGMENTS,
        metavar="N",
        help="segment x system rows the segment browser holds at most (%(default)s); past "
        "it, the most telling segments and a seeded sample",
    )
    parser.add_argument(
        "--metric", default=BLEU, metavar="NAME", help="the metric ranked and clustered (BLEU)"
    )
    parser.add_argument(
        "--paired-bs",
        type=whole_number(RESAMPLES.low, RESAMPLES.high),
        metavar="N",
        help="bootstrap resamples (default as compare --all-pairs --holm: 1,000, or "
        "10 x pairs / 0.05)",
    )
    parser.add_argument(
        "--paired-ar",
        type=whole_number(TRIALS.low, TRIALS.high),
        metavar="N",
        help="randomization trials (default as compare: 10,000, or more)",
    )
    parser.add_argument(
        "--seed",
        type=whole_number(SEEDS.low, SEEDS.high),
        default=DEFAULT_SEED,
        metavar="N",
        help="the resamples' and the segment sample's seed (sacrebleu's, %(default)s)",
    )
    parser.set_defaults(func=run_report)
    return parser


def run_report(args: argparse.Namespace) -> int:
    """Build the report and write it to ``--output``."""
    from bleuviz.report.page import render_page

    text = render_page(report_of(args))
    try:
        with open(args.output, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    except OSError as e:
        raise InputError(f"--output: cannot write {args.output}: {e.strerror}") from None
    return 0


def report_of(args: argparse.Namespace) -> Report:
    """Read the inputs and compute every section of the report the options describe."""
    from bleuviz.report.build import build_report

    config = bleu_config(args)
    testset, _ = load_testset(args)
    evaluation = cli_evaluation(testset, args, config)
    evaluation = evaluation.with_settings(_settings(evaluation.settings, args))
    return build_report(evaluation, report_options(evaluation, args))


def _settings(settings: Settings, args: argparse.Namespace) -> Settings:
    """The settings with ``--ter-*`` and ``--rouge-stemmer`` (chrF's: ``_overrides``)."""
    return replace(
        settings,
        options=replace(settings.options, stemmer=bool(args.rouge_stemmer)),
        ter=ter_config(args) if "ter" in args.metrics else TerConfig(),
    )


def report_options(evaluation: Evaluation, args: argparse.Namespace) -> ReportOptions:
    """The report's options from the command line: metrics, tests, human score, provenance."""
    testset = evaluation.testset
    from bleuviz.significance.by_metric import has_paired_test

    labels = list(dict.fromkeys([BLEU, *(SCORE_METRICS[m] for m in args.metrics)]))
    metric = metric_label(args.metric, [s.name for s in testset.seg_scores])
    if not has_paired_test(evaluation.metric(metric)):
        raise ConfigError(f"--metric: {metric} has no paired test; rank by BLEU, chrF or TER")
    tests = paired_counts(metric, len(testset.systems), args.paired_bs, args.paired_ar, args.seed)
    notes = saved_workspace(args.workspace).notes(args.set) if args.set is not None else ()
    return ReportOptions(
        tuple(labels),
        tests,
        Provenance(__version__, command_line(args), build_date(), _inputs(args)),
        human=_human(evaluation, args.human),
        max_segments=args.max_segments,
        sample_seed=args.seed,
        notes=tuple(notes),
        set_id=args.set,
        overrides=_overrides(evaluation.settings, labels, args),
    )


def _overrides(
    settings: Settings, labels: list[str], args: argparse.Namespace
) -> tuple[tuple[str, Settings], ...]:
    """chrF's and chrF++'s settings: the ``--chrf-*`` options with each one's own word order."""
    out = []
    for label in labels:
        spec = get_spec(label)
        if isinstance(spec, ChrfMetric):
            out.append((label, replace(settings, chrf=chrf_config(args, spec.word_order))))
    return tuple(out)


def _human(evaluation: Evaluation, name: str | None) -> str | None:
    """``--human``, checked; else the score of the first people's error spans, if loaded."""
    testset = evaluation.testset
    imported = [s.name for s in testset.seg_scores]
    if name is not None:
        if name not in imported:
            known = ", ".join(imported) or "none imported"
            raise InputError(f"--human: no imported score {name!r} ({known})")
        return name
    people = [a.name for a in testset.error_spans if a.kind == HUMAN and a.name in imported]
    return people[0] if people else None


def _inputs(args: argparse.Namespace) -> tuple[InputFile, ...]:
    """Every input file by role, base name and SHA-256 (standard input: named, not hashed)."""
    files: list[tuple[str, str]] = [("reference", path) for path in args.ref]
    files += [("system", path) for path in args.hyp]
    files += [
        (role, path) for role, path in (("source", args.src), ("documents", args.docids)) if path
    ]
    files += [("segment scores", path) for path in args.seg_scores]
    files += [("error spans", path) for path in args.mqm]
    out = [
        InputFile(role, "stdin", "(standard input)") if path == STDIN else file_digest(role, path)
        for role, path in files
    ]
    if args.set is not None:
        out.insert(0, InputFile("saved test set", args.set, "(workspace)"))
    return tuple(out)


def command_line(args: argparse.Namespace) -> str:
    """The command as the options describe it: each option given, as its long name.

    argparse keeps the values, not the words typed; every option's ``dest`` here is its
    long name with ``-`` for ``_``, so this gives back an equivalent command.
    """
    words = ["bleuviz", "report"]
    for dest, value in vars(args).items():
        if (
            dest in _UNSTATED
            or value in (None, False, [])
            or (dest in _DEFAULTS and _DEFAULTS[dest] == value)
        ):
            continue
        option = "--" + dest.replace("_", "-")
        if value is True:
            words.append(option)
        elif isinstance(value, list):
            words += [option, *(str(v) for v in value)]
        else:
            words += [option, str(value)]
    return shlex.join(words)


def _defaults() -> dict[str, Any]:
    """Every option's default, from a parser of this command alone."""
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers()
    report = add_report_parser(commands)
    return {
        dest: report.get_default(dest)
        for dest in vars(report.parse_args(["-o", "x"]))
        if dest != "output"
    }


_DEFAULTS = _defaults()
