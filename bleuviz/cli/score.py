"""``python -m bleuviz score``: corpus (and sentence) BLEU, chrF and TER of each system."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING, Any

from bleuviz.cli.dask_options import add_dask_options, check_dask_args
from bleuviz.cli.options import (
    SCORE_METRICS,
    add_bleu_options,
    add_input_options,
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
from bleuviz.metrics.registry import get_spec
from bleuviz.metrics.spec import MetricScores, Settings
from bleuviz.metrics.ter_config import TerConfig

# The JSON and LaTeX writers are imported where those formats are written, and
# the resampling where a confidence interval is asked for: the text output of
# corpus scores, the default, never loads them.
if TYPE_CHECKING:
    from bleuviz.arrays import FloatArray
    from bleuviz.bleu.config import BleuConfig
    from bleuviz.bleu.result import BleuScore
    from bleuviz.bleu.stats import SegmentStats
    from bleuviz.bleu.tokenize import TokenizeConfig
    from bleuviz.cli.dask_options import DaskRun
    from bleuviz.render.json_stream import LazyArray

#: Segments turned into Python objects at a time when sentence scores are written.
_CHUNK = 1 << 16


def add_score_parser(commands: Any) -> argparse.ArgumentParser:
    """Add the score subcommand."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "score", help="corpus (and sentence) BLEU of each system"
    )
    add_input_options(parser)
    add_bleu_options(parser)
    add_metric_options(parser)
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
class _Scored:
    """What the report is made of, counted here or on Dask.

    Attributes:
        names: the systems, in load order; paths: each one's file.
        bleu: each system's BLEU statistics (on Dask: two rows that sum to the
            corpus's, or every row when a bootstrap needs them), or None.
        tokenize: BLEU's tokenization; n_refs: the reference streams.
        extras: sacrebleu's name of each metric beside BLEU, every system's scores.
        testset: the test set read here (its imported scores), None on Dask.
        poisson: on Dask past the exact limit, the Poisson bootstrap's CI fields.
    """

    names: list[str]
    paths: list[str]
    bleu: dict[str, SegmentStats] | None
    tokenize: TokenizeConfig
    n_refs: int
    extras: list[tuple[str, Mapping[str, MetricScores]]]
    testset: TestSet | None = None
    poisson: dict[str, dict[str, Any]] | None = None


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


def _extra_labels(names: list[str]) -> list[str]:
    """The registry's labels of the metrics ``names`` names beside BLEU, in its order."""
    return [label for name, label in SCORE_METRICS.items() if name in names and name != "bleu"]


def _scored_here(args: argparse.Namespace, config: BleuConfig) -> _Scored:
    """Read the files and score them in this process."""
    testset, paths = load_testset(args)
    evaluation = Evaluation(testset, _settings(args, config))
    extras: list[tuple[str, Mapping[str, MetricScores]]] = []
    for label in _extra_labels(args.metrics):
        scoring = evaluation.with_settings(_chrf(evaluation.settings, label, args))
        with terminal_progress(label) as progress:
            scores = scoring.scores(label, progress=progress)
        extras.append((scoring.metric(label).score_name(scoring.settings), scores))
    corpus = evaluation.bleu_statistics() if "bleu" in args.metrics else None
    return _Scored(
        list(testset.systems),
        paths,
        None if corpus is None else corpus.systems,
        evaluation.settings.tokenize,
        len(testset.references),
        extras,
        testset,
    )


