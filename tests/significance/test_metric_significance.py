"""Tests of bleuviz.significance.sacrebleu_metrics, with sacrebleu 2.6.0's ``PairedTest``
as the oracle.

Golden numbers come from the live oracle,
``PairedTest(named_systems, {"m": metric}, refs, test_type=..., n_samples=...)()``
with ``CHRF()``, ``CHRF(word_order=2)`` (chrF++) or ``TER()``, on corpora made by
the generator below. ``PairedTest`` reads its seed from ``SACREBLEU_SEED``: the
baseline's CI uses it as is, every other system gets ``seed if seed else None``,
so each test sets it to the (non-zero) seed that bleuviz is given. bleuviz gets
the statistics of the same metric, ``metric._extract_corpus_statistics``.
Everything is required to agree to 1e-9, p-values exactly; the one documented
deviation (TER with three references) is checked against exact arithmetic.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import CHRF, TER
from sacrebleu.metrics.base import Metric
from sacrebleu.significance import PairedTest

from bleuviz.errors import ConfigError, InputError
from bleuviz.limits import MAX_RESAMPLES, MAX_SEED, MAX_TRIALS
from bleuviz.significance import PairedResult, compare_systems_metric, resampling

TIGHT = 1e-9
METRICS: dict[str, Callable[[], Metric]] = {
    "chrF": CHRF,
    "chrF++": lambda: CHRF(word_order=2),
    "TER": TER,
}
# Words sharing character n-grams, so that chrF matches partially; ASCII and not.
VOCABULARY = [
    *("the", "then", "there", "cat", "cats", "catch", "sat", "mat", "house", "houses"),
    *("mouse", "Haus", "Häuser", "in", "on", ",", "."),
]

Named = dict[str, list[str]]


def make_corpus(n: int, n_refs: int, seed: int) -> tuple[Named, list[list[str]]]:
    """Three systems: ``base``, ``near`` (a third of lines changed) and ``twin`` (= base).

    Every hypothesis stream has an empty line; lines have 0 to 12 words.
    """
    rnd = random.Random(seed)

    def line() -> str:
        return " ".join(rnd.choice(VOCABULARY) for _ in range(rnd.randint(0, 12)))

    def noisy(ref: str) -> str:
        words = [w if rnd.random() < 0.6 else rnd.choice(VOCABULARY) for w in ref.split()]
        return " ".join(words) if rnd.random() < 0.85 else line()

    refs = [[line() for _ in range(n)] for _ in range(n_refs)]
    base = [noisy(r) for r in refs[0]]
    near = [noisy(r) if rnd.random() < 0.35 else b for r, b in zip(refs[0], base, strict=True)]
    base[3] = near[5] = ""
    return {"base": base, "near": near, "twin": list(base)}, refs


def oracle(named: Named, refs: list[list[str]], metric: str, test_type: str, n: int) -> list[Any]:
    """Run sacrebleu's PairedTest (seed from SACREBLEU_SEED); return its Result rows."""
    test = PairedTest(list(named.items()), {"m": METRICS[metric]()}, refs, test_type, n)
    _, scores = test()
    (rows,) = (v for k, v in scores.items() if k != "System")
    return list(rows)


def mine(
    named: Named, refs: list[list[str]], metric: str, n_bs: int, n_ar: int, seed: int | None
) -> list[PairedResult]:
    """bleuviz on the statistics of the same metric (the first system is the baseline)."""
    m = METRICS[metric]()
    base, others = stats_of(named, refs, m)
    return compare_systems_metric(next(iter(named)), base, others, m, n_bs, n_ar, seed)


def stats_of(named: Named, refs: list[list[str]], m: Metric) -> tuple[Any, dict[str, Any]]:
    """The baseline's (first system's) statistics matrix, and the others' by name."""
    stats = {k: np.array(m._extract_corpus_statistics(h, refs), float) for k, h in named.items()}
    return stats.pop(next(iter(named))), stats


def assert_equal(rows: list[PairedResult], bs: list[Any], ar: list[Any] | None) -> None:
    """Scores, means and CIs to TIGHT, p-values exactly, against both oracle tables."""
    for i, (row, expected) in enumerate(zip(rows, bs, strict=True)):
        assert row.score == pytest.approx(expected.score, abs=TIGHT)
        assert (row.mean, row.ci) == pytest.approx((expected.mean, expected.ci), abs=TIGHT)
        assert row.p_value_bs == expected.p_value
        assert row.p_value_ar == (ar[i].p_value if ar else None)
        if ar:
            assert row.score == pytest.approx(ar[i].score, abs=TIGHT)


# (n segments, n refs, corpus seed, RNG seed)
CORPORA = [(40, 1, 1, 12345), (50, 2, 2, 777)]


