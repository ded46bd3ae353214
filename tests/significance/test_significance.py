"""Tests of bleuviz.significance.bleu against sacrebleu 2.6.0 as the oracle.

Golden numbers come from the live oracle on generated corpora:
``PairedTest(named_systems, {"BLEU": BLEU(...)}, refs, test_type=..., n_samples=...)()``
for the paired tests, and ``BLEU(...).corpus_score(hyps, refs, n_bootstrap=n)``
(``score``, ``_mean``, ``_ci``) for a single system's CI. Both read their seed
from ``SACREBLEU_SEED``, which each test sets to the seed bleuviz is given.
Flavours sacrebleu cannot express (nltk, tf-nmt) are checked against a plain
loop that resamples segments and scores each resample from scratch.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import astuple
from typing import Any, NamedTuple

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest

from bleuviz.bleu import BleuConfig, score_rows
from bleuviz.bleu.references import build_reference_index
from bleuviz.bleu.stats import SegmentStats, compute_stats
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.errors import ConfigError, InputError
from bleuviz.significance import (
    BootstrapCI,
    PairedResult,
    bootstrap_ci,
    compare_systems,
    paired_approximate_randomization,
    paired_bootstrap,
    resampling,
)

TOL = 1e-6  # the required agreement with sacrebleu
# Bootstrap samples are scored with sacrebleu's float32 precisions, so means and CIs
# agree far more closely than TOL; without that emulation they drift by ~1e-7 to 1e-6.
TIGHT = 1e-9
VOCABULARY = [f"w{i}" for i in range(40)] + ["the", "a", ",", "."]


class Systems(NamedTuple):
    """Hypothesis streams by name (the first is the baseline) and their reference streams."""

    hyps: dict[str, list[str]]
    refs: list[list[str]]


def make_systems(n: int, n_refs: int, n_systems: int, seed: int) -> Systems:
    """Random corpora: each system copies a reference line with its own rate, else babbles."""
    rnd = random.Random(seed)

    def line() -> str:
        return " ".join(rnd.choice(VOCABULARY) for _ in range(rnd.randint(0, 22)))

    def noisy(ref: str, keep: float) -> str:
        words = [w if rnd.random() < keep else rnd.choice(VOCABULARY) for w in ref.split()]
        return " ".join(words) if rnd.random() < 0.9 else line()

    refs = [[line() for _ in range(n)] for _ in range(n_refs)]
    hyps = {f"sys{s}": [noisy(r, 0.5 + 0.08 * s) for r in refs[0]] for s in range(n_systems)}
    return Systems(hyps, refs)


def close_pair(n: int, n_refs: int, seed: int) -> Systems:
    """Two systems that differ in about a fifth of their lines: p-values far from 0 and 1."""
    systems = make_systems(n, n_refs, 2, seed)
    rnd = random.Random(seed)
    base, other = systems.hyps.values()
    near = [o if rnd.random() < 0.2 else b for b, o in zip(base, other, strict=True)]
    return Systems({"base": base, "near": near}, systems.refs)


def stats_of(systems: Systems) -> dict[str, SegmentStats]:
    index = build_reference_index(systems.refs, TokenizeConfig())
    return {name: compute_stats(hyps, index) for name, hyps in systems.hyps.items()}


def sacrebleu_paired(systems: Systems, test_type: str, n: int, **bleu: Any) -> list[Any]:
    """Run sacrebleu's PairedTest (seed from SACREBLEU_SEED); return its Result rows."""
    named = list(systems.hyps.items())
    test = PairedTest(named, {"BLEU": BLEU(**bleu)}, systems.refs, test_type=test_type, n_samples=n)
    _, scores = test()
    return list(scores["BLEU"])


