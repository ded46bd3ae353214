"""``python -m bleuviz compare``: paired significance tests against a baseline."""

from __future__ import annotations

import argparse
import json
from typing import Any

from bleuviz.cli.options import add_bleu_options, add_input_options, bleu_config, load_corpus
from bleuviz.errors import ConfigError
from bleuviz.significance import DEFAULT_SEED, PairedResult, compare_systems


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
    names = list(corpus.systems)
    results = compare_systems(
        names[0],
        corpus.systems[names[0]],
        {name: corpus.systems[name] for name in names[1:]},
        config,
        n_bootstrap=args.paired_bs,
        n_ar=args.paired_ar,
        seed=args.seed,
    )
    if args.format == "json":
        print(json.dumps(_json(results), indent=2, ensure_ascii=False))
    else:
        print("\n".join(_table(results)))
    return 0


def _json(results: list[PairedResult]) -> dict[str, Any]:
    """Return the documented JSON shape."""
    base, *others = results
    return {
        "baseline": {"name": base.name, "bleu": base.score, "mean": base.mean, "ci": base.ci},
        "systems": [
            {
                "name": r.name,
                "bleu": r.score,
                "mean": r.mean,
                "ci": r.ci,
                "p_value_bs": r.p_value_bs,
                "p_value_ar": r.p_value_ar,
            }
            for r in others
        ],
    }


def _table(results: list[PairedResult]) -> list[str]:
    """Return sacrebleu-style lines: score, mean ± CI, p-values and a marker for p < 0.05."""
    width = max(len(r.name) for r in results)
    lines = [
        f"{'system':<{width}}  {'BLEU':>6}  {'mean ± 95% CI':>16}  {'p (bs)':>7}  {'p (ar)':>7}"
    ]
    for r in results:
        p_bs = "" if r.p_value_bs is None else f"{r.p_value_bs:.4f}"
        p_ar = "" if r.p_value_ar is None else f"{r.p_value_ar:.4f}"
        significant = [p for p in (r.p_value_bs, r.p_value_ar) if p is not None]
        mark = " *" if significant and min(significant) < 0.05 else ""
        ci = f"{r.mean:7.2f} ± {r.ci:5.2f}"
        lines.append(f"{r.name:<{width}}  {r.score:6.2f}  {ci}  {p_bs:>7}  {p_ar:>7}{mark}")
    lines.append("* p < 0.05: significantly different from the baseline (first row)")
    return lines