@pytest.mark.parametrize("metric", list(METRICS))
@pytest.mark.parametrize(("n", "n_refs", "corpus_seed", "seed"), CORPORA)
def test_paired_tests_equal_sacrebleu(
    monkeypatch: pytest.MonkeyPatch, metric: str, n: int, n_refs: int, corpus_seed: int, seed: int
) -> None:
    monkeypatch.setenv("SACREBLEU_SEED", str(seed))
    named, refs = make_corpus(n, n_refs, corpus_seed)
    rows = mine(named, refs, metric, 1000, 1000, seed)
    assert [r.name for r in rows] == list(named)
    assert_equal(
        rows, oracle(named, refs, metric, "bs", 1000), oracle(named, refs, metric, "ar", 1000)
    )
    # A system against itself: sacrebleu counts differences strictly above 0.
    assert rows[2].p_value_bs == rows[2].p_value_ar == 1 / 1001
    assert rows[1].p_value_ar is not None and rows[1].p_value_ar > 1 / 1001


def test_full_defaults_equal_sacrebleu(monkeypatch: pytest.MonkeyPatch) -> None:
    """sacrebleu's defaults: 1,000 bootstrap samples, 10,000 AR trials (chrF, 40 segments)."""
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    named, refs = make_corpus(40, 1, 3)
    base, others = stats_of(named, refs, CHRF())
    rows = compare_systems_metric("base", base, others, CHRF())  # defaults: 1000, 10000, 12345
    assert_equal(rows, oracle(named, refs, "chrF", "bs", 0), oracle(named, refs, "chrF", "ar", 0))


# Degenerate corpora written out: resamples with no chrF match at all, or with TER's
# reference words all empty, score a Python 0.0 / 100.0 and turn sacrebleu's float32
# score array into float64, which its mean, CI and p-value then follow.
DEGENERATE = [
    ({"a": ["the cat", "xyz"], "b": ["xyz", "the cat"]}, [["the cat", "qqq"]]),
    ({"a": ["", "then"], "b": ["mat", ""]}, [["", "then"], ["", "the"]]),
    ({"a": ["cat"], "b": ["Haus"]}, [["cat"]]),
    ({"a": ["a b c", "d"], "b": ["a b", "d e"]}, [["a b c", "d"], ["a c b", ""]]),
]


@pytest.mark.parametrize("metric", list(METRICS))
@pytest.mark.parametrize(("named", "refs"), DEGENERATE)
def test_degenerate_corpora_equal_sacrebleu(
    monkeypatch: pytest.MonkeyPatch, metric: str, named: Named, refs: list[list[str]]
) -> None:
    monkeypatch.setenv("SACREBLEU_SEED", "4242")
    rows = mine(named, refs, metric, 200, 200, 4242)
    assert_equal(
        rows, oracle(named, refs, metric, "bs", 200), oracle(named, refs, metric, "ar", 200)
    )


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data(), seed=st.integers(1, 2**32), metric=st.sampled_from(list(METRICS)))
def test_tiny_corpora_equal_sacrebleu(
    monkeypatch: pytest.MonkeyPatch,
    corpora: st.SearchStrategy[Any],
    data: st.DataObject,
    seed: int,
    metric: str,
) -> None:
    """Random tiny corpora (1-8 segments, tiny vocabulary, empty lines) agree exactly."""
    corpus = data.draw(corpora)
    # TER with 3 references is the documented deviation (test_ter_three_references...).
    refs = corpus.refs[:2] if metric == "TER" else corpus.refs
    named = {"base": corpus.hyps, "other": list(data.draw(st.permutations(corpus.hyps)))}
    monkeypatch.setenv("SACREBLEU_SEED", str(seed))
    rows = mine(named, refs, metric, 60, 90, seed)
    assert_equal(rows, oracle(named, refs, metric, "bs", 60), oracle(named, refs, metric, "ar", 90))


def test_ter_three_references_is_exact_arithmetic(monkeypatch: pytest.MonkeyPatch) -> None:
    """TER, 3 references: CIs within float32 rounding; AR p-value as in exact arithmetic.

    sacrebleu's float64 sums of k/3 reference lengths round in BLAS order, so it
    counts some trials that tie the observed difference; the exact p-value, from
    the same masks with Fractions, counts none (here sacrebleu says ~0.907).
    """
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    rnd = random.Random(0)
    vocabulary = ["the", "a", "cat", "cats", "sat", "on", "mat", "house", "in", "into", ",", "."]

    def line() -> str:
        return " ".join(rnd.choice(vocabulary) for _ in range(rnd.randint(0, 12)))

    refs = [[line() for _ in range(40)] for _ in range(3)]
    named = {"a": [line() for _ in range(40)], "b": [line() for _ in range(40)]}
    rows = mine(named, refs, "TER", 300, 300, 12345)
    for row, expected in zip(rows, oracle(named, refs, "TER", "bs", 300), strict=True):
        assert row.score == expected.score
        assert (row.mean, row.ci) == pytest.approx((expected.mean, expected.ci), abs=1e-4)
    assert rows[1].p_value_ar == _exact_ter_ar(named, refs, 300, 12345) == 253 / 301


