"""Tests of bleuviz.analysis.error_tokens: what BLEU sees of human errors.

The oracle below recounts everything one token at a time from the definitions:
``explain_segment`` (the highlight) gives each token's status and place, each
span is a set of character positions, a token is an error token when its
characters meet a target-side major or minor span, categories are mapped by a
table written out here, and span agreement is the brute-force MPP of
``mpp_oracle`` over the runs of flagged tokens and the union of the spans.
"""

from __future__ import annotations

import multiprocessing
import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuviz import parallel
from bleuviz.analysis import error_tokens
from bleuviz.analysis.error_categories import TOP_CATEGORIES, top_category
from bleuviz.analysis.error_tokens import (
    ALL,
    ErrorTokenAnalysis,
    ErrorTokenReport,
    OrderCounts,
    what_bleu_sees,
)
from bleuviz.bleu.config import BleuConfig
from bleuviz.bleu.explain import MATCH, explain_segment
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.errors import InputError
from bleuviz.io.decode import read_path
from bleuviz.io.error_span_files import attach_error_spans
from bleuviz.io.error_spans import HUMAN, ErrorAnnotations, ErrorSpan, SegmentAnnotation
from bleuviz.io.load import load_paths
from bleuviz.io.testset import TestSet
from tests.analysis import mpp_oracle
from tests.analysis.error_span_strategies import RATERS, Case, cases
from tests.conftest import ROOT

#: First level (lower case) -> top-level category; anything else is Other.
CATEGORY_TABLE = {
    "accuracy": "Accuracy",
    "fluency": "Fluency",
    "terminology": "Terminology",
    "style": "Style",
    "locale convention": "Locale convention",
    "other": "Other",
    "non-translation!": "Accuracy",
}


@pytest.mark.parametrize(
    ("category", "expected"),
    [
        ("Accuracy/Mistranslation", "Accuracy"),
        ("FLUENCY/Grammar", "Fluency"),
        ("Locale convention/Currency format", "Locale convention"),
        ("Terminology", "Terminology"),
        ("Style/Awkward", "Style"),
        ("Non-translation!", "Accuracy"),
        ("Source error", "Other"),
        ("Other", "Other"),
        ("", "Other"),
        ("Omission", "Other"),
    ],
)
def test_top_category(category: str, expected: str) -> None:
    assert top_category(category) == expected


