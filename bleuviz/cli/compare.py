"""``python -m bleuviz compare``: paired significance tests against a baseline, or all pairs."""

from __future__ import annotations

import argparse
import sys
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from bleuviz.cli.dask_options import add_dask_options, check_dask_args
from bleuviz.cli.options import (
    add_bleu_options,
    add_input_options,
    add_jobs_option,
    bleu_config,
    cli_evaluation,
    cli_settings,
    load_testset,
    whole_number,
)
from bleuviz.cli.tested import BLEU, TestedMetric, metric_label, tested_metric
from bleuviz.errors import ConfigError
from bleuviz.limits import RESAMPLES, SEEDS, TRIALS
from bleuviz.metrics import SIGNIFICANCE_METRICS
from bleuviz.render.json_stream import dumps
from bleuviz.render.latex import booktabs_table, escape_latex
from bleuviz.render.numbers import fixed
from bleuviz.significance import DEFAULT_SEED, PairedResult
from bleuviz.significance.all_pairs import holm, rank_clusters
from bleuviz.significance.resampling import paired_signature
from bleuviz.significance.resolution import can_reach, needed_resamples, unreachable_note

if TYPE_CHECKING:
    from bleuviz.bleu.config import BleuConfig

#: p-values below this are marked significant.
ALPHA = 0.05
#: sacrebleu's defaults for --paired-bs and --paired-ar.
DEFAULT_BS, DEFAULT_AR = 1000, 10000


