"""Which metric ``compare`` tests, and how: one paired-test runner per metric family."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bleuviz.metrics import SIGNIFICANCE_METRICS, get_spec, paired_test_metric, score_metric
from bleuviz.metrics.imported import imported_scores
from bleuviz.significance.mean import both_scored, compare_means
from bleuviz.significance.sacrebleu_metrics import compare_systems_metric

if TYPE_CHECKING:
    from bleuviz.bleu.config import BleuConfig
    from bleuviz.bleu.corpus import CorpusStats
    from bleuviz.significance.all_pairs import Tester
    from bleuviz.significance.resampling import PairedResult

#: The metric compare tests unless --metric names another.
BLEU = "BLEU"


@dataclass(frozen=True, slots=True, eq=False)
class TestedMetric:
    """A metric ready for paired tests.

    Attributes:
        name: as the user named it.
        tester: runs a baseline against systems (baseline row first).
        used: how many segments a (baseline, system) pair is tested on (all but
            for imported scores, which may lack some); (baseline, baseline) counts
            the baseline's own.
        signature: the metric's own signature (without the tests).
        higher_is_better: False for TER and error scores.
        digits: decimals to print (2 for BLEU, chrF, TER; 4 for imported scores).
    """

    __test__ = False

    name: str
    tester: Tester
    used: Callable[[str, str], int]
    signature: str
    higher_is_better: bool
    digits: int


def tested_metric(
    corpus: CorpusStats, config: BleuConfig, args: argparse.Namespace
) -> TestedMetric:
    """Build the tester of ``--metric`` with the --paired-bs/--paired-ar/--seed settings."""
    tests = {"n_bootstrap": args.paired_bs, "n_ar": args.paired_ar, "seed": args.seed}
    testset, names = corpus.testset, list(corpus.systems)

    def every(baseline: str, system: str) -> int:
        return testset.n_segments

    if args.metric == BLEU:
        # Imported here: BLEU's modules need pyarrow, and the command line imports this
        # module to build its parser.
        from bleuviz.bleu.score import corpus_score
        from bleuviz.significance.bleu import compare_systems

        stats = corpus.systems

        def bleu(baseline: str, others: Sequence[str]) -> list[PairedResult]:
            rest = {name: stats[name] for name in others}
            return compare_systems(baseline, stats[baseline], rest, config, **tests)

        score = corpus_score(stats[names[0]], config, corpus.tokenize, corpus.n_refs)
        return TestedMetric(BLEU, bleu, every, score.signature, True, 2)
    if args.metric in SIGNIFICANCE_METRICS:
        lowercase = bool(args.lowercase)
        scored = {
            name: score_metric(args.metric, testset.systems[name], testset.references, lowercase)
            for name in names
        }
        metric = paired_test_metric(args.metric, lowercase)

        def sacrebleu(baseline: str, others: Sequence[str]) -> list[PairedResult]:
            rest = {name: scored[name].statistics() for name in others}
            base = scored[baseline].statistics()
            return compare_systems_metric(baseline, base, rest, metric, **tests)

        spec = get_spec(args.metric)
        first = scored[names[0]].signature
        return TestedMetric(args.metric, sacrebleu, every, first, spec.higher_is_better, 2)
    scores = testset.seg_score(args.metric)
    values = {name: imported_scores(scores, name) for name in names}

    def means(baseline: str, others: Sequence[str]) -> list[PairedResult]:
        rest = {name: values[name].sentence for name in others}
        compared = compare_means(baseline, values[baseline].sentence, rest, **tests)
        return [c.result for c in compared]

    def used(baseline: str, system: str) -> int:
        both = both_scored(values[baseline].sentence, values[system].sentence)
        return int(both.sum())

    first = values[names[0]].signature
    return TestedMetric(args.metric, means, used, first, not scores.lower_is_better, 4)
