"""Which metric ``compare`` tests: the registry's metric of ``--metric``, scored and tested."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bleuviz.cli.ticker import terminal_progress
from bleuviz.errors import InputError
from bleuviz.metrics import SIGNIFICANCE_METRICS
from bleuviz.metrics.bleu_metric import BLEU as BLEU_METRIC
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.metrics.spec import MetricScores, MetricSpec

if TYPE_CHECKING:
    from bleuviz.significance.all_pairs import PairTest, Tester

#: The metric compare tests unless --metric names another.
BLEU = BLEU_METRIC.label


@dataclass(frozen=True, slots=True, eq=False)
class TestedMetric:
    """A metric ready for paired tests.

    Attributes:
        spec: the registry's metric.
        scores: every system's scores, in load order.
        tester: runs a baseline against systems (baseline row first).
        used: how many segments a (baseline, system) pair is tested on (all but
            for imported scores, which may lack some); (baseline, baseline) counts
            the baseline's own.
        signature: the metric's own signature (without the tests).
        every_pair: tests every pair (a before b in load order); returns each
            system's score and the pairs.
    """

    __test__ = False

    spec: MetricSpec
    scores: Mapping[str, MetricScores]
    tester: Tester
    used: Callable[[str, str], int]
    signature: str
    every_pair: Callable[[], tuple[dict[str, float], list[PairTest]]]

    @property
    def name(self) -> str:
        """The metric's name, as the user named it."""
        return self.spec.label

    @property
    def higher_is_better(self) -> bool:
        """False for TER and error scores."""
        return self.spec.higher_is_better

    @property
    def digits(self) -> int:
        """Decimals to print (2 for BLEU, chrF, TER; 4 for imported scores)."""
        return self.spec.digits


def metric_label(name: str, imported: Collection[str]) -> str:
    """Return ``--metric`` as the registry labels it: an imported score by its exact name,
    a metric bleuviz computes in any case (``chrf++``, as ``score -m`` spells it).

    Raises:
        InputError: neither (the message lists both kinds).
    """
    from bleuviz.metrics.registry import METRICS

    if name in METRICS or name in imported:
        return name
    by_case = {label.lower(): label for label in METRICS}
    if name.lower() in by_case:
        return by_case[name.lower()]
    known = ", ".join(imported) or "none imported"
    raise InputError(
        f"--metric: no metric {name!r}; choose from {', '.join((BLEU, *SIGNIFICANCE_METRICS))} "
        f"or an imported score ({known})"
    )


def tested_metric(evaluation: Evaluation, args: argparse.Namespace) -> TestedMetric:
    """Score ``--metric`` and build its tester with the --paired-bs/--paired-ar/--seed settings.

    Raises:
        ConfigError: ``--metric`` is neither a metric bleuviz computes nor an imported one.
    """
    # Imported here: the command line imports this module to build its parser.
    from bleuviz.significance.by_metric import pair_tester, segments_tested, tested_pairs

    spec, settings = evaluation.metric(args.metric), evaluation.settings
    with terminal_progress(spec.label) as progress:
        scores = evaluation.scores(args.metric, progress=progress)
    counts = (args.paired_bs, args.paired_ar, args.seed)
    test = pair_tester(spec, settings, scores, *counts)

    def used(baseline: str, system: str) -> int:
        return segments_tested(spec, scores[baseline], scores[system])

    def every_pair() -> tuple[dict[str, float], list[PairTest]]:
        return tested_pairs(spec, settings, scores, *counts)

    first = scores[evaluation.testset.system_names[0]].signature
    return TestedMetric(spec, scores, test, used, first, every_pair)
