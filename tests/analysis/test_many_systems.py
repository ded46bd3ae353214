"""Many systems at once: outliers, the whole-segment export and the word diff.

Expectations are worked out by hand from each small input; the export is checked
against the sample's files themselves.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from bleuviz.analysis.outliers import find_outliers
from bleuviz.analysis.segments import add_columns, reading_order, segment_export, segment_table
from bleuviz.io.load import load_paths
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.render.word_diff import word_diff_html
from tests.data import SAMPLE_DOCIDS, SAMPLE_HYPS, SAMPLE_REFS, SAMPLE_SOURCE


def test_outliers_flag_empty_extreme_and_far_below() -> None:
    bleu = {
        "a": np.array([50.0, 40, 10]),
        "b": np.array([48.0, 0, 12]),
        "c": np.array([52.0, 45, 5]),
    }
    hyp = {"a": np.array([10, 10, 10]), "b": np.array([10, 0, 30]), "c": np.array([4, 10, 10])}
    ref = {n: np.array([10, 10, 10]) for n in bleu}
    found = find_outliers(bleu, hyp, ref, gap=30, low=0.5, high=2.0)
    flagged = {(r.system, r.seg, r.check) for r in found.itertuples()}
    assert flagged == {
        ("b", 2, "empty output"),
        ("b", 2, "BLEU ≥ 30 below the others' median"),  # median of 40 and 45 is 42.5
        ("b", 3, "length ratio > 2"),
        ("c", 1, "length ratio < 0.5"),
    }
    row = found[(found.system == "b") & (found.seg == 2) & (found.check.str.startswith("BLEU"))]
    assert float(row["median_others"].iloc[0]) == 42.5


def test_segment_export_is_whole_and_long_form() -> None:
    testset = load_paths(SAMPLE_HYPS, SAMPLE_REFS, SAMPLE_SOURCE, SAMPLE_DOCIDS)
    names = list(testset.systems)
    scores = {"BLEU": {n: np.arange(126, dtype=float) + i for i, n in enumerate(names)}}
    frame = segment_export(testset, names, scores)
    assert len(frame) == 3 * 126
    assert list(frame.columns) == [
        "seg",
        "seg_id",
        "doc",
        "source",
        "ref_1",
        "ref_2",
        "system",
        "hypothesis",
        "BLEU",
    ]
    for name, path in zip(names, SAMPLE_HYPS, strict=True):
        rows = frame[frame["system"] == name]
        assert rows["hypothesis"].tolist() == path.read_text("utf-8").splitlines()
    assert frame["ref_2"].iloc[:126].tolist() == SAMPLE_REFS[1].read_text("utf-8").splitlines()
    few = segment_export(testset, names[:1], scores, rows=[5, 2])
    assert few["seg"].tolist() == [6, 3] and few["BLEU"].tolist() == [5.0, 2.0]
    longest = max(len(h) for h in pd.concat([frame["hypothesis"]]))
    assert longest > 120  # the sample has lines longer than the table's preview


def test_word_diff_marks_and_escapes() -> None:
    html = word_diff_html("the cat sat <b>", "the dog sat <b> down")
    assert "<del>cat</del> <ins>dog</ins>" in html
    assert "&#60;b&#62;" in html and "<b>" not in html  # inert_text: a reference per mark
    assert html.endswith("<ins>down</ins></div>")
    assert word_diff_html("same words", "same words") == '<div class="bv-diff">same words</div>'


def test_edge_and_quantile_buckets() -> None:
    from bleuviz.analysis.buckets import NO_SCORE, edge_buckets, parse_edges, quantile_edges

    values = np.array([0.1, 0.5, 0.2, np.nan, 0.9, 0.3, 0.7, 0.6])
    assert quantile_edges(values) == pytest.approx((0.25, 0.5, 0.65))  # numpy "linear"
    labels, groups = edge_buckets(values, (0.25, 0.5))
    assert labels == ("<0.25", "0.25–0.5", "≥0.5", NO_SCORE)
    assert groups.tolist() == [0, 2, 0, 3, 2, 1, 2, 2]
    assert parse_edges("10, 20 30") == (10.0, 20.0, 30.0)


def test_reading_order_puts_the_hypothesis_after_the_scores() -> None:
    """Issue 44 (11): the scores and counts, the text, then BLEU's details; nothing lost."""
    testset = load_paths(SAMPLE_HYPS, SAMPLE_REFS, SAMPLE_SOURCE, SAMPLE_DOCIDS)
    table = segment_table(Evaluation(testset), next(iter(testset.systems)))
    add_columns(table, {"chrF": np.zeros(len(table)), "TER": np.zeros(len(table))}, [""] * 126)
    table.insert(list(table.columns).index("hyp_len"), "major", 0)
    order = reading_order(list(table.columns))
    assert sorted(order) == sorted(table.columns)
    assert order[: order.index("hypothesis")] == ["seg", "doc", "bleu", "chrF", "TER", "major"]
    assert order[order.index("hypothesis") :] == [
        "hypothesis", "note", "p1", "p2", "p3", "p4", "bp", "hyp_len", "ref_len"
    ]  # fmt: skip
