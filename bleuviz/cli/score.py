"""``python -m bleuviz score``: corpus (and sentence) BLEU, chrF and TER of each system.

Each chosen metric says how it is reported (``MetricSpec.score_report``: its text
line, JSON fields, LaTeX columns, signature line, sentence items); this module
loops over them, draws the CIs ``--confidence`` asks for, and writes the formats.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from itertools import islice
from typing import TYPE_CHECKING, Any

from bleuviz.cli.dask_options import add_dask_options, check_dask_args
from bleuviz.cli.options import (
    SCORE_METRICS,
    STDIN,
    add_bleu_options,
    add_input_options,
    add_jobs_option,
    add_metric_options,
    bleu_config,
    chrf_config,
    cli_settings,
    load_testset,
    ter_config,
    whole_number,
)
from bleuviz.cli.ticker import terminal_progress
from bleuviz.errors import ConfigError
from bleuviz.io.testset import TestSet
from bleuviz.limits import RESAMPLES, SEEDS
from bleuviz.metrics.chrf_scorers import ChrfMetric
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.metrics.imported import imported_scores
from bleuviz.metrics.registry import SCORE_CI_METRICS, get_spec
from bleuviz.metrics.score_report import ScoreReport, in_chunks
from bleuviz.metrics.spec import MetricScores, MetricSpec, Settings
from bleuviz.metrics.ter_config import TerConfig

# The JSON and LaTeX writers are imported where those formats are written, and
# the resampling where a confidence interval is asked for: the text output of
# corpus scores, the default, never loads them.
if TYPE_CHECKING:
    from bleuviz.arrays import FloatArray
    from bleuviz.bleu.config import BleuConfig
    from bleuviz.cli.dask_options import DaskRun


def add_score_parser(commands: Any) -> argparse.ArgumentParser:
    """Add the score subcommand."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "score", help="corpus (and sentence) BLEU of each system"
    )
    add_input_options(parser)
    add_bleu_options(parser)
    add_metric_options(parser)
    add_jobs_option(parser)
    parser.add_argument("--sentence-level", action="store_true", help="also score every segment")
    parser.add_argument(
        "--confidence",
        action="store_true",
        help="each system's bootstrap mean and 95%% CI, as sacrebleu's --confidence",
    )
    parser.add_argument(
        "--confidence-n",
        type=whole_number(RESAMPLES.low, RESAMPLES.high),
        default=1000,
        metavar="N",
        help=f"bootstrap resamples ({RESAMPLES.low} to {RESAMPLES.high:,})",
    )
    parser.add_argument(
        "--seed",
        type=whole_number(SEEDS.low, SEEDS.high),
        metavar="N",
        help=f"bootstrap seed, {SEEDS.low} to {SEEDS.high:,} (default: sacrebleu's, 12345)",
    )
    add_dask_options(parser)
    parser.set_defaults(func=run_score)
    return parser


@dataclass(frozen=True, slots=True)
class _Metric:
    """One chosen metric, scored for every system.

    Attributes:
        spec: the registry's metric.
        settings: the settings it was scored with (chrF's: its ``--chrf-*`` options).
        scores: each system's scores (on Dask without sentence scores).
        rows: each system's rows whose sum and last row are the corpus's (every
            segment's, or two: Dask's, or those of files read chunk by chunk), which
            its report reads.
        items: each system's JSON sentence items, where ``rows`` are not every
            segment's (files read chunk by chunk); None: the report's own.
    """

    spec: MetricSpec
    settings: Settings
    scores: Mapping[str, MetricScores]
    rows: Mapping[str, FloatArray]
    items: Mapping[str, Callable[[], Iterator[Any]]] | None = None


@dataclass(frozen=True, slots=True)
class _Scored:
    """What the report is made of, counted here or on Dask.

    Attributes:
        names: the systems, in load order; paths: each one's file.
        metrics: the chosen metrics, in the registry's order.
        testset: the test set read here (its imported scores), None on Dask.
        poisson: on Dask past the exact limit, each (metric, system)'s Poisson-bootstrap
            mean, CI and ``bs:poisson`` signature.
    """

    names: list[str]
    paths: list[str]
    metrics: list[_Metric]
    testset: TestSet | None = None
    poisson: dict[tuple[str, str], tuple[float, float, str]] | None = None


def _settings(args: argparse.Namespace, config: BleuConfig) -> Settings:
    """The options' settings: BLEU's, ``--ter-*`` and ``--rouge-stemmer`` (chrF's: ``_chrf``)."""
    settings = cli_settings(args, config)
    return replace(
        settings,
        options=replace(settings.options, stemmer=bool(args.rouge_stemmer)),
        ter=ter_config(args) if "ter" in args.metrics else TerConfig(),
    )


