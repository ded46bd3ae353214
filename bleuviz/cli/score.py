"""``python -m bleuviz score``: corpus (and sentence) BLEU of each system."""

from __future__ import annotations

import argparse
import json
from typing import Any

from bleuviz.bleu import BleuConfig, corpus_score, sentence_scores, to_score
from bleuviz.bleu.result import BleuScore
from bleuviz.bleu.signature import signature
from bleuviz.cli.options import add_bleu_options, add_input_options, bleu_config, load_corpus
from bleuviz.io.testset import TestSet
from bleuviz.metrics.imported import imported_scores


def add_score_parser(commands: Any) -> argparse.ArgumentParser:
    """Add the score subcommand."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "score", help="corpus (and sentence) BLEU of each system"
    )
    add_input_options(parser)
    add_bleu_options(parser)
    parser.add_argument("--sentence-level", action="store_true", help="also score every segment")
    parser.set_defaults(func=run_score)
    return parser


def run_score(args: argparse.Namespace) -> int:
    """Print each system's corpus BLEU (and sentence BLEU with --sentence-level)."""
    config = bleu_config(args)
    corpus, paths = load_corpus(args, config)
    reports = []
    for (name, stats), path in zip(corpus.systems.items(), paths, strict=True):
        score = corpus_score(stats, config, corpus.tokenize, corpus.n_refs)
        report = {"name": name, "path": path, **score_dict(score)}
        if corpus.testset.seg_scores:
            report["seg_scores"] = seg_score_means(corpus.testset, name)
        if args.sentence_level:
            report["sentences"] = _sentences(stats, config, corpus.tokenize, corpus.n_refs)
        reports.append((report, score))
    if args.format == "json":
        print(json.dumps({"systems": [r for r, _ in reports]}, indent=2, ensure_ascii=False))
        return 0
    for report, score in reports:
        prefix = f"{report['name']}: " if len(reports) > 1 else ""
        print(prefix + score.format())
        for metric, summary in report.get("seg_scores", {}).items():
            mean = "n/a" if summary["mean"] is None else f"{summary['mean']:.4f}"
            better = "lower" if summary["lower_is_better"] else "higher"
            print(
                f"{prefix}{metric} = {mean} (mean of {summary['n']} segments; {better} is better)"
            )
        for i, sentence in enumerate(report.get("sentences", []), start=1):
            print(f"  {i}\tBLEU = {sentence['bleu']:.2f}")
    print(reports[0][1].signature)
    return 0


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


def _sentences(stats: Any, config: BleuConfig, tokenize: Any, n_refs: int) -> list[dict[str, Any]]:
    """Return every segment's score with sentence-level semantics."""
    arrays = sentence_scores(stats, config)
    sig = signature(config.for_sentences(), tokenize, n_refs)
    out = []
    for row in range(len(stats)):
        s = to_score(arrays, stats, config, sig, row)
        out.append(
            {
                "bleu": s.score,
                "counts": list(s.counts),
                "totals": list(s.totals),
                "hyp_len": s.hyp_len,
                "ref_len": s.ref_len,
            }
        )
    return out
