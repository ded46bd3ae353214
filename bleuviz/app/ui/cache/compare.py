"""The Compare page's data: cached computations keyed on the data's content, and formatting.

Every cached function is keyed on the loaded data's ``DataKey`` (content ids,
tokenization, order, imported directions) and the settings it reads, passed
in by the script thread; the evaluation itself is an unhashed ``_`` argument.
Nothing here reads the session's settings or draws a widget; the section
modules and bleuviz/app/page_scripts/compare.py do.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
import streamlit as st

from bleuviz.analysis.buckets import score_comparison
from bleuviz.analysis.ngram_types import NgramTypes
from bleuviz.analysis.salient import (
    MAX_ORDER,
    PairMatches,
    SalientComparison,
    salient_ngrams,
)
from bleuviz.app.ui.cache.background import with_progress
from bleuviz.app.ui.cache.counting import counting_threads
from bleuviz.app.ui.cache.data import DataKey
from bleuviz.app.ui.cache.scores import metric_scores, metric_spec, system_scores
from bleuviz.app.ui.widgets.format import fmt_metric
from bleuviz.bleu.stats import pair_matches
from bleuviz.metrics import MetricScores, MetricSpec, Settings
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.progress import Progress
from bleuviz.render.compare_charts import (
    Axis,
)
from bleuviz.render.labels import escape_markdown as md
from bleuviz.significance import PairedResult
from bleuviz.significance.by_metric import paired_test
from bleuviz.significance.resampling import paired_signature

ALL, NONE = "(all)", "(none)"
BLEU = "BLEU"
SIGNIFICANT = 0.05


def scores_of(
    key: DataKey, evaluation: Evaluation, metric: str, settings: Settings, names: list[str]
) -> dict[str, MetricScores]:
    """``metric``'s scores of each system in ``names`` under ``settings``.

    Called on the script thread, so a metric still to compute shows its spinner
    there; the work on a worker thread gets the scores as an argument.
    """
    return {n: system_scores(evaluation, n, metric, settings) for n in names}


def significance(
    identity: DataKey,
    baseline: str,
    metric: str,
    tests: tuple[int, int, int],
    settings: Settings,
    evaluation: Evaluation,
) -> list[PairedResult]:
    """Every loaded system against the baseline (baseline first), as sacrebleu's paired tests.

    ``tests``: bootstrap samples, randomization trials and the seed. ``settings``:
    the sidebar's (only those the metric reads key the cache). A progress bar
    names the test and the resample under way when they take a while (about 7 s
    for two systems at 100,000 segments).
    """
    kept = metric_spec(evaluation, metric).reads(settings)
    scores = scores_of(identity, evaluation, metric, kept, list(evaluation.testset.systems))
    key = (identity, baseline, metric, tests, kept)
    return with_progress(
        "Significance tests",
        lambda report: _significance(*key, evaluation, scores, _progress=report),
    )


@st.cache_data(max_entries=32, show_spinner=False)
def _significance(
    identity: DataKey,
    baseline: str,
    metric: str,
    tests: tuple[int, int, int],
    settings: Settings,
    _evaluation: Evaluation,
    _scores: Mapping[str, MetricScores],
    _progress: Progress | None = None,
) -> list[PairedResult]:
    """The tests, cached per data, baseline, metric, tests and the settings the metric reads.

    ``paired_test`` chooses the metric's test: resampled statistics (BLEU, chrF,
    chrF++, TER, as sacrebleu's ``PairedTest``) or means over the segments both
    systems of a pair scored (imported scores).
    """
    spec = metric_spec(_evaluation, metric)
    return paired_test(spec, settings, baseline, _scores, *tests, _progress)


@st.cache_resource(max_entries=2, show_spinner=False)
def ngram_types(identity: DataKey, _evaluation: Evaluation) -> NgramTypes:
    """The references' n-grams and their corpus-wide types, shared by every system."""
    return NgramTypes.build(
        _evaluation.testset.references, _evaluation.settings.tokenize, MAX_ORDER
    )


@st.cache_resource(max_entries=6, show_spinner=False)
def system_matches(identity: DataKey, system: str, _evaluation: Evaluation) -> PairMatches:
    """Per (segment, reference n-gram) pair, the system's clipped match count (never mutated)."""
    types = ngram_types(identity, _evaluation)
    threads = counting_threads(_evaluation.settings.tokenize)
    return pair_matches(_evaluation.testset.systems[system], types.references, threads)


def salient(
    identity: DataKey, a: str, b: str, orders: tuple[int, ...], evaluation: Evaluation
) -> SalientComparison:
    """compare-mt's salient n-grams of the pair, with a progress bar while counting.

    At 100,000 segments, counting takes about 2 s for the references and 0.8 s
    for each system; the bar names the step under way. Counts held are reused.
    """
    return with_progress(
        "Salient n-grams",
        lambda report: _salient(identity, a, b, orders, evaluation, _progress=report),
    )