def _exact_ter_ar(named: Named, refs: list[list[str]], n: int, seed: int) -> float:
    """sacrebleu's AR loop for TER in exact (Fraction) arithmetic."""
    a, b = (
        [[Fraction(x) for x in r] for r in TER()._extract_corpus_statistics(h, refs)]
        for h in named.values()
    )

    def score(rows: list[list[Fraction]]) -> Fraction:
        edits, length = sum(r[0] for r in rows), sum(r[1] for r in rows)
        return 100 * edits / length if length else Fraction(100 if edits else 0)

    observed = abs(score(a) - score(b))
    masks = np.random.default_rng(seed).integers(2, size=(n, len(a)), dtype=bool)
    count = 0
    for mask in masks:
        pseudo_a = [x if m else y for x, y, m in zip(a, b, mask, strict=True)]
        pseudo_b = [y if m else x for x, y, m in zip(a, b, mask, strict=True)]
        count += abs(score(pseudo_a) - score(pseudo_b)) > observed
    return (count + 1) / (n + 1)


def test_chunked_draws_equal_one_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks of 1 bootstrap row and 32 AR rows leave numpy's random stream unchanged."""
    named, refs = make_corpus(33, 2, 5)
    whole = mine(named, refs, "chrF++", 150, 333, 9)
    monkeypatch.setattr(resampling, "MAX_CELLS", 10)
    assert mine(named, refs, "chrF++", 150, 333, 9) == whole


def test_baseline_alone_and_no_ar(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    named, refs = make_corpus(30, 1, 6)
    base, others = stats_of(named, refs, TER())
    (alone,) = compare_systems_metric("base", base, {}, TER(), 100, 100)
    rows = compare_systems_metric("base", base, others, TER(), 100, 0)
    assert alone == rows[0] and alone.p_value_bs is None and alone.p_value_ar is None
    assert all(row.p_value_ar is None and row.p_value_bs is not None for row in rows[1:])
    assert_equal(rows, oracle(named, refs, "TER", "bs", 100), None)


def test_seeded_and_unseeded() -> None:
    named, refs = make_corpus(30, 1, 7)
    base, others = stats_of(named, refs, CHRF())
    first = compare_systems_metric("base", base, others, CHRF(), 100, 100, seed=99)
    assert compare_systems_metric("base", base, others, CHRF(), 100, 100, seed=99) == first
    assert compare_systems_metric("base", base, others, CHRF(), 100, 100, seed=0)[1] != first[1]
    unseeded = compare_systems_metric("base", base, others, CHRF(), 50, 50, seed=None)
    assert [r.score for r in unseeded] == [r.score for r in first]


def _call(**changes: Any) -> Callable[[], object]:
    """compare_systems_metric on a 3-segment chrF corpus, with some arguments replaced."""
    base = np.ones((3, 18))
    kwargs: dict[str, Any] = {
        "baseline_name": "base",
        "baseline": base,
        "systems": {"sys": base.copy()},
        "metric": CHRF(),
        "n_bootstrap": 10,
        "n_ar": 10,
        "seed": 1,
    }
    return lambda: compare_systems_metric(**(kwargs | changes))


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (_call(n_bootstrap=0), ConfigError, r"^n_bootstrap: must be at least 1, got 0$"),
        (_call(n_ar=-1), ConfigError, r"^n_ar: must be at least 0, got -1$"),
        (_call(seed=-5), ConfigError, r"^seed: must be at least 0, got -5$"),
        (
            _call(n_bootstrap=MAX_RESAMPLES + 1),
            ConfigError,
            r"^n_bootstrap: at most 1,000,000, got 1,000,001$",
        ),
        (_call(n_ar=MAX_TRIALS + 1), ConfigError, r"^n_ar: at most 1,000,000, got 1,000,001$"),
        (_call(seed=2**63), ConfigError, rf"^seed: at most {MAX_SEED:,}, got {2**63:,}$"),
        (_call(seed=1e23), ConfigError, r"^seed: must be an integer, got 1e\+23$"),
        (_call(baseline=np.ones((0, 18))), InputError, r"^base: no segments to resample$"),
        (_call(systems={"s": np.ones((2, 18))}), InputError, r"^s: 2 segments but base has 3$"),
        (
            _call(systems={"s": np.ones((3, 12))}),
            InputError,
            r"^s: 12 statistics a segment but base has 18$",
        ),
        (_call(baseline=np.ones(18)), InputError, r"^base: statistics must be 2-D .* got 1-D$"),
        (
            _call(systems={"s": np.full((3, 18), np.nan)}),
            InputError,
            r"^s: statistics must be finite numbers$",
        ),
        (_call(metric=TER()), ConfigError, r"^metric: TER needs 2 statistics a segment, got 18$"),
        (
            _call(metric=CHRF(word_order=2)),
            ConfigError,
            r"^metric: CHRF needs 24 statistics a segment, got 18$",
        ),
    ],
)
def test_refusals(call: Callable[[], object], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        call()