def _chrf(settings: Settings, label: str, args: argparse.Namespace) -> Settings:
    """``settings`` with the ``--chrf-*`` options for ``label`` when it is chrF or chrF++.

    The two share the options but not their word order (each its own by default).
    """
    spec = get_spec(label)
    if not isinstance(spec, ChrfMetric):
        return settings
    return replace(settings, chrf=chrf_config(args, spec.word_order))


def _chosen(names: list[str]) -> list[str]:
    """The registry's labels of the metrics ``names`` (``--metrics``) names, in its order."""
    return [label for name, label in SCORE_METRICS.items() if name in names]


def _with_ci(labels: list[str], args: argparse.Namespace) -> tuple[str, ...]:
    """The chosen metrics whose corpus CI ``--confidence`` draws (none without it).

    Raises:
        ConfigError: --confidence, and no chosen metric has a CI to draw.
    """
    if not args.confidence:
        return ()
    drawn = tuple(label for label in labels if label in SCORE_CI_METRICS)
    if not drawn:
        named = ", ".join(SCORE_CI_METRICS)
        raise ConfigError(
            f"--confidence: bootstrap intervals are for {named}; add {named.lower()} to --metrics"
        )
    return drawn


def _scored_here(args: argparse.Namespace, config: BleuConfig) -> _Scored:
    """Read the files and score them in this process."""
    testset, paths = load_testset(args)
    evaluation = Evaluation(testset, _settings(args, config))
    metrics = []
    for label in _chosen(args.metrics):
        scoring = evaluation.with_settings(_chrf(evaluation.settings, label, args))
        with terminal_progress(label) as progress:
            scores = scoring.scores(label, progress=progress)
        spec, rows = scoring.metric(label), scoring.rows(label)
        metrics.append(_Metric(spec, scoring.settings, scores, rows))
    return _Scored(list(testset.systems), paths, metrics, testset)


def _streams(args: argparse.Namespace) -> bool:
    """Whether ``score`` reads the files chunk by chunk, in memory bounded by a chunk.

    Only BLEU's statistics are read so (``bleuviz.metrics.bleu_streamed``; with
    ``--confidence``, every row is kept for sacrebleu's bootstrap), from plain-text
    files with references; the test set is read whole for another metric, imported
    scores and spans and their options, a table, XML or SGML file, standard input
    or a saved test set.
    """
    from bleuviz.io.load import all_plain
    from bleuviz.metrics.bleu_streamed import counts_streamed

    files = [*args.hyp, *args.ref, *(p for p in (args.src, args.docids) if p is not None)]
    imported = (args.seg_scores, args.mqm, args.mqm_weights, args.lower_is_better)
    return (
        counts_streamed(_chosen(args.metrics))
        and args.set is None
        and bool(args.hyp and args.ref)
        and STDIN not in args.hyp
        and all_plain(files)
        and not any(imported)
        and not args.higher_is_better
    )


def _scored_streamed(args: argparse.Namespace, config: BleuConfig) -> _Scored:
    """Read and count the files chunk by chunk (``_streams``): BLEU's scores only."""
    from bleuviz.metrics.bleu_metric import BLEU
    from bleuviz.metrics.bleu_streamed import PlainFiles, streamed_bleu, system_names

    settings = _settings(args, config)
    others = tuple(path for path in (args.src, args.docids) if path is not None)
    files = PlainFiles(tuple(args.hyp), tuple(args.ref), others, args.max_bytes)
    keep_items = args.sentence_level and args.format == "json"
    with terminal_progress(BLEU.label) as progress:
        systems = streamed_bleu(files, settings, keep_items, args.confidence, progress)
    scores = {name: system.scores for name, system in systems.items()}
    rows = {name: system.rows for name, system in systems.items()}
    items = {name: s.sentences for name, s in systems.items() if s.sentences is not None}
    metric = _Metric(BLEU, settings, scores, rows, items or None)
    return _Scored(system_names(args.hyp), list(args.hyp), [metric])


def _scored_on_dask(args: argparse.Namespace, config: BleuConfig) -> _Scored:
    """Score the files on Dask: the same numbers, summed from partitions."""
    from bleuviz.cli.dask_options import plan_on_dask, run_on_dask
    from bleuviz.distributed.run import corpus_scores
    from bleuviz.significance.resampling import DEFAULT_SEED

    labels = _chosen(args.metrics)
    chrf = [label for label in labels if isinstance(get_spec(label), ChrfMetric)]
    if len(chrf) > 1:
        raise ConfigError("--dask: one of chrf and chrf++ at a time (they share --chrf-*)")
    settings = _settings(args, config)
    settings = _chrf(settings, chrf[0], args) if chrf else settings
    seed = DEFAULT_SEED if args.seed is None else args.seed
    with_ci = _with_ci(labels, args)
    run = run_on_dask(
        args,
        plan_on_dask(args, settings),
        settings,
        tuple(labels),
        keep_rows=with_ci,
        poisson=(seed, args.confidence_n),
    )
    names = list(run.plan.layout.systems)
    metrics = [
        _Metric(
            get_spec(label),
            settings,
            corpus_scores(run.plan, run.totals, label, settings),
            {name: run.totals.corpus[(label, name)] for name in names},
        )
        for label in labels
    ]
    poisson = _poisson_fields(run, metrics, with_ci, args)
    # Each system's path as the one-machine command reports it: its file, or (several
    # systems in one table) its name.
    paths = list(args.hyp) if len(args.hyp) == len(names) else names
    return _Scored(names, paths, metrics, poisson=poisson)


