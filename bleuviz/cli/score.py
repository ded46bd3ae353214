"""``python -m bleuviz score``: corpus (and sentence) BLEU, chrF and TER of each system."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Mapping
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

from bleuviz.cli.options import (
    SCORE_METRICS,
    add_bleu_options,
    add_input_options,
    add_metric_options,
    bleu_config,
    chrf_config,
    cli_evaluation,
    load_testset,
    ter_config,
    whole_number,
)
from bleuviz.errors import ConfigError
from bleuviz.io.testset import TestSet
from bleuviz.limits import MAX_RESAMPLES, MAX_SEED
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.metrics.imported import imported_scores
from bleuviz.metrics.registry import METRICS
from bleuviz.metrics.spec import MetricScores
from bleuviz.metrics.ter_config import TerConfig

# The JSON and LaTeX writers are imported where those formats are written, and
# the resampling where a confidence interval is asked for: the text output of
# corpus scores, the default, never loads them.
if TYPE_CHECKING:
    from bleuviz.arrays import FloatArray
    from bleuviz.bleu.config import BleuConfig
    from bleuviz.bleu.corpus import CorpusStats
    from bleuviz.bleu.result import BleuScore
    from bleuviz.bleu.stats import SegmentStats
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
        type=whole_number(1, MAX_RESAMPLES),
        default=1000,
        metavar="N",
        help=f"bootstrap resamples (1 to {MAX_RESAMPLES:,})",
    )
    parser.add_argument(
        "--seed",
        type=whole_number(0, MAX_SEED),
        help="bootstrap seed (default: sacrebleu's, 12345)",
    )
    parser.set_defaults(func=run_score)
    return parser


def _evaluation(args: argparse.Namespace, testset: TestSet, config: BleuConfig) -> Evaluation:
    """The test set under the options: BLEU's, ``--chrf-*`` and ``--ter-*``."""
    evaluation = cli_evaluation(testset, args, config)
    return evaluation.with_settings(
        replace(
            evaluation.settings,
            chrf=chrf_config(args) if "chrf" in args.metrics else None,
            ter=ter_config(args) if "ter" in args.metrics else TerConfig(),
        )
    )


def _extra_scores(
    evaluation: Evaluation, names: list[str]
) -> list[tuple[str, Mapping[str, MetricScores]]]:
    """Each metric ``names`` names: sacrebleu's name for it, every system's scores."""
    labels = {label.casefold(): label for label in METRICS}
    chosen = [labels[name] for name in SCORE_METRICS if name in names]
    return [
        (evaluation.metric(label).score_name(evaluation.settings), evaluation.scores(label))
        for label in chosen
    ]


def run_score(args: argparse.Namespace) -> int:
    """Print each system's corpus scores (and sentence scores with --sentence-level)."""
    config = bleu_config(args)
    # BLEU's report is its own (precisions, brevity penalty, lengths, CI); the others
    # print a name, a score and a signature.
    with_bleu = "bleu" in args.metrics
    beside = [name for name in args.metrics if name != "bleu"]
    if args.confidence and not with_bleu:
        raise ConfigError("--confidence: bootstrap intervals are for BLEU; add bleu to --metrics")
    testset, paths = load_testset(args)
    evaluation = _evaluation(args, testset, config)
    extras = _extra_scores(evaluation, beside)
    corpus = evaluation.bleu_statistics() if with_bleu else None
    reports: list[tuple[dict[str, Any], BleuScore | None]] = []
    for name, path in zip(testset.systems, paths, strict=True):
        report: dict[str, Any] = {"name": name, "path": path}
        score = None
        if corpus is not None:
            score = _bleu_report(report, corpus.systems[name], config, corpus, args)
        if testset.seg_scores:
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
        print(_latex([r for r, _ in reports], with_bleu))
    else:
        _print_text(reports)
    return 0


def _bleu_report(
    report: dict[str, Any],
    stats: SegmentStats,
    config: BleuConfig,
    corpus: CorpusStats,
    args: argparse.Namespace,
) -> BleuScore:
    """Add one system's BLEU fields to ``report`` (CI and sentences if asked); return its score."""
    from bleuviz.bleu.score import corpus_score  # BLEU's modules, for BLEU only

    score = corpus_score(stats, config, corpus.tokenize, corpus.n_refs)
    report |= score_dict(score)
    if args.confidence:
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


def _print_text(reports: list[tuple[dict[str, Any], BleuScore | None]]) -> None:
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
            print(f"{prefix}{metric['name']} = {metric['score']:.2f}")
        for metric, summary in report.get("seg_scores", {}).items():
            mean = "n/a" if summary["mean"] is None else f"{summary['mean']:.4f}"
            better = "lower" if summary["lower_is_better"] else "higher"
            print(
                f"{prefix}{metric} = {mean} (mean of {summary['n']} segments; {better} is better)"
            )
        for i, cells in enumerate(_sentence_cells(report), start=1):
            print(f"  {i}\t" + "\t".join(cells))
    first = reports[0][0]
    if reports[0][1] is not None:
        print(first["signature"])
    for metric in first.get("metrics", []):
        print(f"{metric['name']}|{metric['signature']}")


def _sentence_cells(report: dict[str, Any]) -> Iterator[tuple[str, ...]]:
    """Each segment's "BLEU = x" (and "chrF2 = y", ...) with --sentence-level, one at a time."""
    columns: list[Iterator[str]] = []
    if "sentences" in report:
        columns.append(f"BLEU = {s['bleu']:.2f}" for s in report["sentences"])
    for metric in report.get("metrics", []):
        if "sentences" in metric:
            name = metric["name"]
            columns.append(f"{name} = {v:.2f}" for v in metric["sentences"])
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


def _latex(reports: list[dict[str, Any]], with_bleu: bool) -> str:
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
        cells += [f"{m['score']:.2f}" for m in r.get("metrics", [])]
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
