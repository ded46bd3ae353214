"""Tests for bleuviz.io.mqm_score: MQM segment scores against two independent sources.

1. An independent re-implementation, below, of mt-metrics-eval's
   ``converters/score_mqm.py`` rules, run on the raw TSV rows (not on bleuviz's
   spans): weights by the most specific ``severity/category/sub`` prefix, summed
   per rater, averaged over the segment's raters, negated.
2. Google's published per-segment averages (``mqm_ted_ende.avg_seg_scores.tsv``,
   excerpt in tests/data/mqm, see its README).
"""

from __future__ import annotations

import math
from collections import defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuviz.errors import ConfigError
from bleuviz.io.decode import NamedBytes
from bleuviz.io.error_spans import ErrorSpan, SegmentAnnotation
from bleuviz.io.mqm_score import (
    DEFAULT_WEIGHTS,
    DEFAULT_WEIGHTS_SPEC,
    mqm_scores,
    parse_weights,
    segment_mqm,
)
from bleuviz.io.mqm_tsv import read_mqm_tsv
from bleuviz.io.testset import TestSet
from tests.io.test_mqm_tsv import HEADER, MQM_DATA, MQM_SYSTEMS, ted_excerpt

#: mt-metrics-eval's default --weights flag, as its script spells it (score_mqm.py).
MTME_WEIGHTS = "Major:5 Minor:1 Neutral:0 Major/Non-translation!:25 Minor/Fluency/Punctuation:0.1"


def oracle_weight(weights: dict[str, float], severity: str, category: str) -> float:
    """mt-metrics-eval's ``Score``: the longest matching prefix, lower case, else 0."""
    items = [x.lower() for x in [severity, *category.split("/")]]
    while items:
        if "/".join(items) in weights:
            return weights["/".join(items)]
        items = items[:-1]
    return 0.0


