"""``python -m bleuviz score``: corpus (and sentence) BLEU of each system."""

from __future__ import annotations

import argparse
import json
from typing import Any

from bleuviz.bleu import BleuConfig, corpus_score, sentence_scores
from bleuviz.bleu.result import BleuScore
from bleuviz.bleu.stats import SegmentStats
from bleuviz.cli.options import add_bleu_options, add_input_options, bleu_config, load_corpus
from bleuviz.errors import ConfigError
from bleuviz.io.testset import TestSet
from bleuviz.metrics.imported import imported_scores
from bleuviz.render.latex import booktabs_table, escape_latex
from bleuviz.significance import DEFAULT_SEED, bootstrap_ci
from bleuviz.significance.resampling import paired_signature


def add_score_parser(commands: Any) -> argparse.ArgumentParser:
    """Add the score subcommand."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "score", help="corpus (and sentence) BLEU of each system"
    )
    add_input_options(parser)
    add_bleu_options(parser)
    parser.add_argument("--sentence-level", action="store_true", help="also score every segment")
    parser.add_argument(
        "--confidence",
        action="store_true",
        help="each system's bootstrap mean and 95%% CI, as sacrebleu's --confidence",
    )
    parser.add_argument(
        "--confidence-n", type=int, default=1000, metavar="N", help="bootstrap resamples"
    )
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="bootstrap seed")
    parser.set_defaults(func=run_score)
    return parser


def run_score(args: argparse.Namespace) -> int:
    """Print each system's corpus BLEU (and sentence BLEU with --sentence-level)."""
    config = bleu_config(args)
    if args.confidence and args.confidence_n < 1:
        raise ConfigError(f"--confidence-n: must be at least 1, got {args.confidence_n}")
    corpus, paths = load_corpus(args, config)
    reports = []
    for (name, stats), path in zip(corpus.systems.items(), paths, strict=True):
        score = corpus_score(stats, config, corpus.tokenize, corpus.n_refs)
        report = {"name": name, "path": path, **score_dict(score)}
        if args.confidence:
            report |= _confidence(stats, config, score, args)
        if corpus.testset.seg_scores:
            report["seg_scores"] = seg_score_means(corpus.testset, name)
        if args.sentence_level:
            report["sentences"] = _sentences(stats, config)
        reports.append((report, score))
    if args.format == "json":
        print(json.dumps({"systems": [r for r, _ in reports]}, indent=2, ensure_ascii=False))
        return 0
    if args.format == "latex":
        print(_latex([r for r, _ in reports]))
        return 0
    for report, score in reports:
        prefix = f"{report['name']}: " if len(reports) > 1 else ""
        line = score.format()
        if "ci" in report:  # sacrebleu: "BLEU = 45.28 (μ = 45.27 ± 3.99) 88.5/..."
            head = f"BLEU = {score.score:.2f}"
            line = line.replace(head, f"{head} (μ = {report['mean']:.2f} ± {report['ci']:.2f})", 1)
        print(prefix + line)
        for metric, summary in report.get("seg_scores", {}).items():
            mean = "n/a" if summary["mean"] is None else f"{summary['mean']:.4f}"
            better = "lower" if summary["lower_is_better"] else "higher"
            print(
                f"{prefix}{metric} = {mean} (mean of {summary['n']} segments; {better} is better)"
            )
        for i, sentence in enumerate(report.get("sentences", []), start=1):
            print(f"  {i}\tBLEU = {sentence['bleu']:.2f}")
    print(reports[0][0]["signature"])
    return 0


def _confidence(
    stats: SegmentStats, config: BleuConfig, score: BleuScore, args: argparse.Namespace
) -> dict[str, Any]:
    """The bootstrap mean and CI, and the signature with sacrebleu's bs/seed fields."""
    ci = bootstrap_ci(stats, config, args.confidence_n, args.seed)
    signature = paired_signature(score.signature, args.confidence_n, 0, args.seed)
    return {"mean": ci.mean, "ci": ci.ci, "signature": signature}


def _latex(reports: list[dict[str, Any]]) -> str:
    """A booktabs table of every system's corpus BLEU (and CI, imported means)."""
    confidence = "ci" in reports[0]
    imported = list(reports[0].get("seg_scores", {}))
    header = ["System", "BLEU", *(["Mean $\\pm$ 95\\% CI"] if confidence else [])]
    header += ["BP", "Ratio", "Hyp len", "Ref len", *(escape_latex(m) for m in imported)]
    rows = []
    for r in reports:
        cells = [escape_latex(r["name"]), f"{r['bleu']:.2f}"]
        if confidence:
            cells.append(f"{r['mean']:.2f} $\\pm$ {r['ci']:.2f}")
        cells += [f"{r['bp']:.3f}", f"{r['ratio']:.3f}", str(r["hyp_len"]), str(r["ref_len"])]
        for m in imported:
            mean = r["seg_scores"].get(m, {}).get("mean")
            cells.append("--" if mean is None else f"{mean:.4f}")
        rows.append(cells)
    align = "l" + "r" * (len(header) - 1)
    return booktabs_table(header, rows, align, [reports[0]["signature"]])


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


def _sentences(stats: SegmentStats, config: BleuConfig) -> list[dict[str, Any]]:
    """Return every segment's score with sentence-level semantics.

    Built column by column (``tolist``): the same numbers ``to_score`` gives
    one row at a time, without a Python call per segment.
    """
    arrays = sentence_scores(stats, config)
    k = config.max_order
    columns = zip(
        arrays.score.tolist(),
        stats.matches[:, :k].tolist(),
        stats.totals[:, :k].tolist(),
        stats.hyp_len.tolist(),
        config.flavor_spec.ref_lengths(stats).tolist(),
        strict=True,
    )
    keys = ("bleu", "counts", "totals", "hyp_len", "ref_len")
    return [dict(zip(keys, row, strict=True)) for row in columns]