def add_compare_parser(commands: Any) -> argparse.ArgumentParser:
    """Add the compare subcommand."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "compare", help="paired bootstrap and approximate randomization against the first --hyp"
    )
    add_input_options(parser)
    add_bleu_options(parser)
    add_jobs_option(parser)
    parser.add_argument(
        "--paired-bs",
        type=whole_number(RESAMPLES.low, RESAMPLES.high),
        metavar="N",
        help=f"bootstrap samples, {RESAMPLES.low} to {RESAMPLES.high:,} (default "
        f"{DEFAULT_BS:,}; with --all-pairs --holm, enough for the correction to reach "
        "p < 0.05: 10 x pairs / 0.05)",
    )
    parser.add_argument(
        "--paired-ar",
        type=whole_number(TRIALS.low, TRIALS.high),
        metavar="N",
        help=f"AR trials, {TRIALS.low} (off) to {TRIALS.high:,} (default {DEFAULT_AR:,}, or "
        "more as for --paired-bs)",
    )
    parser.add_argument(
        "--seed",
        type=whole_number(SEEDS.low, SEEDS.high),
        default=DEFAULT_SEED,
        metavar="N",
        help=f"the resamples' random seed, {SEEDS.low} to {SEEDS.high:,} (default: "
        f"sacrebleu's, {DEFAULT_SEED}); the same seed draws the same resamples",
    )
    parser.add_argument(
        "--metric",
        default=BLEU,
        metavar="NAME",
        help=f"{BLEU} (default), {', '.join(SIGNIFICANCE_METRICS)}, or an imported score's name",
    )
    parser.add_argument(
        "--all-pairs",
        action="store_true",
        help="test every pair of systems and group them into rank clusters",
    )
    parser.add_argument(
        "--holm", action="store_true", help="with --all-pairs: Holm-adjust the p-values"
    )
    add_dask_options(parser, sentence_out=False)
    parser.set_defaults(func=run_compare)
    return parser


def run_compare(args: argparse.Namespace) -> int:
    """Compare every system with the baseline (the first --hyp) and print the table."""
    if args.set is None and len(args.hyp) < 2:
        raise ConfigError("--hyp: compare needs a baseline and at least one more system")
    if args.holm and not args.all_pairs:
        raise ConfigError("--holm: only with --all-pairs")
    check_dask_args(args)
    config = bleu_config(args)
    poisson = False
    if args.dask is None:
        testset, _ = load_testset(args)
        if len(testset.systems) < 2:
            raise ConfigError(f"--set: test set {args.set} has one system; compare needs two")
        names = list(testset.systems)
        label = metric_label(args.metric, [s.name for s in testset.seg_scores])
        args = argparse.Namespace(**{**vars(args), "metric": label})
        args = resolve_resamples(args, len(names) * (len(names) - 1) // 2 if args.holm else 1)
        metric = tested_metric(cli_evaluation(testset, args, config), args)
    else:
        names, args, metric, poisson = _tested_on_dask(args, config)
    results = metric.tester(names[0], names[1:])
    signature = paired_signature(metric.signature, args.paired_bs, args.paired_ar, args.seed)
    if poisson:  # past the exact limit: not sacrebleu's resamples, and the signature says so
        signature = signature.replace(f"|bs:{args.paired_bs}|", f"|bs:poisson:{args.paired_bs}|")
    report = _json(metric, results, signature)
    if args.all_pairs:
        scores, pairs = metric.every_pair()
        pairs = holm(pairs) if args.holm else pairs
        report["pairs"] = [asdict(p) for p in pairs]
        report["clusters"] = rank_clusters(scores, pairs, metric.higher_is_better, ALPHA)
        report["holm"] = bool(args.holm)
    if args.format == "json":
        print(dumps(report))
    elif args.format == "latex":
        print(_latex(metric, results, signature))
    else:
        print("\n".join([*_table(metric, results), *_pairs_table(report), signature]))
    return 0


def _tested_on_dask(
    args: argparse.Namespace, config: BleuConfig
) -> tuple[list[str], argparse.Namespace, TestedMetric, bool]:
    """Score ``--metric`` on Dask: the systems, the resolved counts, the tested metric, and
    whether the corpus is past the exact limit (a Poisson bootstrap, no AR).

    Raises:
        ConfigError: past the exact limit, --paired-ar or --all-pairs given.
    """
    from bleuviz.cli.dask_options import is_large, plan_on_dask, run_on_dask, tested_on_dask
    from bleuviz.metrics.registry import get_spec

    settings = cli_settings(args, config)
    label = get_spec(metric_label(args.metric, ())).label
    plan = plan_on_dask(args, settings)
    names = list(plan.layout.systems)
    if len(names) < 2:
        raise ConfigError(f"--hyp: {plan.paths[0]} holds one system; compare needs two")
    large = is_large(plan)
    if large and (args.all_pairs or args.paired_ar):
        option = "--all-pairs" if args.all_pairs else "--paired-ar"
        raise ConfigError(
            f"{option}: past {plan.n_segments:,} segments Dask runs only the Poisson bootstrap"
        )
    if large:
        args = argparse.Namespace(**{**vars(args), "paired_ar": 0})
        print(
            f"bleuviz: note: {plan.n_segments:,} segments: a Poisson bootstrap (bs:poisson) on "
            "Dask, not sacrebleu-identical; no approximate randomization",
            file=sys.stderr,
        )
    args = resolve_resamples(args, len(names) * (len(names) - 1) // 2 if args.holm else 1)
    run = run_on_dask(args, plan, settings, (label,), (label,), (args.seed, args.paired_bs))
    return names, args, tested_on_dask(run, label, settings, args), large


def resolve_resamples(args: argparse.Namespace, n_tests: int) -> argparse.Namespace:
    """Fill in --paired-bs and --paired-ar; warn when a given count cannot reach ALPHA.

    ``n_tests`` is how many p-values a correction multiplies (the pairs, with
    --holm; else 1). A count left out becomes sacrebleu's default, or enough for
    the correction (``needed_resamples``); a count given is kept, and when its
    smallest p-value times ``n_tests`` cannot fall below ALPHA, stderr says so.
    """
    counts = {}
    for option, given, default, domain in (
        ("--paired-bs", args.paired_bs, DEFAULT_BS, RESAMPLES),
        ("--paired-ar", args.paired_ar, DEFAULT_AR, TRIALS),
    ):
        if given is None:
            count = needed_resamples(n_tests, ALPHA, default)
            if count > default:
                print(
                    f"bleuviz: note: {option} {count:,} (not {default:,}): Holm's correction "
                    f"over {n_tests:,} pairs needs 10 x pairs / {ALPHA:g}",
                    file=sys.stderr,
                )
        else:
            count = domain.check(option, given)
        if count > 0 and not can_reach(count, n_tests, ALPHA):
            print(
                f"bleuviz: warning: {unreachable_note(option, count, n_tests, ALPHA)}",
                file=sys.stderr,
            )
        counts[option] = count
    return argparse.Namespace(
        **{**vars(args), "paired_bs": counts["--paired-bs"], "paired_ar": counts["--paired-ar"]}
    )


def _json(metric: TestedMetric, results: list[PairedResult], signature: str) -> dict[str, Any]:
    """Return the documented JSON shape; a metric's JSON alias repeats the score (BLEU's
    ``bleu``)."""
    baseline = results[0].name
    alias = metric.spec.json_alias

    def row(r: PairedResult) -> dict[str, Any]:
        fields = {"name": r.name, "metric": metric.name, "score": r.score}
        if alias is not None:
            fields[alias] = r.score
        return {**fields, "mean": r.mean, "ci": r.ci, "n": metric.used(baseline, r.name)}

    base, *others = results
    return {
        "metric": metric.name,
        "signature": signature,
        "baseline": row(base),
        "systems": [
            {**row(r), "p_value_bs": r.p_value_bs, "p_value_ar": r.p_value_ar} for r in others
        ],
    }


def _p(value: float | None) -> str:
    """A p-value with four decimals and its own star when below ALPHA."""
    if value is None:
        return ""
    return f"{value:.4f}" + ("*" if value < ALPHA else " ")


def _table(metric: TestedMetric, results: list[PairedResult]) -> list[str]:
    """Return sacrebleu-style lines: score, mean ± CI, and each p-value with its own star."""
    width = max(len(r.name) for r in results)
    d = metric.digits
    lines = [
        f"{'system':<{width}}  {metric.name:>8}  {'mean ± 95% CI':>18}  "
        f"{'p (bs)':>8}  {'p (ar)':>8}"
    ]
    for r in results:
        ci = f"{fixed(r.mean, d):>8} ± {fixed(r.ci, d):>7}"
        p_bs, p_ar = _p(r.p_value_bs), _p(r.p_value_ar)
        lines.append(f"{r.name:<{width}}  {fixed(r.score, d):>8}  {ci}  {p_bs:>8}  {p_ar:>8}")
    lines.append(
        f"* after a p-value: p < {ALPHA} by that test, significantly different from the "
        "baseline (first row)"
    )
    return lines


def _pairs_table(report: dict[str, Any]) -> list[str]:
    """With --all-pairs: one line a pair, then the rank clusters."""
    if "pairs" not in report:
        return []
    adjusted = f" (Holm-adjusted over {len(report['pairs']):,} pairs)" if report["holm"] else ""
    lines = ["", f"All pairs{adjusted}: diff = b − a"]
    for pair in report["pairs"]:
        lines.append(
            f"  {pair['a']} vs {pair['b']}: diff {fixed(pair['diff'], 4, sign=True)}  "
            f"p (bs) {_p(pair['p_value_bs'])}  p (ar) {_p(pair['p_value_ar'])}"
        )
    lines.append(
        "Rank clusters (a system leaves its cluster when significantly worse than its best):"
    )
    lines += [f"  {i}. {', '.join(c)}" for i, c in enumerate(report["clusters"], start=1)]
    return lines


def _latex(metric: TestedMetric, results: list[PairedResult], signature: str) -> str:
    """A booktabs table of the comparison, the signature as a comment."""
    d = metric.digits

    def p(value: float | None) -> str:
        if value is None:
            return "--"
        return f"{value:.4f}" + ("$^{*}$" if value < ALPHA else "")

    rows = [
        [
            escape_latex(r.name),
            fixed(r.score, d),
            f"{fixed(r.mean, d)} $\\pm$ {fixed(r.ci, d)}",
            p(r.p_value_bs),
            p(r.p_value_ar),
        ]
        for r in results
    ]
    header = ["System", escape_latex(metric.name), "Mean $\\pm$ 95\\% CI", "$p$ (bs)", "$p$ (ar)"]
    comments = [
        signature,
        f"* p < {ALPHA}: significantly different from the baseline {results[0].name}",
    ]
    return booktabs_table(header, rows, "lrrrr", comments)