def _scored_on_dask(args: argparse.Namespace, config: BleuConfig) -> _Scored:
    """Score the files on Dask: the same numbers, summed from partitions."""
    from bleuviz.cli.dask_options import is_large, plan_on_dask, run_on_dask
    from bleuviz.distributed.run import corpus_scores
    from bleuviz.metrics.bleu_metric import BLEU, stats_of
    from bleuviz.significance.resampling import DEFAULT_SEED

    labels = _extra_labels(args.metrics)
    chrf = [label for label in labels if isinstance(get_spec(label), ChrfMetric)]
    if len(chrf) > 1:
        raise ConfigError("--dask: one of chrf and chrf++ at a time (they share --chrf-*)")
    settings = _settings(args, config)
    settings = _chrf(settings, chrf[0], args) if chrf else settings
    with_bleu = "bleu" in args.metrics
    seed = DEFAULT_SEED if args.seed is None else args.seed
    confidence = (BLEU.label,) if args.confidence else ()
    run = run_on_dask(
        args,
        plan_on_dask(args, settings),
        settings,
        (*((BLEU.label,) if with_bleu else ()), *labels),
        keep_rows=confidence,
        poisson=(seed, args.confidence_n),
    )
    names = list(run.plan.layout.systems)
    bleu = None
    if with_bleu:
        held = run.totals.rows if args.confidence and not is_large(run.plan) else run.totals.corpus
        bleu = {name: stats_of(held[(BLEU.label, name)]) for name in names}
    extras: list[tuple[str, Mapping[str, MetricScores]]] = [
        (
            get_spec(label).score_name(settings),
            corpus_scores(run.plan, run.totals, label, settings),
        )
        for label in labels
    ]
    poisson = _poisson_fields(run, bleu, config, settings, args) if confidence else None
    # Each system's path as the one-machine command reports it: its file, or (several
    # systems in one table) its name.
    paths = list(args.hyp) if len(args.hyp) == len(names) else names
    return _Scored(
        names,
        paths,
        bleu,
        settings.tokenize,
        run.plan.layout.n_refs,
        extras,
        poisson=poisson,
    )


def _poisson_fields(
    run: DaskRun,
    bleu: dict[str, SegmentStats] | None,
    config: BleuConfig,
    settings: Settings,
    args: argparse.Namespace,
) -> dict[str, dict[str, Any]] | None:
    """Past the exact limit: each system's Poisson-bootstrap mean, CI and ``bs:poisson``
    signature (None below it: the exact bootstrap runs as without --dask)."""
    from bleuviz.bleu.score import corpus_score
    from bleuviz.cli.dask_options import is_large
    from bleuviz.distributed.run import poisson_samples
    from bleuviz.metrics.bleu_metric import BLEU
    from bleuviz.significance.resampling import DEFAULT_SEED, estimate_ci, paired_signature

    if not is_large(run.plan) or bleu is None:
        return None
    seed = DEFAULT_SEED if args.seed is None else args.seed
    n = args.confidence_n
    print(
        f"bleuviz: note: --confidence past {run.plan.n_segments:,} segments on Dask is a "
        "Poisson bootstrap (bs:poisson), not sacrebleu-identical",
        file=sys.stderr,
    )
    fields = {}
    for name, stats in bleu.items():
        score = corpus_score(stats, config, settings.tokenize, run.plan.layout.n_refs)
        ci = estimate_ci(score.score, poisson_samples(run.totals, BLEU.label, name, settings))
        signature = paired_signature(score.signature, n, 0, seed)
        signature = signature.replace(f"|bs:{n}|", f"|bs:poisson:{n}|", 1)
        fields[name] = {"mean": ci.mean, "ci": ci.ci, "signature": signature}
    return fields


def run_score(args: argparse.Namespace) -> int:
    """Print each system's corpus scores (and sentence scores with --sentence-level)."""
    check_dask_args(args)
    config = bleu_config(args)
    # BLEU's report is its own (precisions, brevity penalty, lengths, CI); the others
    # print a name, a score and a signature.
    with_bleu = "bleu" in args.metrics
    if args.confidence and not with_bleu:
        raise ConfigError("--confidence: bootstrap intervals are for BLEU; add bleu to --metrics")
    scored = _scored_here(args, config) if args.dask is None else _scored_on_dask(args, config)
    extras = scored.extras
    reports: list[tuple[dict[str, Any], BleuScore | None]] = []
    for name, path in zip(scored.names, scored.paths, strict=True):
        report: dict[str, Any] = {"name": name, "path": path}
        score = None
        if scored.bleu is not None:
            score = _bleu_report(report, scored.bleu[name], config, scored, args)
        testset = scored.testset
        if testset is not None and testset.seg_scores:
            report["seg_scores"] = seg_score_means(testset, name)
        if extras:
            report["metrics"] = [
                metric_dict(label, scores[name], args.sentence_level) for label, scores in extras
            ]
        reports.append((report, score))
    if args.format == "json":
        from bleuviz.render.json_stream import write_json

        write_json({"systems": [r for r, _ in reports]}, sys.stdout)
        sys.stdout.write("\n")
    elif args.format == "latex":
        print(_latex([r for r, _ in reports], with_bleu, _digits(extras)))
    else:
        _print_text(reports, _digits(extras))
    return 0