def oracle_scores(tsv_text: str, spec: str = MTME_WEIGHTS) -> dict[tuple[str, str, int], float]:
    """Score raw TSV rows as ``score_mqm.py`` does: {(system, doc, doc_id): score}."""
    weights = {k.lower(): float(v) for k, v in (e.split(":") for e in spec.split(" "))}
    lines = tsv_text.splitlines()
    names = lines[0].split("\t")
    per: dict[tuple[str, str, int], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for line in lines[1:]:
        row = dict(zip(names, line.split("\t"), strict=False))
        key = (row["system"], row["doc"], int(row["doc_id"]))
        per[key][row["rater"]].append(oracle_weight(weights, row["severity"], row["category"]))
    return {key: -sum(sum(v) for v in raters.values()) / len(raters) for key, raters in per.items()}


def test_default_weights_are_mt_metrics_eval_s() -> None:
    assert parse_weights(MTME_WEIGHTS) == DEFAULT_WEIGHTS
    assert MTME_WEIGHTS.lower() == DEFAULT_WEIGHTS_SPEC


@pytest.mark.parametrize(
    ("severity", "category", "weight"),
    [
        ("major", "Accuracy/Mistranslation", 5.0),
        ("MAJOR", "Non-translation!", 25.0),
        ("minor", "Non-translation!", 1.0),
        ("minor", "Fluency/Punctuation", 0.1),
        ("minor", "fluency/punctuation/extra", 0.1),
        ("major", "Fluency/Punctuation", 5.0),
        ("neutral", "Style/Awkward", 0.0),
        ("minor", "", 1.0),
        ("critical", "Accuracy", None),
    ],
)
def test_most_specific_weight_wins(severity: str, category: str, weight: float | None) -> None:
    assert DEFAULT_WEIGHTS.weight(severity, category) == weight


def test_raters_are_summed_then_averaged_and_negated() -> None:
    annotation = SegmentAnnotation(
        ("r1", "r2", "r3"),
        (
            ErrorSpan(0, 1, "major", "Accuracy", "r1"),
            ErrorSpan(1, 2, "minor", "Fluency/Punctuation", "r1"),
            ErrorSpan(1, 2, "minor", "Fluency/Punctuation", "r1", continued=True),
            ErrorSpan(0, 0, "major", "Non-translation!", "r2", omission=True),
        ),
    )
    # r1: 5 + 0.1 (the continued stretch is the same error), r2: 25, r3: no error
    assert segment_mqm(annotation, DEFAULT_WEIGHTS) == pytest.approx(-(5.1 + 25 + 0) / 3)
    assert segment_mqm(SegmentAnnotation(("r1",)), DEFAULT_WEIGHTS) == 0.0


def test_a_severity_without_weight_is_refused() -> None:
    annotation = SegmentAnnotation(("r1",), (ErrorSpan(0, 1, "critical", "Accuracy", "r1"),))
    with pytest.raises(ConfigError, match="severity 'critical' has no weight"):
        segment_mqm(annotation, DEFAULT_WEIGHTS)
    weights = parse_weights(DEFAULT_WEIGHTS_SPEC + " critical:10")
    assert segment_mqm(annotation, weights) == -10.0


@pytest.mark.parametrize(
    ("spec", "problem"),
    [
        ("", "no weights given"),
        ("major5", "'major5' is not SEVERITY[/CATEGORY[/SUB]]:WEIGHT"),
        ("major//x:5", "is not SEVERITY"),
        (":5", "is not SEVERITY"),
        ("major:five", "the weight of 'major' is not a number: 'five'"),
        ("major:nan", "not a number"),
        ("major:1e999", "not a number"),
        ("Major:5 major:4", "'major' is given twice"),
        # Review r3's probe: 1e308 summed to -inf (numpy's overflow warnings, a refused
        # JSON); a negative weight made an error raise the score.
        ("major:1e308 minor:1", "the weight of 'major' must be from 0 to 1,000,000, got 1e308"),
        ("major:5 minor:-1", "the weight of 'minor' must be from 0 to 1,000,000, got -1"),
        ("major:1000001 minor:1", "must be from 0 to 1,000,000, got 1000001"),
    ],
)
def test_bad_weights_are_refused(spec: str, problem: str) -> None:
    with pytest.raises(ConfigError, match=r"^--mqm-weights: ") as info:
        parse_weights(spec)
    assert problem in str(info.value)


def test_matches_the_oracle_and_googles_averages_on_the_ted_excerpt() -> None:
    path = MQM_DATA / "mqm_ted_ende.tsv"
    text = path.read_text(encoding="utf-8")
    testset = ted_excerpt()
    scores = mqm_scores(read_mqm_tsv(NamedBytes(str(path), path.read_bytes()), testset))
    docs = testset.doc_ids
    assert docs is not None
    oracle = oracle_scores(text)
    published = {}
    for line in (MQM_DATA / "mqm_ted_ende.avg_seg_scores.tsv").read_text().splitlines()[1:]:
        system, rest = line.split("\t")
        value, seg_id = rest.split(" ")
        published[system, int(seg_id)] = float(value)
    seg_ids = [*range(1, 21), *range(218, 223)]  # the excerpt's lines (its README)
    for system in MQM_SYSTEMS:
        for line, seg_id in enumerate(seg_ids):
            doc_id = docs[: line + 1].count(docs[line])
            assert scores[system][line] == pytest.approx(oracle[system, docs[line], doc_id])
            # Google's file rounds to 6 decimals
            assert scores[system][line] == pytest.approx(published[system, seg_id], abs=1e-6)


SEVERITIES = ["Major", "Minor", "Neutral", "minor", "MAJOR"]
CATEGORIES = [
    "Accuracy/Mistranslation",
    "Fluency/Punctuation",
    "fluency/punctuation",
    "Non-translation!",
    "Style/Awkward",
    "Other",
]
rows = st.lists(
    st.tuples(
        st.sampled_from(["A", "B"]),
        st.integers(1, 4),
        st.sampled_from(["r1", "r2", "r3"]),
        st.sampled_from([*SEVERITIES, "No-error"]),
        st.sampled_from(CATEGORIES),
    ),
    min_size=1,
    max_size=30,
)


@settings(max_examples=60, deadline=None)
@given(rows)
def test_matches_the_oracle_on_generated_files(
    generated: list[tuple[str, int, str, str, str]],
) -> None:
    hyps = ("eins zwei", "drei", "vier fünf", "sechs")
    testset = TestSet({"A": hyps, "B": hyps}, (hyps,))
    lines = [HEADER]
    for system, seg, rater, severity, category in generated:
        target = hyps[seg - 1] if severity == "No-error" else f"<v>{hyps[seg - 1][:3]}</v>"
        target += "" if severity == "No-error" else hyps[seg - 1][3:]
        category = "No-error" if severity == "No-error" else category
        lines.append(f"{system}\td\t{seg}\t{seg}\t{rater}\tsrc\t{target}\t{category}\t{severity}\t")
    text = "\n".join(lines) + "\n"
    scores = mqm_scores(read_mqm_tsv(NamedBytes("g.tsv", text.encode()), testset))
    oracle = oracle_scores(text)
    for system in ("A", "B"):
        for seg in range(1, 5):
            got = scores.get(system, [math.nan] * 4)[seg - 1]
            want = oracle.get((system, "d", seg), math.nan)
            assert got == pytest.approx(want, nan_ok=True)
