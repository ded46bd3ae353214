"""Paired tests of any metric: the one place that says which test a metric gets.

A metric whose rows are statistics that sum (BLEU, chrF, chrF++, TER) is tested
as sacrebleu's ``PairedTest`` tests it: resampled sums scored by the metric's own
resampler (:func:`bleuviz.significance.paired.paired_tests`). Imported scores
(COMET, human judgements) have no statistics: their means are compared on the
segments both systems score (:mod:`bleuviz.significance.mean`). The command
line's ``compare``, the Compare page and its buckets all call :func:`paired_test`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bleuviz.errors import ConfigError
from bleuviz.metrics.spec import MetricScores, MetricSpec, Settings
from bleuviz.progress import Progress
from bleuviz.significance.all_pairs import PairTest, Tester, all_pairs
from bleuviz.significance.mean import both_scored, compare_means
from bleuviz.significance.paired import check_counts, check_segments, paired_tests
from bleuviz.significance.resampling import DEFAULT_SEED, PairedResult
from bleuviz.significance.shared_pairs import exact_sums, shared_pairs


def paired_test(
    metric: MetricSpec,
    settings: Settings,
    baseline: str,
    scores: Mapping[str, MetricScores],
    n_bootstrap: int = 1000,
    n_ar: int = 10000,
    seed: int | None = DEFAULT_SEED,
    progress: Progress | None = None,
) -> list[PairedResult]:
    """Compare every system of ``scores`` with ``baseline`` (baseline first), as sacrebleu does.

    Args:
        metric: the metric ``scores`` hold.
        settings: the settings they were scored with (the resampler reads them).
        baseline: the name of the baseline, a key of ``scores``.
        scores: name -> that system's scores, the baseline's among them; the others
            are tested in this order.
        n_bootstrap: bootstrap samples for the CIs and the paired bootstrap p-value.
        n_ar: approximate randomization trials; 0 leaves ``p_value_ar`` None.
        seed: seed of both tests (each starts from a fresh generator).
        progress: told which test is running and how far it is.

    Raises:
        ConfigError: the metric has no paired test, or a count or the seed is out
            of range.
        InputError: a system has another number of segments, or (imported scores)
            no segment is scored by both systems.
    """
    check_counts(n_bootstrap, "n_bootstrap", seed, n_ar)
    others = [name for name in scores if name != baseline]
    if metric.paired_tests:
        named = [(name, scores[name].statistics()) for name in [baseline, *others]]
        check_segments([(name, len(matrix)) for name, matrix in named])
        resampler = metric.resampler(settings, named[0][1])
        return paired_tests(named, resampler, n_bootstrap, n_ar, seed, progress)
    if metric.imported:
        rest = {name: scores[name].sentence for name in others}
        compared = compare_means(
            baseline, scores[baseline].sentence, rest, n_bootstrap, n_ar, seed, progress
        )
        return [c.result for c in compared]
    raise ConfigError(f"metric: {metric.label} has no paired test")


def has_paired_test(metric: MetricSpec) -> bool:
    """Whether ``paired_test`` tests ``metric``: by its own resampler, or (imported) by means."""
    return bool(metric.paired_tests or metric.imported)


def segments_tested(metric: MetricSpec, a: MetricScores, b: MetricScores) -> int:
    """How many segments a test of ``a`` against ``b`` uses (imported: both scored)."""
    if metric.imported:
        return int(both_scored(a.sentence, b.sentence).sum())
    return len(a.sentence)


def pair_tester(
    metric: MetricSpec,
    settings: Settings,
    scores: Mapping[str, MetricScores],
    n_bootstrap: int,
    n_ar: int,
    seed: int | None,
    progress: Progress | None = None,
) -> Tester:
    """Return a baseline-against-systems test of ``scores`` for ``all_pairs`` (baseline first)."""

    def test(baseline: str, others: Sequence[str]) -> list[PairedResult]:
        chosen = {name: scores[name] for name in [baseline, *others]}
        return paired_test(metric, settings, baseline, chosen, n_bootstrap, n_ar, seed, progress)

    return test


def tested_pairs(
    metric: MetricSpec,
    settings: Settings,
    scores: Mapping[str, MetricScores],
    n_bootstrap: int,
    n_ar: int,
    seed: int | None,
    progress: Progress | None = None,
) -> tuple[dict[str, float], list[PairTest]]:
    """Every pair of ``scores``'s systems tested (a before b), and each system's score.

    Statistics that sum exactly are drawn once for all pairs (``shared_pairs``);
    other scores run one paired test per baseline (``all_pairs``). Both give each
    pair the numbers of its own two-system run.
    """
    check_counts(n_bootstrap, "n_bootstrap", seed, n_ar)
    names = list(scores)
    if metric.paired_tests and len(names) > 1:
        named = [(name, scores[name].statistics()) for name in names]
        check_segments([(name, len(matrix)) for name, matrix in named])
        if exact_sums([matrix for _, matrix in named]):
            resampler = metric.resampler(settings, named[0][1])
            return shared_pairs(named, resampler, n_bootstrap, n_ar, seed, progress)
    tester = pair_tester(metric, settings, scores, n_bootstrap, n_ar, seed, progress)
    return all_pairs(names, tester)
