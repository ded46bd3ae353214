"""Tests of bleuviz.analysis.metric_spans: a metric's spans against people's, as BLEU's are.

The oracle is ``mpp_oracle`` (every matching enumerated on character sets) over
spans selected and merged here by the rules restated in the test. Then BLEU's
own runs of flagged tokens, written as a metric's spans, must score what
``what_bleu_sees`` reports: one measure for both.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuviz.analysis.error_tokens import what_bleu_sees
from bleuviz.analysis.metric_spans import metric_agreement
from bleuviz.bleu.config import BleuConfig
from bleuviz.bleu.explain import MATCH, explain_segment
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.errors import InputError
from bleuviz.io.error_spans import METRIC, ErrorAnnotations, ErrorSpan, SegmentAnnotation
from tests.analysis import mpp_oracle
from tests.analysis.error_span_strategies import RATERS, Case, annotation, cases


@settings(max_examples=100, deadline=None)
@given(data=st.data(), case=cases(), rater=st.sampled_from((None, *RATERS)))
def test_equals_the_brute_force_oracle(data: st.DataObject, case: Case, rater: str | None) -> None:
    gold = case.annotations
    guesses = {
        name: tuple(data.draw(annotation(line)) for line in case.testset.systems[name])
        for name in gold.segments
    }
    predicted = ErrorAnnotations("xCOMET", "x.json", METRIC, guesses)
    reports = metric_agreement(predicted, gold, rater)
    assert [r.name for r in reports] == [*gold.segments, "all"]
    every: tuple[list[list[tuple[int, int]]], list[list[tuple[int, int]]]] = ([], [])
    for report in reports[:-1]:
        pred_side, gold_side = [], []
        for guess, truth in zip(guesses[report.name], gold.segments[report.name], strict=True):
            if guess is None or truth is None or (rater and rater not in truth.raters):
                continue
            marks = [(s.start, s.end) for s in guess.spans if not (s.on_source or s.omission)]
            pred_side.append(mpp_oracle.union(marks))
            gold_side.append(
                mpp_oracle.union(
                    [
                        (s.start, s.end)
                        for s in truth.spans
                        if not (s.on_source or s.omission)
                        and s.severity in ("major", "minor", "critical")
                        and rater in (None, s.rater)
                    ]
                )
            )
        assert report.segments == len(pred_side)
        expected = mpp_oracle.micro(pred_side, gold_side)
        got = (report.credit.precision, report.credit.recall, report.credit.f1)
        assert got == pytest.approx(expected)
        every[0].extend(pred_side)
        every[1].extend(gold_side)
    total = reports[-1].credit
    assert (total.precision, total.recall, total.f1) == pytest.approx(mpp_oracle.micro(*every))


@settings(max_examples=60, deadline=None)
@given(case=cases(), order=st.integers(1, 3))
def test_bleu_runs_as_a_metric_score_what_the_analysis_reports(case: Case, order: int) -> None:
    tokenize = TokenizeConfig()
    analysis = what_bleu_sees(case.testset, case.annotations, tokenize, BleuConfig(max_order=order))
    runs = {}
    for name in case.annotations.segments:
        per_segment: list[SegmentAnnotation | None] = []
        for i, line in enumerate(case.testset.systems[name]):
            refs = [r[i] for r in case.testset.references]
            detail = explain_segment(line, refs, tokenize, order)
            if case.annotations.segments[name][i] is None or detail.hyp_spans is None:
                per_segment.append(None)  # the analysis leaves these out too
                continue
            flagged = [s != MATCH for s in detail.token_statuses(order)]
            spans: list[ErrorSpan] = []
            previous = False
            for (start, end), flag in zip(detail.hyp_spans, flagged, strict=True):
                if flag and previous:
                    spans[-1] = ErrorSpan(spans[-1].start, end, "major", "", "bleu")
                elif flag:
                    spans.append(ErrorSpan(start, end, "major", "", "bleu"))
                previous = flag
            per_segment.append(SegmentAnnotation(("bleu",), tuple(spans)))
        runs[name] = tuple(per_segment)
    bleu = ErrorAnnotations("BLEU", "flags", METRIC, runs)
    total = metric_agreement(bleu, case.annotations)[-1]
    agreement = analysis.all.spans[order - 1]
    assert total.segments == analysis.all.segments
    assert (total.credit.predicted, total.credit.gold) == (
        agreement.credit.predicted,
        agreement.credit.gold,
    )
    assert (total.credit.precision, total.credit.recall, total.credit.f1) == pytest.approx(
        (agreement.precision, agreement.recall, agreement.f1)
    )


def test_no_system_in_common_is_refused() -> None:
    gold = ErrorAnnotations("MQM", "m.tsv", "human", {"A": (None,)})
    predicted = ErrorAnnotations("xCOMET", "x.json", METRIC, {"B": (None,)})
    with pytest.raises(InputError, match=r"x\.json: xCOMET and MQM annotate no system in common"):
        metric_agreement(predicted, gold)