@dataclass
class Counts:
    """The oracle's tallies for one system (or all)."""

    segments: int = 0
    unaligned: list[tuple[str, int]] = field(default_factory=list)
    # group -> order -> [error tokens, error flagged]; group "" = any error
    error: dict[str, dict[int, list[int]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(lambda: [0, 0]))
    )
    other: dict[int, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    members: dict[str, set[tuple[str, int]]] = field(default_factory=lambda: defaultdict(set))
    runs: dict[int, list[list[tuple[int, int]]]] = field(default_factory=lambda: defaultdict(list))
    gold: list[list[tuple[int, int]]] = field(default_factory=list)


def counted_spans(annotation: SegmentAnnotation, rater: str | None) -> list[ErrorSpan]:
    """The spans that make error tokens."""
    return [
        s
        for s in annotation.spans
        if not s.on_source
        and not s.omission
        and s.severity in ("major", "minor", "critical")
        and (rater is None or s.rater == rater)
    ]


def oracle(
    case: Case, tokenize: TokenizeConfig, order: int, rater: str | None
) -> dict[str, Counts]:
    """Recount every system and all, token by token."""
    out: dict[str, Counts] = {}
    total = Counts()
    for name, lines in case.testset.systems.items():
        if name not in case.annotations.segments:
            continue
        counts = out[name] = Counts()
        for i, line in enumerate(lines):
            annotation = case.annotations.segments[name][i]
            if annotation is None or (rater is not None and rater not in annotation.raters):
                continue
            refs = [ref[i] for ref in case.testset.references]
            detail = explain_segment(line, refs, tokenize, order)
            if detail.hyp_spans is None:
                counts.unaligned.append((name, i))
                continue
            counts.segments += 1
            marked = counted_spans(annotation, rater)
            groups_of = []
            for start, end in detail.hyp_spans:
                token = set(range(start, end))
                hit = [s for s in marked if token & mpp_oracle.chars((s.start, s.end))]
                groups = {s.severity for s in hit}
                groups |= {
                    CATEGORY_TABLE.get(s.category.split("/")[0].strip().lower(), "Other")
                    for s in hit
                }
                groups_of.append(groups)
            for n in range(1, order + 1):
                flagged = [status != MATCH for status in detail.token_statuses(n)]
                for groups, flag in zip(groups_of, flagged, strict=True):
                    if groups:
                        for g in ("", *groups):
                            counts.error[g][n][0] += 1
                            counts.error[g][n][1] += flag
                    else:
                        counts.other[n][0] += 1
                        counts.other[n][1] += flag
                runs: list[tuple[int, int]] = []
                previous = False
                for (start, end), flag in zip(detail.hyp_spans, flagged, strict=True):
                    if flag and previous:
                        runs[-1] = (runs[-1][0], end)
                    elif flag:
                        runs.append((start, end))
                    previous = flag
                counts.runs[n].append(runs)
            for groups in groups_of:
                for g in groups:
                    counts.members[g].add((name, i))
            counts.gold.append(mpp_oracle.union([(s.start, s.end) for s in marked]))
        total.segments += counts.segments
        total.unaligned += counts.unaligned
        for g, per_order in counts.error.items():
            for n, (tokens, flagged) in per_order.items():
                total.error[g][n][0] += tokens
                total.error[g][n][1] += flagged
        for n, (tokens, flagged) in counts.other.items():
            total.other[n][0] += tokens
            total.other[n][1] += flagged
        for g, refs in counts.members.items():
            total.members[g] |= refs
        for n, runs in counts.runs.items():
            total.runs[n] += runs
        total.gold += counts.gold
    out[ALL] = total
    return out


def assert_report(
    report: ErrorTokenReport, counts: Counts, order: int, severities: list[str]
) -> None:
    """Compare one report with the oracle's tallies."""
    assert report.segments == counts.segments
    assert list(report.unaligned) == counts.unaligned
    groups: list[tuple[str, Sequence[OrderCounts]]] = [("", report.orders)]
    groups += list(report.by_severity.items()) + list(report.by_category.items())
    assert list(report.by_category) == list(TOP_CATEGORIES)
    assert list(report.by_severity) == severities
    for group, rows in groups:
        assert len(rows) == order
        for n, row in enumerate(rows, start=1):
            expected = (
                n,
                counts.error[group][n][0],
                counts.error[group][n][1],
                counts.other[n][0],
                counts.other[n][1],
            )
            assert (
                row.order,
                row.error_tokens,
                row.error_flagged,
                row.other_tokens,
                row.other_flagged,
            ) == expected, group
    for group, refs in [*report.segments_by_severity.items(), *report.segments_by_category.items()]:
        assert set(refs) == counts.members[group]
        assert len(refs) == len(set(refs))
    for n, agreement in enumerate(report.spans, start=1):
        expected_prf = mpp_oracle.micro(counts.runs[n], counts.gold)
        assert (agreement.precision, agreement.recall, agreement.f1) == pytest.approx(expected_prf)
        assert agreement.credit.gold == sum(len(g) for g in counts.gold)


@settings(max_examples=120, deadline=None)
@given(
    case=cases(),
    name=st.sampled_from(("13a", "char", "none", "intl")),
    lowercase=st.booleans(),
    order=st.integers(1, 4),
    rater=st.sampled_from((None, *RATERS)),
)
def test_counts_equal_the_token_by_token_oracle(
    case: Case, name: str, lowercase: bool, order: int, rater: str | None
) -> None:
    tokenize = TokenizeConfig(name, lowercase)
    analysis = what_bleu_sees(
        case.testset, case.annotations, tokenize, BleuConfig(max_order=order), rater
    )
    expected = oracle(case, tokenize, order, rater)
    assert [r.name for r in analysis.systems] == [n for n in expected if n != ALL]
    critical = any(n[0] for n in expected[ALL].error["critical"].values())
    severities = ["major", "minor", *(["critical"] if critical else [])]
    for report in (*analysis.systems, analysis.all):
        assert_report(report, expected[report.name], order, severities)
    assert analysis.system(ALL) is analysis.all
    assert analysis.not_annotated == tuple(
        n for n in case.testset.systems if n not in case.annotations.segments
    )


@settings(max_examples=20, deadline=None)
@given(case=cases(), name=st.sampled_from(("13a", "intl")), rater=st.sampled_from((None, *RATERS)))
def test_systems_tallied_in_worker_processes_give_the_same_analysis(
    case: Case, name: str, rater: str | None
) -> None:
    """Every system in a forked worker (``PROCESSES_FROM`` 0), or all here: equal analyses."""
    if not sys.platform.startswith("linux"):
        pytest.skip("worker processes are forked on Linux only")
    tokenize, config = TokenizeConfig(name), BleuConfig(max_order=2)
    here = what_bleu_sees(case.testset, case.annotations, tokenize, config, rater, workers=1)
    pool = mock.Mock(side_effect=parallel.in_processes)
    with (
        mock.patch.object(error_tokens, "PROCESSES_FROM", 0),
        mock.patch.object(parallel, "fork_context", lambda: multiprocessing.get_context("fork")),
        mock.patch.object(parallel, "in_processes", pool),
    ):
        pooled = what_bleu_sees(case.testset, case.annotations, tokenize, config, rater, 2)
    assert pooled == here
    assert pool.called == (len(here.systems) > 1)


def small_case(
    hyp: str, refs: Sequence[str], marked: Sequence[ErrorSpan]
) -> tuple[TestSet, ErrorAnnotations]:
    """One system, one segment, annotated by rater r1."""
    annotations = ErrorAnnotations(
        "MQM", "t.tsv", HUMAN, {"A": (SegmentAnnotation(("r1",), tuple(marked)),)}
    )
    testset = TestSet({"A": (hyp,)}, tuple((r,) for r in refs), error_spans=(annotations,))
    return testset, annotations


def run(testset: TestSet, annotations: ErrorAnnotations, order: int = 2) -> ErrorTokenAnalysis:
    return what_bleu_sees(testset, annotations, TokenizeConfig(), BleuConfig(max_order=order))


def test_clipped_error_token_is_flagged_and_matched_one_is_not() -> None:
    # Hypothesis "the the the cat ." against "the cat the .": the third "the" is
    # clipped (2 in the reference). The error span covers the second and third "the".
    hyp = "the the the cat ."
    span = ErrorSpan(4, 11, "major", "Accuracy/Addition", "r1")
    testset, annotations = small_case(hyp, ["the cat the ."], [span])
    unigrams = run(testset, annotations).all.orders[0]
    assert (unigrams.error_tokens, unigrams.error_flagged) == (2, 1)
    assert (unigrams.other_tokens, unigrams.other_flagged) == (3, 0)
    assert unigrams.difference == pytest.approx(0.5)
    assert run(testset, annotations).all.by_category["Accuracy"][0].error_flagged == 1


def test_span_on_punctuation_marks_the_punctuation_token() -> None:
    # 13a splits "cat." into "cat" and "."; a span on the full stop alone marks only ".".
    hyp = "a cat."
    testset, annotations = small_case(
        hyp, ["a cat !"], [ErrorSpan(5, 6, "minor", "Fluency/Punctuation", "r1")]
    )
    report = run(testset, annotations, order=1).all
    assert (report.orders[0].error_tokens, report.orders[0].error_flagged) == (1, 1)
    assert report.by_severity["minor"][0].error_tokens == 1
    assert report.by_severity["major"][0].error_tokens == 0
    assert report.segments_by_category["Fluency"] == (("A", 0),)
    assert report.segments_by_category["Accuracy"] == ()


def test_neutral_source_and_omission_spans_make_no_error_tokens() -> None:
    marked = [
        ErrorSpan(0, 1, "neutral", "Style", "r1"),
        ErrorSpan(0, 3, "major", "Accuracy", "r1", on_source=True),
        ErrorSpan(0, 0, "major", "Accuracy/Omission", "r1", omission=True),
    ]
    testset, annotations = small_case("a b c", ["a b c"], marked)
    report = run(testset, annotations).all
    assert report.orders[0].error_tokens == 0
    assert report.orders[0].other_tokens == 3
    assert report.spans[0].credit.gold == 0


def test_unaligned_segment_is_listed_not_counted() -> None:
    testset, annotations = small_case(
        "say &quot;hi&quot;", ["say hi"], [ErrorSpan(0, 3, "major", "Other", "r1")]
    )
    report = run(testset, annotations).all
    assert report.segments == 0
    assert report.unaligned == (("A", 0),)
    assert report.orders[0].error_tokens == 0


def test_span_past_the_line_is_refused() -> None:
    annotations = ErrorAnnotations(
        "MQM",
        "t.tsv",
        HUMAN,
        {"A": (SegmentAnnotation(("r1",), (ErrorSpan(0, 9, "major", "Other", "r1"),)),)},
    )
    testset = TestSet({"A": ("a b",)}, (("a b",),))
    with pytest.raises(InputError, match=r"t\.tsv: system 'A', segment 1: span 0-9 lies outside"):
        run(testset, annotations)


def test_annotations_of_no_loaded_system_are_refused() -> None:
    annotations = ErrorAnnotations("MQM", "t.tsv", HUMAN, {})
    testset = TestSet({"A": ("a b",)}, (("a b",),))
    with pytest.raises(InputError, match=r"t\.tsv: MQM annotates no system"):
        run(testset, annotations)


def test_unknown_system_is_refused() -> None:
    testset, annotations = small_case("a b", ["a b"], [])
    with pytest.raises(InputError, match="no annotated system 'B'"):
        run(testset, annotations).system("B")


def test_gold_spans_are_the_raters_union() -> None:
    # Two raters mark overlapping words (one error region); a third span only touches it.
    hyp = "x y z w"
    marked = [
        ErrorSpan(0, 3, "major", "Accuracy", "r1"),
        ErrorSpan(2, 5, "minor", "Fluency", "r2"),
        ErrorSpan(5, 7, "minor", "Style", "r1"),
    ]
    annotations = ErrorAnnotations(
        "MQM", "t.tsv", HUMAN, {"A": (SegmentAnnotation(("r1", "r2"), tuple(marked)),)}
    )
    testset = TestSet({"A": (hyp,)}, (("a b c d",),))
    report = run(testset, annotations, order=1).all
    # Every token is flagged: one run (0, 7) against gold (0, 5) and (5, 7).
    assert report.spans[0].credit.gold == 2
    assert report.spans[0].credit.predicted == 1
    assert report.spans[0].precision == pytest.approx(5 / 7)
    assert report.spans[0].recall == pytest.approx(1 / 2)
    assert report.orders[0].error_tokens == 4
    only_r2 = what_bleu_sees(testset, annotations, TokenizeConfig(), BleuConfig(max_order=1), "r2")
    assert only_r2.all.orders[0].error_tokens == 2
    assert only_r2.all.spans[0].credit.gold == 1


@pytest.mark.parametrize("flavor", ["sacrebleu", "nltk", "tf-nmt"])
def test_every_flavour_clips_alike(flavor: str) -> None:
    # The flags depend on the tokenizer and the order only: every flavour clips an
    # n-gram at its largest count in one reference (sacrebleu, nltk's
    # modified_precision, tf-nmt's merged reference counts).
    hyp = "the the the cat sat ."
    refs = ["the cat the mat .", "a cat sat the ."]
    span = ErrorSpan(8, 11, "minor", "Fluency/Grammar", "r1")
    testset, annotations = small_case(hyp, refs, [span])
    config = BleuConfig(flavor=flavor, weights=(0.5, 0.5, 0.0), max_order=3)
    got = what_bleu_sees(testset, annotations, TokenizeConfig(), config)
    reference = what_bleu_sees(testset, annotations, TokenizeConfig(), BleuConfig(max_order=3))
    assert got.all.orders == reference.all.orders
    assert got.max_order == 3
    detail = explain_segment(hyp, refs, TokenizeConfig(), 3)
    third = [status != MATCH for status in detail.token_statuses(1)][2]
    assert (got.all.orders[0].error_tokens, got.all.orders[0].error_flagged) == (1, int(third))


@pytest.mark.parametrize(("name", "lowercase", "order"), [("13a", False, 4), ("char", True, 2)])
def test_published_mqm_excerpt_equals_the_oracle(name: str, lowercase: bool, order: int) -> None:
    # Google's TED en-de MQM excerpt (tests/data/mqm, see its README) read by the
    # MQM reader: real spans, categories and raters; Nemo's output stands in as the
    # reference of the two other systems.
    data = ROOT / "tests" / "data" / "mqm"
    testset = load_paths(
        [data / "Facebook-AI.txt", data / "metricsystem2.txt"],
        [data / "Nemo.txt"],
        docids=data / "docids.txt",
    )
    testset = attach_error_spans(testset, [read_path(data / "mqm_ted_ende.tsv")])
    case = Case(testset, testset.error_spans[0])
    tokenize = TokenizeConfig(name, lowercase)
    analysis = what_bleu_sees(testset, case.annotations, tokenize, BleuConfig(max_order=order))
    expected = oracle(case, tokenize, order, None)
    for report in (*analysis.systems, analysis.all):
        assert_report(report, expected[report.name], order, ["major", "minor"])
    assert analysis.all.segments == 50
    assert analysis.all.orders[0].error_tokens > 0


def test_undecided_spans_are_counted_apart() -> None:
    # "a b c d" against "x b c y": "a" and "d" are flagged at order 1, "b" and "c" matched.
    # A major span marks "a", an undecided one (ESA, WMT24) marks "c": by hand, "a" is
    # the one error token, "b" and "d" the other tokens, "c" its own group.
    major = ErrorSpan(0, 1, "major", "", "r1")
    undecided = ErrorSpan(4, 5, "undecided", "", "r1")
    testset, annotations = small_case("a b c d", ["x b c y"], [major, undecided])
    report = run(testset, annotations, order=1).all
    unigrams = report.orders[0]
    assert (unigrams.error_tokens, unigrams.error_flagged) == (1, 1)
    assert (unigrams.other_tokens, unigrams.other_flagged) == (2, 1)
    apart = report.by_severity["undecided"][0]
    assert (apart.error_tokens, apart.error_flagged) == (1, 0)
    assert report.segments_by_severity["undecided"] == (("A", 0),)
    assert report.by_category["Other"][0].error_tokens == 1  # the major span's only
    assert report.spans[0].credit.gold == 1  # the major span is the one gold span
    without, _ = small_case("a b c d", ["x b c y"], [major])
    plain = run(without, annotations=without.error_spans[0], order=1).all
    assert "undecided" not in plain.by_severity  # listed only when some token has it
