"""``python -m bleuviz compare``: paired significance tests against a baseline."""

from __future__ import annotations

import argparse
import json
from typing import Any

from bleuviz.bleu import BleuConfig
from bleuviz.bleu.corpus import CorpusStats
from bleuviz.cli.options import add_bleu_options, add_input_options, bleu_config, load_corpus
from bleuviz.errors import ConfigError
from bleuviz.metrics import SIGNIFICANCE_METRICS, paired_test_metric, score_metric
from bleuviz.metrics.imported import imported_scores
from bleuviz.significance import DEFAULT_SEED, PairedResult, compare_systems
from bleuviz.significance.mean import compare_means
from bleuviz.significance.sacrebleu_metrics import compare_systems_metric

#: The metric compare tests unless --metric names another.
BLEU = "BLEU"


def add_compare_parser(commands: Any) -> argparse.ArgumentParser:
    """Add the compare subcommand."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "compare", help="paired bootstrap and approximate randomization against the first --hyp"
    )
    add_input_options(parser)
    add_bleu_options(parser)
    parser.add_argument(
        "--paired-bs", type=int, default=1000, metavar="N", help="bootstrap samples"
    )
    parser.add_argument(
        "--paired-ar", type=int, default=10000, metavar="N", help="AR trials (0: off)"
    )
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument(
        "--metric",
        default=BLEU,
        metavar="NAME",
        help=f"{BLEU} (default), {', '.join(SIGNIFICANCE_METRICS)}, or an imported score's name",
    )
    parser.set_defaults(func=run_compare)
    return parser


def run_compare(args: argparse.Namespace) -> int:
    """Compare every system with the baseline (the first --hyp) and print the table."""
    if len(args.hyp) < 2:
        raise ConfigError("--hyp: compare needs a baseline and at least one more system")
    if args.paired_bs < 1 or args.paired_ar < 0:
        raise ConfigError("--paired-bs must be at least 1 and --paired-ar at least 0")
    config = bleu_config(args)
    corpus, _ = load_corpus(args, config)
    rows = _compared(corpus, config, args)
    if args.format == "json":
        print(json.dumps(_json(args.metric, rows), indent=2, ensure_ascii=False))
    else:
        print("\n".join(_table(args.metric, [r for r, _ in rows])))
    return 0


def _compared(
    corpus: CorpusStats, config: BleuConfig, args: argparse.Namespace
) -> list[tuple[PairedResult, int]]:
    """Run the paired tests on the chosen metric; each row with the segments it used."""
    names = list(corpus.systems)
    n = corpus.testset.n_segments
    tests = {"n_bootstrap": args.paired_bs, "n_ar": args.paired_ar, "seed": args.seed}
    if args.metric == BLEU:
        stats = corpus.systems
        base, others = stats[names[0]], {name: stats[name] for name in names[1:]}
        return [(r, n) for r in compare_systems(names[0], base, others, config, **tests)]
    if args.metric in SIGNIFICANCE_METRICS:
        testset, lowercase = corpus.testset, bool(args.lowercase)
        matrices = {
            name: score_metric(
                args.metric, testset.systems[name], testset.references, lowercase
            ).statistics()
            for name in names
        }
        metric = paired_test_metric(args.metric, lowercase)
        rest = {name: matrices[name] for name in names[1:]}
        results = compare_systems_metric(names[0], matrices[names[0]], rest, metric, **tests)
        return [(r, n) for r in results]
    scores = corpus.testset.seg_score(args.metric)
    values = {name: imported_scores(scores, name).sentence for name in names}
    compared = compare_means(
        names[0], values[names[0]], {name: values[name] for name in names[1:]}, **tests
    )
    return [(c.result, c.n_segments) for c in compared]


def _json(metric: str, rows: list[tuple[PairedResult, int]]) -> dict[str, Any]:
    """Return the documented JSON shape; BLEU rows keep their ``bleu`` key."""

    def row(r: PairedResult, n: int) -> dict[str, Any]:
        fields = {"name": r.name, "metric": metric, "score": r.score}
        if metric == BLEU:
            fields["bleu"] = r.score
        return {**fields, "mean": r.mean, "ci": r.ci, "n": n}

    (base, n_base), *others = rows
    return {
        "metric": metric,
        "baseline": row(base, n_base),
        "systems": [
            {**row(r, n), "p_value_bs": r.p_value_bs, "p_value_ar": r.p_value_ar} for r, n in others
        ],
    }


def _table(metric: str, results: list[PairedResult]) -> list[str]:
    """Return sacrebleu-style lines: score, mean ± CI, p-values and a marker for p < 0.05."""
    width = max(len(r.name) for r in results)
    lines = [
        f"{'system':<{width}}  {metric:>8}  {'mean ± 95% CI':>18}  {'p (bs)':>7}  {'p (ar)':>7}"
    ]
    for r in results:
        p_bs = "" if r.p_value_bs is None else f"{r.p_value_bs:.4f}"
        p_ar = "" if r.p_value_ar is None else f"{r.p_value_ar:.4f}"
        significant = [p for p in (r.p_value_bs, r.p_value_ar) if p is not None]
        mark = " *" if significant and min(significant) < 0.05 else ""
        digits = 2 if metric == BLEU or metric in SIGNIFICANCE_METRICS else 4
        ci = f"{r.mean:8.{digits}f} ± {r.ci:7.{digits}f}"
        lines.append(f"{r.name:<{width}}  {r.score:8.{digits}f}  {ci}  {p_bs:>7}  {p_ar:>7}{mark}")
    lines.append("* p < 0.05: significantly different from the baseline (first row)")
    return lines
