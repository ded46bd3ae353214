"""All pairs, Holm's correction, rank clusters and sacrebleu's paired signature.

Oracles: sacrebleu 2.6.0's ``PairedTest`` (its signatures, and its p-values for a
two-system run with the pair's first system as baseline), statsmodels-free Holm
values worked out by hand, and clusters worked out from the definition.
"""

from __future__ import annotations

import pytest
from sacrebleu.metrics import BLEU, CHRF
from sacrebleu.significance import PairedTest

from bleuviz.bleu import BleuConfig
from bleuviz.errors import ConfigError
from bleuviz.significance import compare_systems
from bleuviz.significance.all_pairs import PairTest, all_pairs, holm, rank_clusters
from bleuviz.significance.resampling import PairedResult, paired_signature

REFS = [["the cat sat on the mat", "a dog ran in the park", "it rained all day long"]]
SYSTEMS = {
    "A": ["the cat sat on a mat", "a dog ran in a park", "it rained all day"],
    "B": ["a cat is on the mat", "the dog runs in the park", "it rained the whole day long"],
    "C": ["cat mat", "dog park", "rain"],
}


@pytest.mark.parametrize(
    ("test_type", "n", "confidence", "n_ar"), [("bs", 1000, -1, 0), ("ar", 10000, 1000, 10000)]
)
@pytest.mark.parametrize("metric", [BLEU(), CHRF()])
def test_paired_signature_equals_sacrebleus(
    test_type: str, n: int, confidence: int, n_ar: int, metric: BLEU | CHRF
) -> None:
    named = [(k, v) for k, v in SYSTEMS.items()][:2]
    signatures, _ = PairedTest(
        named, {"m": metric}, REFS, test_type=test_type, n_samples=n, n_ar_confidence=confidence
    )()
    expected = next(iter(signatures.values())).format()
    plain = metric.get_signature().format()
    assert paired_signature(plain, 1000, n_ar, 12345) == expected


def test_paired_signature_of_a_score_without_nrefs() -> None:
    assert (
        paired_signature("imported:x|agg:mean", 100, 0, None)
        == "bs:100|seed:none|imported:x|agg:mean"
    )


def test_each_pair_equals_a_two_system_run(make_stats) -> None:  # type: ignore[no-untyped-def]
    stats = {name: make_stats(hyps, REFS) for name, hyps in SYSTEMS.items()}
    config = BleuConfig()

    def tester(baseline: str, others: list[str]) -> list[PairedResult]:
        rest = {o: stats[o] for o in others}
        return compare_systems(baseline, stats[baseline], rest, config, 200, 320, 7)

    scores, pairs = all_pairs(list(SYSTEMS), tester)
    assert [(p.a, p.b) for p in pairs] == [("A", "B"), ("A", "C"), ("B", "C")]
    for pair in pairs:
        alone = compare_systems(pair.a, stats[pair.a], {pair.b: stats[pair.b]}, config, 200, 320, 7)
        assert (pair.p_value_bs, pair.p_value_ar) == (alone[1].p_value_bs, alone[1].p_value_ar)
        assert pair.diff == pytest.approx(alone[1].score - alone[0].score)
        assert scores[pair.b] == alone[1].score


def test_two_system_runs_equal_sacrebleu(make_stats) -> None:  # type: ignore[no-untyped-def]
    """The pair (B, C) is what `sacrebleu ref -i B C --paired-bs` prints."""
    stats = {name: make_stats(hyps, REFS) for name, hyps in SYSTEMS.items()}
    _, result = PairedTest(
        [("B", SYSTEMS["B"]), ("C", SYSTEMS["C"])], {"BLEU": BLEU()}, REFS, "bs", 1000
    )()
    mine = compare_systems("B", stats["B"], {"C": stats["C"]}, BleuConfig(), 1000, 0, 12345)
    assert mine[1].p_value_bs == result["BLEU"][1].p_value


def pair(a: str, b: str, p: float | None, ar: float | None = None) -> PairTest:
    return PairTest(a, b, p, ar, 0.0)


def test_holm_steps_down_and_stays_monotone() -> None:
    pairs = [pair("A", "B", 0.01, 0.04), pair("A", "C", 0.04, 0.01), pair("B", "C", 0.03, None)]
    adjusted = holm(pairs)
    # bs: sorted 0.01, 0.03, 0.04 -> 3*0.01, max(0.03, 2*0.03), max(0.06, 1*0.04)
    assert [p.p_value_bs for p in adjusted] == pytest.approx([0.03, 0.06, 0.06])
    # ar: two values 0.01, 0.04 -> 0.02, max(0.02, 0.04)
    assert [p.p_value_ar for p in adjusted] == pytest.approx([0.04, 0.02, None])


def test_clusters_follow_the_definition() -> None:
    scores = {"A": 30.0, "B": 29.5, "C": 25.0, "D": 24.9, "E": 10.0}
    significant = {("A", "C"), ("A", "D"), ("A", "E"), ("C", "E"), ("D", "E")}
    names = list(scores)
    pairs = [
        pair(a, b, 0.01 if (a, b) in significant else 0.3)
        for i, a in enumerate(names)
        for b in names[i + 1 :]
    ]
    # B joins A; C is significantly worse than A (the cluster's best) though not than B.
    assert rank_clusters(scores, pairs) == [["A", "B"], ["C", "D"], ["E"]]
    # Lower is better (TER): E is best, and D is significantly different from it.
    assert rank_clusters(scores, pairs, higher_is_better=False) == [["E"], ["D", "C", "B"], ["A"]]


def test_clusters_need_the_pairs() -> None:
    with pytest.raises(ConfigError, match="'A' and 'B' were not tested"):
        rank_clusters({"A": 1.0, "B": 0.5}, [])
    with pytest.raises(ConfigError, match="at least two systems"):
        all_pairs(["A"], lambda a, b: [])