def assert_result(mine: PairedResult, oracle: Any, test_type: str) -> None:
    assert mine.score == pytest.approx(oracle.score, abs=TOL)
    if test_type == "bs":
        assert mine.mean == pytest.approx(oracle.mean, abs=TIGHT)
        assert mine.ci == pytest.approx(oracle.ci, abs=TIGHT)
    p_value = mine.p_value_bs if test_type == "bs" else mine.p_value_ar
    assert (p_value is None) == (oracle.p_value is None)
    if p_value is not None:
        assert p_value == pytest.approx(oracle.p_value, abs=TOL)


# (n segments, n refs, n systems, corpus seed, RNG seed)
CORPORA = [
    (60, 1, 3, 1, 12345),
    (120, 2, 3, 2, 12345),
    (200, 1, 2, 3, 54321),
    (90, 2, 3, 4, 7),
]


@pytest.mark.parametrize(("n", "n_refs", "n_systems", "corpus_seed", "seed"), CORPORA)
def test_paired_bootstrap_equals_sacrebleu(
    monkeypatch: pytest.MonkeyPatch,
    n: int,
    n_refs: int,
    n_systems: int,
    corpus_seed: int,
    seed: int,
) -> None:
    monkeypatch.setenv("SACREBLEU_SEED", str(seed))
    systems = make_systems(n, n_refs, n_systems, corpus_seed)
    oracle = sacrebleu_paired(systems, "bs", 1000)
    stats = stats_of(systems)
    (base_name, base), *others = stats.items()
    mine = compare_systems(base_name, base, dict(others), BleuConfig(), 1000, 0, seed)
    assert [r.name for r in mine] == list(systems.hyps)
    for row, expected in zip(mine, oracle, strict=True):
        assert_result(row, expected, "bs")
        assert row.p_value_ar is None
    for (_, system), expected in zip(others, oracle[1:], strict=True):
        p_value, base_ci, sys_ci = paired_bootstrap(base, system, BleuConfig(), 1000, seed)
        assert p_value == pytest.approx(expected.p_value, abs=TOL)
        assert (base_ci.mean, base_ci.ci) == pytest.approx((oracle[0].mean, oracle[0].ci), abs=TOL)
        assert (sys_ci.mean, sys_ci.ci) == pytest.approx((expected.mean, expected.ci), abs=TOL)


@pytest.mark.parametrize(("n", "n_refs", "n_systems", "corpus_seed", "seed"), CORPORA)
def test_paired_ar_equals_sacrebleu(
    monkeypatch: pytest.MonkeyPatch,
    n: int,
    n_refs: int,
    n_systems: int,
    corpus_seed: int,
    seed: int,
) -> None:
    monkeypatch.setenv("SACREBLEU_SEED", str(seed))
    systems = make_systems(n, n_refs, n_systems, corpus_seed)
    oracle = sacrebleu_paired(systems, "ar", 1000)
    stats = stats_of(systems)
    (base_name, base), *others = stats.items()
    mine = compare_systems(base_name, base, dict(others), BleuConfig(), 10, 1000, seed)
    for row, expected in zip(mine, oracle, strict=True):
        assert_result(row, expected, "ar")
    for (_, system), expected in zip(others, oracle[1:], strict=True):
        p_value = paired_approximate_randomization(base, system, BleuConfig(), 1000, seed)
        assert p_value == pytest.approx(expected.p_value, abs=TOL)


@pytest.mark.parametrize(("n_refs", "seed"), [(1, 12345), (2, 777)])
def test_close_systems_equal_sacrebleu(
    monkeypatch: pytest.MonkeyPatch, n_refs: int, seed: int
) -> None:
    """Systems differing in a fifth of their lines: p-values well inside (0, 1)."""
    monkeypatch.setenv("SACREBLEU_SEED", str(seed))
    systems = close_pair(120, n_refs, seed)
    oracle_bs = sacrebleu_paired(systems, "bs", 1000)
    oracle_ar = sacrebleu_paired(systems, "ar", 2000)
    (base_name, base), (name, near) = stats_of(systems).items()
    mine = compare_systems(base_name, base, {name: near}, BleuConfig(), 1000, 2000, seed)
    for row, bs, ar in zip(mine, oracle_bs, oracle_ar, strict=True):
        assert_result(row, bs, "bs")
        assert_result(row, ar, "ar")
    assert mine[1].p_value_ar is not None and 0.01 < mine[1].p_value_ar < 0.99