@st.cache_resource(max_entries=32, show_spinner=False)
def _salient(
    identity: DataKey,
    a: str,
    b: str,
    orders: tuple[int, ...],
    _evaluation: Evaluation,
    _progress: Progress | None = None,
) -> SalientComparison:
    """Rank the pair's n-grams from the cached counts (counted first where missing).

    A resource, not data: the report holds each n-gram's segments (tens of thousands
    at 100k), which a data cache would unpickle on every rerun. Never mutated.
    """
    report = _progress or (lambda what, fraction: None)
    report("counting the references' n-grams", 0.0)
    types = ngram_types(identity, _evaluation)
    report(f"matching {md(a)}'s n-grams", 0.25)
    counts_a = system_matches(identity, a, _evaluation)
    report(f"matching {md(b)}'s n-grams", 0.5)
    counts_b = system_matches(identity, b, _evaluation)
    report("ranking", 0.75)
    return salient_ngrams(types, counts_a, counts_b, orders=orders)


def sentence_comparison(
    evaluation: Evaluation, names: tuple[str, str], metric: str
) -> pd.DataFrame:
    """Per-segment scores of A and B by ``metric`` (the sidebar's settings), and B's gain."""
    a, b = (metric_scores(evaluation, name, metric).sentence for name in names)
    return score_comparison(a, b, metric_spec(evaluation, metric).higher_is_better)


def sentence_axis(evaluation: Evaluation, metric: str) -> Axis:
    """How the charts read ``metric``'s sentence scores.

    An imported score has no nominal range: its axis spans the scores of every
    system (MQM penalties are negative and stop at 0, DA runs to 100); its
    ``scale``, the largest magnitude, sizes the histogram's bins.
    """
    spec = metric_spec(evaluation, metric)
    if not spec.imported:
        return Axis(f"sentence {metric}", spec.scale, spec.higher_is_better, digits=spec.digits)
    values = np.concatenate(
        [metric_scores(evaluation, n, metric).sentence for n in evaluation.testset.systems]
    )
    finite = values[np.isfinite(values)]
    scale = float(np.max(np.abs(finite), initial=0.0)) or 1.0
    floor = min(float(np.min(finite, initial=0.0)), 0.0)
    top = max(float(np.max(finite, initial=0.0)), 0.0)
    label = f"{metric} (imported)"
    return Axis(label, scale, spec.higher_is_better, floor, top, spec.digits)


def tested_signature(evaluation: Evaluation, metric: str, tests: tuple[int, int, int]) -> str:
    """The metric's signature with the paired tests in it, as sacrebleu's ``PairedTest`` signs."""
    own = metric_scores(evaluation, next(iter(evaluation.testset.systems)), metric).signature
    return paired_signature(own, *tests)


def results_frame(results: list[PairedResult]) -> pd.DataFrame:
    """The significance table as numbers (baseline first), for exports."""
    return pd.DataFrame(
        {
            "system": [r.name for r in results],
            "baseline": [i == 0 for i in range(len(results))],
            "score": [r.score for r in results],
            "mean": [r.mean for r in results],
            "ci": [r.ci for r in results],
            "p_value_bs": [r.p_value_bs for r in results],
            "p_value_ar": [r.p_value_ar for r in results],
        }
    )


def fmt_p(value: float | None) -> str:
    """A p-value with four decimals, as sacrebleu prints it."""
    return "—" if value is None else f"{value:.4f}"


def starred(value: float | None) -> str:
    """A p-value with sacrebleu's significance marker."""
    return fmt_p(value) + (" *" if value is not None and value < SIGNIFICANT else "")


def all_systems_frame(results: list[PairedResult], metric: str, spec: MetricSpec) -> pd.DataFrame:
    """sacrebleu's multi-system table: the score, mean ± 95% CI and both p-values."""
    return pd.DataFrame(
        {
            # st.table renders Markdown: names from the data are escaped.
            "system": [f"Baseline: {md(results[0].name)}", *(md(r.name) for r in results[1:])],
            md(metric): [fmt_metric(spec, r.score) for r in results],
            "μ ± 95% CI": [
                f"{fmt_metric(spec, r.mean)} ± {fmt_metric(spec, r.ci)}" for r in results
            ],
            "p (paired bootstrap)": [starred(r.p_value_bs) for r in results],
            "p (approximate randomization)": [starred(r.p_value_ar) for r in results],
        }
    ).set_index("system")


def verdict(
    a: str, b: str, base: PairedResult, pair: PairedResult, metric: str, spec: MetricSpec
) -> str:
    """One sentence: how far B is from A, and which tests call it significant."""
    diff = pair.score - base.score
    direction = "above" if diff > 0 else "below" if diff < 0 else "level with"
    if not spec.higher_is_better and diff != 0:
        direction += " (better)" if diff < 0 else " (worse)"
    ran = {"paired bootstrap": pair.p_value_bs, "approximate randomization": pair.p_value_ar}
    tests = {test: p for test, p in ran.items() if p is not None}  # 0 trials: AR is off
    passed = [test for test, p in tests.items() if p < SIGNIFICANT]
    if len(tests) == 1:
        (test,) = tests
        finding = f"{'' if passed else 'not '}significant at p < 0.05 by {test}"
    elif len(passed) == len(tests):
        finding = "significant at p < 0.05 by both tests"
    elif passed:
        finding = f"significant at p < 0.05 by {passed[0]} only"
    else:
        finding = "not significant at p < 0.05 by either test"
    return (
        f"**{md(b)}** scores {fmt_metric(spec, abs(diff))} {md(metric)} {direction} **{md(a)}**: "
        f"the difference is {finding}."
    )