def _poisson_fields(
    run: DaskRun, metrics: list[_Metric], with_ci: tuple[str, ...], args: argparse.Namespace
) -> dict[tuple[str, str], tuple[float, float, str]] | None:
    """Past the exact limit: each (metric, system)'s Poisson-bootstrap mean, CI and
    ``bs:poisson`` signature (None below it: the exact bootstrap runs as without --dask)."""
    from bleuviz.cli.dask_options import is_large
    from bleuviz.distributed.run import poisson_samples
    from bleuviz.significance.resampling import DEFAULT_SEED, estimate_ci, paired_signature

    if not is_large(run.plan) or not with_ci:
        return None
    seed = DEFAULT_SEED if args.seed is None else args.seed
    n = args.confidence_n
    print(
        f"bleuviz: note: --confidence past {run.plan.n_segments:,} segments on Dask is a "
        "Poisson bootstrap (bs:poisson), not sacrebleu-identical",
        file=sys.stderr,
    )
    fields = {}
    for metric in metrics:
        if metric.spec.label not in with_ci:
            continue
        for name, scores in metric.scores.items():
            samples = poisson_samples(run.totals, metric.spec.label, name, metric.settings)
            ci = estimate_ci(scores.corpus, samples)
            signature = paired_signature(scores.signature, n, 0, seed)
            signature = signature.replace(f"|bs:{n}|", f"|bs:poisson:{n}|", 1)
            fields[(metric.spec.label, name)] = (ci.mean, ci.ci, signature)
    return fields


def run_score(args: argparse.Namespace) -> int:
    """Print each system's corpus scores (and sentence scores with --sentence-level)."""
    check_dask_args(args)
    config = bleu_config(args)
    with_ci = _with_ci(_chosen(args.metrics), args)  # refused before any file is read
    if args.dask is not None:
        scored = _scored_on_dask(args, config)
    elif _streams(args):
        scored = _scored_streamed(args, config)
    else:
        scored = _scored_here(args, config)
    systems = [
        _system(scored, name, path, with_ci, args)
        for name, path in zip(scored.names, scored.paths, strict=True)
    ]
    if args.format == "json":
        from bleuviz.render.json_stream import write_json

        write_json({"systems": [report for report, _ in systems]}, sys.stdout)
        sys.stdout.write("\n")
    elif args.format == "latex":
        print(_latex(systems))
    else:
        _print_text(systems, args.sentence_level)
    return 0


#: One system: its JSON object, and each metric's report with its scores.
_System = tuple[dict[str, Any], list[tuple[ScoreReport, MetricScores]]]


def _system(
    scored: _Scored, name: str, path: str, with_ci: tuple[str, ...], args: argparse.Namespace
) -> _System:
    """Ask each metric how it reports ``name``'s scores (with its CI if drawn: ``with_ci``);
    lay out the system's JSON object: the metrics' own fields, its imported means, the list."""
    parts = []
    for metric in scored.metrics:
        scores = metric.scores[name]
        part = metric.spec.score_report(scores, metric.rows[name], metric.settings)
        if metric.items is not None:
            part = replace(part, sentences=metric.items[name])
        if metric.spec.label in with_ci:
            key = (metric.spec.label, name)
            ci = _confidence(metric, name, args) if scored.poisson is None else scored.poisson[key]
            part = part.with_ci(*ci)
        parts.append((part, scores))
    report: dict[str, Any] = {"name": name, "path": path}
    listed = []
    for part, _ in parts:
        fields = dict(part.fields)
        if args.sentence_level:
            from bleuviz.render.json_stream import LazyArray

            fields["sentences"] = LazyArray(part.sentences, plain=True)
        if part.listed:
            listed.append(fields)
        else:
            report |= fields
    testset = scored.testset
    if testset is not None and testset.seg_scores:
        report["seg_scores"] = seg_score_means(testset, name)
    if listed:
        report["metrics"] = listed
    return report, parts