def test_full_defaults_equal_sacrebleu(monkeypatch: pytest.MonkeyPatch) -> None:
    """1,000 bootstrap samples and 10,000 AR trials, sacrebleu's defaults, on 100 segments."""
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    systems = make_systems(100, 1, 3, 11)
    oracle_bs = sacrebleu_paired(systems, "bs", 0)  # 0: PairedTest's default (1,000)
    oracle_ar = sacrebleu_paired(systems, "ar", 0)  # 0: PairedTest's default (10,000)
    (base_name, base), *others = stats_of(systems).items()
    mine = compare_systems(base_name, base, dict(others), BleuConfig())
    for row, bs, ar in zip(mine, oracle_bs, oracle_ar, strict=True):
        assert_result(row, bs, "bs")
        assert_result(row, ar, "ar")


# (BleuConfig, matching sacrebleu BLEU keyword arguments)
CONFIGS = [
    (BleuConfig(), {}),
    (BleuConfig(smooth="none"), {"smooth_method": "none"}),
    (BleuConfig(smooth="floor"), {"smooth_method": "floor"}),
    (BleuConfig(smooth="floor", smooth_value=0.3), {"smooth_method": "floor", "smooth_value": 0.3}),
    (BleuConfig(smooth="add-k"), {"smooth_method": "add-k"}),
    (BleuConfig(effective_order=True), {"effective_order": True}),
    (BleuConfig(max_order=2), {"max_ngram_order": 2}),
]


@pytest.mark.parametrize(("config", "bleu"), CONFIGS)
@pytest.mark.parametrize("seed", [12345, 2024])
def test_bootstrap_ci_equals_corpus_score(
    monkeypatch: pytest.MonkeyPatch, config: BleuConfig, bleu: dict[str, Any], seed: int
) -> None:
    monkeypatch.setenv("SACREBLEU_SEED", str(seed))
    systems = make_systems(150, 2, 1, seed)
    hyps = systems.hyps["sys0"]
    oracle = BLEU(**bleu).corpus_score(hyps, systems.refs, n_bootstrap=1000)
    mine = bootstrap_ci(stats_of(systems)["sys0"], config, 1000, seed)
    assert isinstance(mine, BootstrapCI)
    assert mine.score == pytest.approx(oracle.score, abs=TOL)
    assert mine.mean == pytest.approx(oracle._mean, abs=TIGHT)
    assert mine.ci == pytest.approx(oracle._ci, abs=TIGHT)


@pytest.mark.parametrize(("config", "bleu"), CONFIGS[1:])
def test_paired_tests_equal_sacrebleu_other_configs(
    monkeypatch: pytest.MonkeyPatch, config: BleuConfig, bleu: dict[str, Any]
) -> None:
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    systems = make_systems(80, 1, 2, 5)
    oracle_bs = sacrebleu_paired(systems, "bs", 300, **bleu)
    oracle_ar = sacrebleu_paired(systems, "ar", 500, **bleu)
    (base_name, base), *others = stats_of(systems).items()
    mine = compare_systems(base_name, base, dict(others), config, 300, 500)
    for row, bs, ar in zip(mine, oracle_bs, oracle_ar, strict=True):
        assert_result(row, bs, "bs")
        assert_result(row, ar, "ar")


