"""The Compare page's data: cached computations keyed on the evaluation, and formatting.

Every cached function takes the evaluation (hashed by its content and settings,
``ui/cache/keys.py``) and its own real arguments. Where it depends on one
metric, callers pass the evaluation narrowed to the settings that metric reads
(``Evaluation.reading``), so a switch the metric ignores keeps its entries; the
n-gram counts read the tokenization only. Nothing here reads the session's
settings or draws a widget; the section modules and
bleuviz/app/page_scripts/compare.py do.
"""

from __future__ import annotations

import pandas as pd

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
from bleuviz.app.ui.cache.keys import cached_data, cached_resource
from bleuviz.app.ui.cache.scores import every_system_scores
from bleuviz.app.ui.widgets.format import fmt_metric
from bleuviz.bleu.stats import pair_matches
from bleuviz.metrics import MetricSpec, Settings
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
SIGNIFICANT = 0.05


def significance(
    evaluation: Evaluation, baseline: str, metric: str, tests: tuple[int, int, int]
) -> list[PairedResult]:
    """Every loaded system against the baseline (baseline first), as sacrebleu's paired tests.

    ``tests``: bootstrap samples, randomization trials and the seed. A progress
    bar names the test and the resample under way when they take a while (about
    7 s for two systems at 100,000 segments). The metric's scores are computed
    first, on the script thread (with their own bar), where not held already.
    """
    every_system_scores(evaluation, metric, list(evaluation.testset.systems))
    reading = evaluation.reading(metric)
    return with_progress(
        "Significance tests",
        lambda report: _significance(reading, baseline, metric, tests, _progress=report),
    )


@cached_data(max_entries=32, show_spinner=False)
def _significance(
    evaluation: Evaluation,
    baseline: str,
    metric: str,
    tests: tuple[int, int, int],
    _progress: Progress | None = None,
) -> list[PairedResult]:
    """The tests, cached per evaluation (the settings the metric reads), baseline, metric
    and tests; run on a worker thread, reading no session state.

    ``paired_test`` chooses the metric's test: resampled statistics (BLEU, chrF,
    chrF++, TER, as sacrebleu's ``PairedTest``) or means over the segments both
    systems of a pair scored (imported scores).
    """
    scores = evaluation.scores(metric)
    spec = evaluation.metric(metric)
    return paired_test(spec, evaluation.settings, baseline, scores, *tests, _progress)


def _tokenized(evaluation: Evaluation) -> Evaluation:
    """The evaluation under its tokenization alone: what n-gram counts read."""
    return evaluation.with_settings(Settings(tokenize=evaluation.settings.tokenize))


@cached_resource(max_entries=2, show_spinner=False)
def ngram_types(evaluation: Evaluation) -> NgramTypes:
    """The references' n-grams and their corpus-wide types, shared by every system.

    Pass the evaluation under its tokenization alone (``_tokenized``).
    """
    return NgramTypes.build(evaluation.testset.references, evaluation.settings.tokenize, MAX_ORDER)


@cached_resource(max_entries=6, show_spinner=False)
def system_matches(evaluation: Evaluation, system: str) -> PairMatches:
    """Per (segment, reference n-gram) pair, the system's clipped match count (never mutated).

    Pass the evaluation under its tokenization alone (``_tokenized``).
    """
    types = ngram_types(evaluation)
    threads = counting_threads(evaluation.settings.tokenize)
    return pair_matches(evaluation.testset.systems[system], types.references, threads)


def salient(evaluation: Evaluation, a: str, b: str, orders: tuple[int, ...]) -> SalientComparison:
    """compare-mt's salient n-grams of the pair, with a progress bar while counting.

    At 100,000 segments, counting takes about 2 s for the references and 0.8 s
    for each system; the bar names the step under way. Counts held are reused.
    """
    tokenized = _tokenized(evaluation)
    return with_progress(
        "Salient n-grams",
        lambda report: _salient(tokenized, a, b, orders, _progress=report),
    )


@cached_resource(max_entries=32, show_spinner=False)
def _salient(
    evaluation: Evaluation,
    a: str,
    b: str,
    orders: tuple[int, ...],
    _progress: Progress | None = None,
) -> SalientComparison:
    """Rank the pair's n-grams from the cached counts (counted first where missing).

    A resource, not data: the report holds each n-gram's segments (tens of thousands
    at 100k), which a data cache would unpickle on every rerun. Never mutated.
    """
    report = _progress or (lambda what, fraction: None)
    report("counting the references' n-grams", 0.0)
    types = ngram_types(evaluation)
    report(f"matching {md(a)}'s n-grams", 0.25)
    counts_a = system_matches(evaluation, a)
    report(f"matching {md(b)}'s n-grams", 0.5)
    counts_b = system_matches(evaluation, b)
    report("ranking", 0.75)
    return salient_ngrams(types, counts_a, counts_b, orders=orders)


def sentence_comparison(
    evaluation: Evaluation, names: tuple[str, str], metric: str
) -> pd.DataFrame:
    """Per-segment scores of A and B by ``metric`` (the sidebar's settings), and B's gain.

    Call it on the script thread: scores still to compute show a progress bar.
    """
    scores = every_system_scores(evaluation, metric, list(names))
    a, b = (scores[name].sentence for name in names)
    return score_comparison(a, b, evaluation.metric(metric).higher_is_better)


def sentence_axis(evaluation: Evaluation, metric: str) -> Axis:
    """How the charts read ``metric``'s sentence scores: its range as the metric reads it
    from every system's (``MetricSpec.sentence_range``), its direction and decimals."""
    spec = evaluation.metric(metric)
    # Read only by a metric without a nominal range (an imported score's).
    every = (evaluation.detail(metric, name).sentence for name in evaluation.testset.systems)
    shown = spec.sentence_range(every)
    return Axis(
        shown.label, shown.scale, spec.higher_is_better, shown.floor, shown.top, spec.digits
    )


def tested_signature(evaluation: Evaluation, metric: str, tests: tuple[int, int, int]) -> str:
    """The metric's signature with the paired tests in it, as sacrebleu's ``PairedTest`` signs."""
    own = evaluation.detail(metric, next(iter(evaluation.testset.systems))).signature
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