def _digits(extras: list[tuple[str, Mapping[str, MetricScores]]]) -> dict[str, int]:
    """Each metric's decimals (2 on a 0-100 scale, 4 on ROUGE's 0-1), by its printed name."""
    return {name: next(iter(scores.values())).spec.digits for name, scores in extras if scores}


def _bleu_report(
    report: dict[str, Any],
    stats: SegmentStats,
    config: BleuConfig,
    scored: _Scored,
    args: argparse.Namespace,
) -> BleuScore:
    """Add one system's BLEU fields to ``report`` (CI and sentences if asked); return its score."""
    from bleuviz.bleu.score import corpus_score  # BLEU's modules, for BLEU only

    score = corpus_score(stats, config, scored.tokenize, scored.n_refs)
    report |= score_dict(score)
    if args.confidence and scored.poisson is not None:
        report |= scored.poisson[report["name"]]
    elif args.confidence:
        report |= _confidence(stats, config, score, args)
    if args.sentence_level:
        report["sentences"] = _sentences(stats, config)
    return score


def metric_dict(name: str, scores: MetricScores, sentence_level: bool) -> dict[str, Any]:
    """Return the JSON fields of one metric beside BLEU: sacrebleu's name, score, signature."""
    out: dict[str, Any] = {"name": name, "score": scores.corpus, "signature": scores.signature}
    if sentence_level:
        from bleuviz.render.json_stream import LazyArray

        out["sentences"] = LazyArray(partial(_in_chunks, scores.sentence), plain=True)
    return out


def _print_text(
    reports: list[tuple[dict[str, Any], BleuScore | None]], digits: Mapping[str, int]
) -> None:
    """One line per system and metric, then each metric's signature (sacrebleu's style)."""
    for report, score in reports:
        prefix = f"{report['name']}: " if len(reports) > 1 else ""
        if score is not None:
            line = score.format()
            if "ci" in report:  # sacrebleu: "BLEU = 45.28 (μ = 45.27 ± 3.99) 88.5/..."
                head = f"BLEU = {score.score:.2f}"
                mean = f"{head} (μ = {report['mean']:.2f} ± {report['ci']:.2f})"
                line = line.replace(head, mean, 1)
            print(prefix + line)
        for metric in report.get("metrics", []):  # sacrebleu's Score.format(): "chrF2 = 57.70"
            print(f"{prefix}{metric['name']} = {metric['score']:.{digits[metric['name']]}f}")
        for metric, summary in report.get("seg_scores", {}).items():
            mean = "n/a" if summary["mean"] is None else f"{summary['mean']:.4f}"
            better = "lower" if summary["lower_is_better"] else "higher"
            print(
                f"{prefix}{metric} = {mean} (mean of {summary['n']} segments; {better} is better)"
            )
        for i, cells in enumerate(_sentence_cells(report, digits), start=1):
            print(f"  {i}\t" + "\t".join(cells))
    first = reports[0][0]
    if reports[0][1] is not None:
        print(first["signature"])
    for metric in first.get("metrics", []):
        print(f"{metric['name']}|{metric['signature']}")


def _sentence_cells(report: dict[str, Any], digits: Mapping[str, int]) -> Iterator[tuple[str, ...]]:
    """Each segment's "BLEU = x" (and "chrF2 = y", ...) with --sentence-level, one at a time."""
    columns: list[Iterator[str]] = []
    if "sentences" in report:
        columns.append(f"BLEU = {s['bleu']:.2f}" for s in report["sentences"])
    for metric in report.get("metrics", []):
        if "sentences" in metric:
            name = metric["name"]
            columns.append(f"{name} = {v:.{digits[name]}f}" for v in metric["sentences"])
    return zip(*columns, strict=True)