@pytest.mark.parametrize("test_type", ["bs", "ar"])
def test_system_against_itself(monkeypatch: pytest.MonkeyPatch, test_type: str) -> None:
    """sacrebleu counts differences strictly above the observed 0: p = 1 / (n + 1), not 1."""
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    systems = make_systems(70, 1, 1, 6)
    twins = Systems({"a": systems.hyps["sys0"], "b": systems.hyps["sys0"]}, systems.refs)
    (oracle_p,) = [r.p_value for r in sacrebleu_paired(twins, test_type, 400)[1:]]
    stats = stats_of(systems)["sys0"]
    if test_type == "bs":
        p_value = paired_bootstrap(stats, stats, BleuConfig(), 400)[0]
    else:
        p_value = paired_approximate_randomization(stats, stats, BleuConfig(), 400)
    assert p_value == oracle_p == 1 / 401


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data(), seed=st.integers(1, 2**32))
def test_tiny_corpora_equal_sacrebleu(
    monkeypatch: pytest.MonkeyPatch,
    corpora: st.SearchStrategy[Any],
    make_stats: Callable[..., SegmentStats],
    data: st.DataObject,
    seed: int,
) -> None:
    """Degenerate corpora (empty lines, 1 segment, no matches) agree with the oracle too."""
    corpus = data.draw(corpora)
    other = data.draw(st.permutations(corpus.hyps))
    monkeypatch.setenv("SACREBLEU_SEED", str(seed))
    systems = Systems({"base": corpus.hyps, "other": list(other)}, corpus.refs)
    oracle_bs = sacrebleu_paired(systems, "bs", 50)
    oracle_ar = sacrebleu_paired(systems, "ar", 70)
    base, system = (make_stats(h, corpus.refs) for h in systems.hyps.values())
    mine = compare_systems("base", base, {"other": system}, BleuConfig(), 50, 70, seed)
    for row, bs, ar in zip(mine, oracle_bs, oracle_ar, strict=True):
        assert_result(row, bs, "bs")
        assert_result(row, ar, "ar")
        for p_value in (row.p_value_bs, row.p_value_ar):
            assert p_value is None or 0 < p_value <= 1


def test_deterministic_and_seeded() -> None:
    (_, base), (_, system) = stats_of(make_systems(60, 1, 2, 8)).items()
    config = BleuConfig()
    first = compare_systems("base", base, {"sys": system}, config, 200, 300, seed=99)
    assert compare_systems("base", base, {"sys": system}, config, 200, 300, seed=99) == first
    other = compare_systems("base", base, {"sys": system}, config, 200, 300, seed=100)
    assert other[1].mean != first[1].mean
    unseeded = compare_systems("base", base, {"sys": system}, config, 50, 50, seed=None)
    assert unseeded[1].score == first[1].score


def test_baseline_alone() -> None:
    (name, base), *_ = stats_of(make_systems(30, 1, 1, 13)).items()
    (row,) = compare_systems(name, base, {}, BleuConfig(), 100, 100)
    assert row == PairedResult(name, row.score, row.mean, row.ci, None, None)
    assert (row.score, row.mean, row.ci) == astuple(bootstrap_ci(base, BleuConfig(), 100))


def test_chunked_draws_equal_one_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks of 1 bootstrap row and 32 AR rows leave numpy's random stream unchanged."""
    (_, base), (_, system) = stats_of(close_pair(61, 2, 9)).items()
    whole = compare_systems("base", base, {"sys": system}, BleuConfig(), 150, 333)
    monkeypatch.setattr(resampling, "MAX_CELLS", 10)
    assert compare_systems("base", base, {"sys": system}, BleuConfig(), 150, 333) == whole


def resampled_scores(stats: SegmentStats, config: BleuConfig, n: int, seed: int) -> list[float]:
    """Score each bootstrap resample from scratch: select its segments, sum, score."""
    idx = np.random.default_rng(seed).choice(len(stats), size=(n, len(stats)), replace=True)
    return [_corpus(stats.select(row), config) for row in idx]


def _corpus(stats: SegmentStats, config: BleuConfig) -> float:
    return float(score_rows(stats.total(), config, last=stats.select([len(stats) - 1])).score[0])


FLAVOURS = [
    BleuConfig(flavor="nltk"),
    BleuConfig(flavor="nltk", smooth="method5"),
    BleuConfig(flavor="nltk", smooth="method6"),
    BleuConfig(flavor="tf-nmt", smooth="add-one"),
    BleuConfig(flavor="tf-nmt"),
]


