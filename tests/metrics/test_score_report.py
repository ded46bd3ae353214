"""How each metric is reported: ``MetricSpec.score_report``, ``json_alias`` and ``heading``.

The command line's ``score`` writes what each metric reports and never asks which
metric it holds, so the report must be sacrebleu's. Oracles: sacrebleu 2.x's
``BLEUScore.format()`` and its JSON fields, computed live here on the bundled
sample (bleuviz's ``corpus_score`` matches sacrebleu's ``corpus_bleu``, held in
tests/bleu), and sacrebleu's ``Score.format`` for the CI
(``BLEU = 45.28 (μ = 45.27 ± 3.99) ...``). The outputs themselves are held byte
for byte by tests/cli/test_golden_outputs.py.
"""

from __future__ import annotations

import numpy as np
import pytest
from sacrebleu.metrics import BLEU as SacreBLEU

from bleuviz.io.testset import TestSet
from bleuviz.metrics import METRICS, MetricScores, MetricSpec, Settings
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.metrics.registry import SCORE_CI_METRICS, SUMMED_METRICS, score_metric
from bleuviz.metrics.score_report import ScoreReport
from tests.data import SAMPLE_REF_LINES, SAMPLE_SYSTEM_LINES

SAMPLE = TestSet(
    {name: tuple(lines) for name, lines in SAMPLE_SYSTEM_LINES.items()},
    tuple(tuple(stream) for stream in SAMPLE_REF_LINES),
)
SYSTEM = next(iter(SAMPLE.systems))


@pytest.fixture(scope="module")
def evaluation() -> Evaluation:
    """The sample under the default settings, each metric scored once per module."""
    return Evaluation(SAMPLE, Settings())


def report_of(evaluation: Evaluation, label: str) -> tuple[MetricSpec, MetricScores, ScoreReport]:
    spec = evaluation.metric(label)
    scores = evaluation.scores(label)[SYSTEM]
    rows = evaluation.rows(label)[SYSTEM]
    return spec, scores, spec.score_report(scores, rows, evaluation.settings)


@pytest.mark.parametrize("label", list(METRICS))
def test_a_report_starts_with_the_name_and_score_as_sacrebleu_prints_it(
    evaluation: Evaluation, label: str
) -> None:
    spec, scores, report = report_of(evaluation, label)
    shown = f"{scores.corpus:.{spec.digits}f}"
    assert report.name == spec.score_name(evaluation.settings)
    assert report.line.startswith(f"{report.name} = {shown}")
    assert report.columns[0] == (report.name, shown)
    assert report.signature == scores.signature == report.fields["signature"]
    assert report.signature_line.endswith(scores.signature)
    assert report.ci is None


@pytest.mark.parametrize("label", list(METRICS))
def test_a_reports_sentence_items_are_its_sentence_scores(
    evaluation: Evaluation, label: str
) -> None:
    spec, scores, report = report_of(evaluation, label)
    items = list(report.sentences())
    values = [item[spec.json_alias] if isinstance(item, dict) else item for item in items]
    assert values == scores.sentence.tolist()


def test_bleu_reports_sacrebleus_fields_line_and_bare_signature(evaluation: Evaluation) -> None:
    _, _, report = report_of(evaluation, "BLEU")
    hyps, refs = SAMPLE.systems[SYSTEM], [list(stream) for stream in SAMPLE.references]
    oracle = SacreBLEU().corpus_score(list(hyps), refs)
    assert report.line == oracle.format(width=2)
    fields = report.fields
    assert list(fields)[:1] == ["bleu"] and not report.listed
    assert fields["bleu"] == pytest.approx(oracle.score, abs=1e-9)
    assert fields["counts"] == oracle.counts and fields["totals"] == oracle.totals
    assert (fields["hyp_len"], fields["ref_len"]) == (oracle.sys_len, oracle.ref_len)
    assert report.signature_line == report.signature
    assert [h for h, _ in report.columns] == ["BLEU", "BP", "Ratio", "Hyp len", "Ref len"]


@pytest.mark.parametrize("label", [label for label in METRICS if label != "BLEU"])
def test_the_others_are_listed_with_name_score_and_signature(
    evaluation: Evaluation, label: str
) -> None:
    _, scores, report = report_of(evaluation, label)
    assert report.listed
    assert report.fields == {
        "name": report.name,
        "score": scores.corpus,
        "signature": scores.signature,
    }
    assert report.signature_line == f"{report.name}|{scores.signature}"


def test_a_ci_follows_the_score_and_signs_in_place(evaluation: Evaluation) -> None:
    _, _, report = report_of(evaluation, "BLEU")
    drawn = report.with_ci(27.5, 1.25, "nrefs:2|bs:1000|seed:12345")
    head = f"BLEU = {report.score:.2f}"
    assert drawn.line == report.line.replace(head, f"{head} (μ = 27.50 ± 1.25)", 1)
    assert list(drawn.fields) == [*report.fields, "mean", "ci"]
    assert drawn.fields["signature"] == drawn.signature == "nrefs:2|bs:1000|seed:12345"
    assert drawn.ci == (27.5, 1.25)


def test_the_json_alias_is_bleus_own_key() -> None:
    aliases = {label: spec.json_alias for label, spec in METRICS.items()}
    assert aliases == {label: ("bleu" if label == "BLEU" else None) for label in METRICS}


@pytest.mark.parametrize(
    ("label", "heading"),
    [("BLEU", "BLEU"), ("chrF++", "chrF++"), ("TER", "TER"), ("ROUGE-1", "mean ROUGE-1 F")],
)
def test_a_heading_says_what_the_corpus_figure_is(label: str, heading: str) -> None:
    assert METRICS[label].heading() == heading


def test_the_summed_metrics_are_those_whose_scores_keep_statistics() -> None:
    hyps, refs = SAMPLE.systems[SYSTEM], SAMPLE.references
    keeps = {label for label in METRICS if score_metric(label, hyps, refs).stats is not None}
    assert set(SUMMED_METRICS) == keeps
    assert set(SCORE_CI_METRICS) <= keeps


def test_bleus_report_reads_the_same_from_two_rows_that_sum_as_dask_keeps() -> None:
    evaluation = Evaluation(SAMPLE, Settings())
    spec, scores, report = report_of(evaluation, "BLEU")
    rows = evaluation.rows("BLEU")[SYSTEM]
    two = np.vstack([rows[:-1].sum(axis=0), rows[-1]])
    assert spec.score_report(scores, two, evaluation.settings).fields == report.fields