def _confidence(
    stats: SegmentStats, config: BleuConfig, score: BleuScore, args: argparse.Namespace
) -> dict[str, Any]:
    """The bootstrap mean and CI, and the signature with sacrebleu's bs/seed fields."""
    from bleuviz.significance.bleu import bootstrap_ci
    from bleuviz.significance.resampling import DEFAULT_SEED, paired_signature

    seed = DEFAULT_SEED if args.seed is None else args.seed
    ci = bootstrap_ci(stats, config, args.confidence_n, seed)
    signature = paired_signature(score.signature, args.confidence_n, 0, seed)
    return {"mean": ci.mean, "ci": ci.ci, "signature": signature}


def _latex(reports: list[dict[str, Any]], with_bleu: bool, digits: Mapping[str, int]) -> str:
    """A booktabs table of every system's corpus BLEU (and CI, chrF, TER, imported means)."""
    from bleuviz.render.latex import booktabs_table, escape_latex

    confidence = "ci" in reports[0]
    imported = list(reports[0].get("seg_scores", {}))
    metrics = [m["name"] for m in reports[0].get("metrics", [])]
    header = ["System"]
    if with_bleu:
        header += ["BLEU", *(["Mean $\\pm$ 95\\% CI"] if confidence else [])]
        header += ["BP", "Ratio", "Hyp len", "Ref len"]
    header += [*(escape_latex(m) for m in metrics), *(escape_latex(m) for m in imported)]
    rows = []
    for r in reports:
        cells = [escape_latex(r["name"])]
        if with_bleu:
            cells.append(f"{r['bleu']:.2f}")
            if confidence:
                cells.append(f"{r['mean']:.2f} $\\pm$ {r['ci']:.2f}")
            cells += [f"{r['bp']:.3f}", f"{r['ratio']:.3f}", str(r["hyp_len"]), str(r["ref_len"])]
        cells += [f"{m['score']:.{digits[m['name']]}f}" for m in r.get("metrics", [])]
        for m in imported:
            mean = r["seg_scores"].get(m, {}).get("mean")
            cells.append("--" if mean is None else f"{mean:.4f}")
        rows.append(cells)
    align = "l" + "r" * (len(header) - 1)
    notes = [reports[0]["signature"]] if with_bleu else []
    notes += [f"{m['name']}|{m['signature']}" for m in reports[0].get("metrics", [])]
    return booktabs_table(header, rows, align, notes)


def score_dict(score: BleuScore) -> dict[str, Any]:
    """Return the JSON fields of one corpus score."""
    return {
        "bleu": score.score,
        "precisions": list(score.precisions),
        "counts": list(score.counts),
        "totals": list(score.totals),
        "bp": score.bp,
        "ratio": score.ratio,
        "hyp_len": score.hyp_len,
        "ref_len": score.ref_len,
        "signature": score.signature,
    }


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


def _sentences(stats: SegmentStats, config: BleuConfig) -> LazyArray:
    """Every segment's score with sentence-level semantics, made while it is written.

    The scores are computed at once as columns; the per-segment dicts are built
    ``_CHUNK`` segments at a time (``tolist``), so a million segments never sit
    in memory as Python objects.
    """
    from bleuviz.bleu.score import sentence_scores
    from bleuviz.render.json_stream import LazyArray

    arrays = sentence_scores(stats, config)
    k = config.max_order
    ref_len = config.flavor_spec.ref_lengths(stats)
    keys = ("bleu", "counts", "totals", "hyp_len", "ref_len")

    def rows() -> Iterator[dict[str, Any]]:
        for start in range(0, len(arrays.score), _CHUNK):
            part = slice(start, start + _CHUNK)
            columns = zip(
                arrays.score[part].tolist(),
                stats.matches[part, :k].tolist(),
                stats.totals[part, :k].tolist(),
                stats.hyp_len[part].tolist(),
                ref_len[part].tolist(),
                strict=True,
            )
            yield from (dict(zip(keys, row, strict=True)) for row in columns)

    return LazyArray(rows, plain=True)


def _in_chunks(values: FloatArray) -> Iterator[float]:
    """The values as Python floats, converted ``_CHUNK`` at a time."""
    for start in range(0, len(values), _CHUNK):
        yield from values[start : start + _CHUNK].tolist()