@pytest.mark.parametrize("config", FLAVOURS, ids=lambda c: f"{c.flavor}-{c.smoothing}")
def test_other_flavours_equal_a_plain_loop(config: BleuConfig) -> None:
    systems = close_pair(40, 2, 10)
    base_hyps, near_hyps = systems.hyps.values()
    # nltk's methods 4 to 7 read the last line: make the two systems' last lines differ.
    base_hyps[-1], near_hyps[-1] = systems.refs[0][-1], "w1"
    index = build_reference_index(systems.refs, TokenizeConfig(), max_order=5)
    base, system = compute_stats(base_hyps, index), compute_stats(near_hyps, index)
    ci = bootstrap_ci(system, config, 100, seed=3)
    scores = np.sort(resampled_scores(system, config, 100, seed=3))
    assert ci.mean == pytest.approx(scores.mean(), abs=1e-9)
    assert ci.ci == pytest.approx(0.5 * (scores[97] - scores[2]), abs=1e-9)
    p_value = paired_approximate_randomization(base, system, config, 200, 3)
    assert p_value == pytest.approx(_ar_loop(base, system, config, 200, 3), abs=1e-12)


def _ar_loop(
    base: SegmentStats, system: SegmentStats, config: BleuConfig, n: int, seed: int
) -> float:
    """sacrebleu's AR test, one trial at a time, every pseudo-system scored from scratch."""
    masks = np.random.default_rng(seed).integers(2, size=(n, len(base)), dtype=bool)
    observed = abs(_corpus(base, config) - _corpus(system, config))
    count = 0
    for mask in masks:
        a = _mix(base, system, mask)
        b = _mix(system, base, mask)
        count += abs(_corpus(a, config) - _corpus(b, config)) > observed
    return (count + 1) / (n + 1)


def _mix(first: SegmentStats, second: SegmentStats, mask: np.ndarray) -> SegmentStats:
    """Segment i from ``first`` where mask[i], else from ``second``."""
    fields = ("hyp_len", "closest_ref_len", "shortest_ref_len", "matches", "totals", "floor_totals")
    columns = []
    for name in fields:
        x, y = getattr(first, name), getattr(second, name)
        columns.append(np.where(mask.reshape(-1, *[1] * (x.ndim - 1)), x, y))
    return SegmentStats(*columns)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (
            lambda b, s: paired_bootstrap(b, s.select(slice(0, 5)), BleuConfig()),
            InputError,
            "system",
        ),
        (lambda b, s: paired_bootstrap(b, s, BleuConfig(), n_samples=0), ConfigError, "n_samples"),
        (
            lambda b, s: paired_approximate_randomization(b, s, BleuConfig(), 0),
            ConfigError,
            "n_trials",
        ),
        (lambda b, s: bootstrap_ci(b, BleuConfig(), seed=-1), ConfigError, "seed"),
        (lambda b, s: bootstrap_ci(b.select(slice(0, 0)), BleuConfig()), InputError, "stats"),
        (
            lambda b, s: compare_systems("b", b, {"s": s}, BleuConfig(), n_ar=-1),
            ConfigError,
            "n_ar",
        ),
        (
            lambda b, s: compare_systems("b", b, {"s": s}, BleuConfig(), 0),
            ConfigError,
            "n_bootstrap",
        ),
        (
            lambda b, s: compare_systems("b", b, {"s": s.select([1])}, BleuConfig()),
            InputError,
            "s: 1 segments",
        ),
        (lambda b, s: bootstrap_ci(b, BleuConfig(max_order=9), 10), ConfigError, "max_order"),
    ],
)
def test_refusals(call: Callable[..., object], error: type[Exception], message: str) -> None:
    (_, base), (_, system) = stats_of(make_systems(20, 1, 2, 12)).items()
    with pytest.raises(error, match=message):
        call(base, system)