def _print_text(systems: list[_System], sentence_level: bool) -> None:
    """One line per system and metric, then each metric's signature (sacrebleu's style)."""
    for report, parts in systems:
        prefix = f"{report['name']}: " if len(systems) > 1 else ""
        for part, _ in parts:
            print(prefix + part.line)
        for metric, summary in report.get("seg_scores", {}).items():
            mean = "n/a" if summary["mean"] is None else f"{summary['mean']:.4f}"
            better = "lower" if summary["lower_is_better"] else "higher"
            print(
                f"{prefix}{metric} = {mean} (mean of {summary['n']} segments; {better} is better)"
            )
        if sentence_level:
            _write_sentence_lines(parts)
    for part, _ in systems[0][1]:
        print(part.signature_line)


def _write_sentence_lines(parts: list[tuple[ScoreReport, MetricScores]]) -> None:
    """Each segment's line of scores, written ``SENTENCE_BLOCK`` lines at a time.

    One ``print`` per segment took 0.08 s at 100,000 segments; one write per block
    takes half that, and a block bounds the memory the text takes.
    """
    rows = enumerate(_sentence_cells(parts), start=1)
    while block := list(islice(rows, SENTENCE_BLOCK)):
        sys.stdout.write("".join(f"  {i}\t" + "\t".join(cells) + "\n" for i, cells in block))


#: Sentence lines written at once (``_write_sentence_lines``).
SENTENCE_BLOCK = 10_000


def _sentence_cells(parts: list[tuple[ScoreReport, MetricScores]]) -> Iterator[tuple[str, ...]]:
    """Each segment's "BLEU = x" (and "chrF2 = y", ...) with --sentence-level, one at a time."""
    columns = [_cells(part.name, part.digits, scores.sentence) for part, scores in parts]
    return zip(*columns, strict=True)


def _cells(name: str, digits: int, sentence: FloatArray) -> Iterator[str]:
    """One metric's column of ``name = score`` cells, made as they are printed."""
    return (f"{name} = {value:.{digits}f}" for value in in_chunks(sentence))


def _confidence(metric: _Metric, name: str, args: argparse.Namespace) -> tuple[float, float, str]:
    """The bootstrap mean and CI of ``name``'s corpus score, and the signature with
    sacrebleu's bs/seed fields (sacrebleu's ``--confidence``: resampled rows, scored by
    the metric's own resampler)."""
    from bleuviz.significance.paired import bootstrap_samples, check_counts, check_segments
    from bleuviz.significance.resampling import DEFAULT_SEED, estimate_ci, paired_signature

    seed = DEFAULT_SEED if args.seed is None else args.seed
    scores = metric.scores[name]
    rows = scores.statistics()
    check_counts(args.confidence_n, "n_samples", seed)
    check_segments([("stats", len(rows))])
    resampler = metric.spec.resampler(metric.settings, rows)
    samples = bootstrap_samples([rows], resampler, args.confidence_n, seed)[0]
    ci = estimate_ci(resampler.corpus_score(rows), samples)
    return ci.mean, ci.ci, paired_signature(scores.signature, args.confidence_n, 0, seed)


def _latex(systems: list[_System]) -> str:
    """A booktabs table of every system's corpus scores (with CIs) and imported means."""
    from bleuviz.render.latex import booktabs_table, escape_latex

    first, parts = systems[0]
    imported = list(first.get("seg_scores", {}))
    header = ["System"]
    for part, _ in parts:
        (heading, _), *rest = part.columns
        header += [escape_latex(heading), *(["Mean $\\pm$ 95\\% CI"] if part.ci else [])]
        header += [escape_latex(h) for h, _ in rest]
    header += [escape_latex(m) for m in imported]
    rows = []
    for report, system_parts in systems:
        cells = [escape_latex(report["name"])]
        for part, _ in system_parts:
            (_, cell), *rest = part.columns
            d = part.digits
            cells += [cell, *([f"{part.ci[0]:.{d}f} $\\pm$ {part.ci[1]:.{d}f}"] if part.ci else [])]
            cells += [c for _, c in rest]
        for m in imported:
            mean = report["seg_scores"].get(m, {}).get("mean")
            cells.append("--" if mean is None else f"{mean:.4f}")
        rows.append(cells)
    align = "l" + "r" * (len(header) - 1)
    return booktabs_table(header, rows, align, [part.signature_line for part, _ in parts])


def seg_score_means(testset: TestSet, system: str) -> dict[str, dict[str, Any]]:
    """Return each imported metric's mean over ``system``'s scored segments, and their count.

    A metric without scores for ``system`` is left out; one whose every segment
    lacks a score has mean None.
    """
    means: dict[str, dict[str, Any]] = {}
    for scores in testset.seg_scores:
        if system in scores.values:
            result = imported_scores(scores, system)
            n = int(scores.scored(system).sum())
            means[scores.name] = {
                "mean": result.corpus if n else None,
                "n": n,
                "lower_is_better": scores.lower_is_better,
            }
    return means
