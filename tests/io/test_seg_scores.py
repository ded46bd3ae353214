"""Tests for bleuviz.io.seg_scores: segment scores from outside, read and refused.

Expectations are written out by hand from each small input; the files under
tests/data/seg_scores are synthetic (see their README).
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from bleuviz.errors import InputError
from bleuviz.io.decode import NamedBytes
from bleuviz.io.load import load_paths
from bleuviz.io.scores import default_lower_is_better
from bleuviz.io.seg_scores import (
    ScoresNameTaken,
    attach_seg_scores,
    read_seg_scores,
    set_directions,
)
from bleuviz.io.table import load_table
from bleuviz.io.testset import TestSet
from tests.data import HUMAN_SCORES, METRICX_SCORES, SAMPLE_HYPS, SAMPLE_REFS

TESTSET = TestSet({"A": ("x y", "z"), "B": ("x", "q")}, (("x y", "z"),))


def nb(name: str, text: str) -> NamedBytes:
    """Return an in-memory file."""
    return NamedBytes(name, text.encode())


def refusal(name: str, text: str, testset: TestSet = TESTSET) -> str:
    """Return the one-line message reading ``text`` as file ``name`` raises."""
    with pytest.raises(InputError) as info:
        read_seg_scores(nb(name, text), testset)
    message = str(info.value)
    assert "\n" not in message and message.startswith(name)
    return message


def test_mt_metrics_eval_layout_names_the_metric_after_the_file() -> None:
    scores = read_seg_scores(
        nb("dir/COMET-22.seg.score", "A\t0.5\nB\t-1\nA\tNone\nB\t2e-1\n"), TESTSET
    )
    assert scores.name == "COMET-22"
    assert scores.values["A"][0] == 0.5 and math.isnan(scores.values["A"][1])
    assert list(scores.values["B"]) == [-1.0, 0.2]
    assert not scores.lower_is_better
    assert list(scores.scored("A")) == [True, False]


def test_scores_may_cover_some_systems_only() -> None:
    scores = read_seg_scores(nb("m.seg.score", "B\t1\nB\t2\n"), TESTSET)
    assert list(scores.values) == ["B"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "C\t1\nC\t2\n",
            "no system it scores is in the test set (it scores C; the test set has A, B)",
        ),
        ("A\t1\n", "system 'A' has 1 scores but the test set has 2 segments"),
        ("A\t1\nA\t2\nA\t3\n", "system 'A' has 3 scores but the test set has 2 segments"),
        ("A\t1\nA\tgood\n", "line 2: 'good' is not a number"),
        ("A\tnan\nA\t1\n", "line 1: 'nan' is not a finite number"),
        ("A\t1\nA\t-inf\n", "line 2: '-inf' is not a finite number"),
        ("A\t1\nA 2\n", "line 2: expected SYSTEM<TAB>SCORE"),
        ("A\t1\n\tA\n", "line 2: expected SYSTEM<TAB>SCORE"),
        ("A\t1\nA\t\n", "line 2: '' is not a number"),
    ],
)
def test_bad_score_files_are_refused_naming_file_and_line(text: str, expected: str) -> None:
    assert expected in refusal("m.seg.score", text)


def test_empty_and_unknown_layouts_are_refused() -> None:
    assert "empty" in refusal("m.seg.score", "")
    assert "NAME.seg.score" in refusal("scores.txt", "A\t1\nA\t2\n")


def test_comet_json_checks_each_mt_against_the_output() -> None:
    records = [{"src": "s", "mt": " x y ", "ref": "x y", "COMET": 0.9}, {"mt": "z", "COMET": 1}]
    scores = read_seg_scores(nb("c.json", json.dumps({"out/hyp.A.txt": records})), TESTSET)
    assert scores.name == "COMET" and list(scores.values["A"]) == [0.9, 1.0]
    records[1]["mt"] = "q"
    message = refusal("c.json", json.dumps({"hyp.A.txt": records}))
    assert "record 2: its 'mt' text differs from line 2" in message
    records[1] = {"mt": "z", "COMET": "high"}
    assert "record 2: 'high' is not a number" in refusal(
        "c.json", json.dumps({"hyp.A.txt": records})
    )
    assert "invalid JSON" in refusal("c.json", "{")


def test_table_score_columns_are_scores_not_systems() -> None:
    text = (
        "ref\tA\tB\tscore:COMET:A\tscore:COMET:B\tscore:mqm:B\n"
        "x y\tx y\tx\t0.5\t0.25\t\n"
        "z\tz\tq\t0.1\tNone\t-5\n"
    )
    testset = load_table(nb("t.tsv", text))
    assert testset.system_names == ("A", "B")
    comet, mqm = testset.seg_scores
    assert (comet.name, list(comet.values["A"])) == ("COMET", [0.5, 0.1])
    assert comet.values["B"][0] == 0.25 and math.isnan(comet.values["B"][1])
    assert list(mqm.values) == ["B"] and mqm.values["B"][1] == -5


def test_jsonl_score_columns_take_numbers_and_null() -> None:
    lines = [
        {"ref": "x y", "A": "x y", "score:COMET:A": 0.5},
        {"ref": "z", "A": "z", "score:COMET:A": None},
    ]
    testset = load_table(nb("t.jsonl", "\n".join(json.dumps(x) for x in lines)))
    values = testset.seg_score("COMET").values["A"]
    assert values[0] == 0.5 and math.isnan(values[1])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "ref,A,score:C:A\nx,x,0.5\ny,y,bad\n",
            "line 3, column 'score:C:A': 'bad' is not a number",
        ),
        (
            "ref,A,score:C:Z\nx,x,0.5\ny,y,1\n",
            "no system it scores is in the test set (it scores Z",
        ),
        ("ref,A,score:C:A\nx,x,inf\ny,y,1\n", "line 2, column 'score:C:A': 'inf' is not a finite"),
    ],
)
def test_table_score_columns_are_checked(text: str, expected: str) -> None:
    with pytest.raises(InputError, match=r"t\.csv") as info:
        load_table(nb("t.csv", text))
    assert expected in str(info.value)


def test_directions_default_by_name_and_follow_the_user() -> None:
    assert default_lower_is_better("MetricX-23-XXL") and not default_lower_is_better("COMET-22")
    testset = load_paths(SAMPLE_HYPS, SAMPLE_REFS)
    files = [NamedBytes(p.name, p.read_bytes()) for p in (METRICX_SCORES, HUMAN_SCORES)]
    loaded = attach_seg_scores(testset, files)
    assert [s.lower_is_better for s in loaded.seg_scores] == [True, False]
    flipped = set_directions(loaded, ["human"], ["MetricX-test"])
    assert [s.lower_is_better for s in flipped.seg_scores] == [False, True]
    with pytest.raises(InputError, match="no metric 'BLEURT'"):
        set_directions(loaded, ["BLEURT"])
    with pytest.raises(InputError, match="both name 'human'"):
        set_directions(loaded, ["human"], ["human"])


def test_sample_human_scores_keep_their_missing_segments() -> None:
    testset = load_paths(SAMPLE_HYPS, SAMPLE_REFS)
    human = attach_seg_scores(testset, [NamedBytes("human.seg.score", HUMAN_SCORES.read_bytes())])
    values = human.seg_score("human").values["terse"]
    assert len(values) == 126 and np.isnan(values[4::9]).all()
    assert not np.isnan(np.delete(values, np.arange(4, 126, 9))).any()


def test_the_same_scores_imported_twice_are_read_once() -> None:
    f = nb("m.seg.score", "A\t1\nA\t2\n")
    again = nb("elsewhere/m.seg.score", "A\t1.0\nA\t2e0\n")  # the same numbers
    loaded = attach_seg_scores(TESTSET, [f, again])
    assert [s.name for s in loaded.seg_scores] == ["m"]
    assert attach_seg_scores(loaded, [f]).seg_scores == loaded.seg_scores


def test_other_scores_under_a_taken_name_are_refused_or_replace() -> None:
    loaded = attach_seg_scores(TESTSET, [nb("/data/m.seg.score", "A\t1\nA\t2\n")])
    other = nb("new/m.seg.score", "A\t1\nA\t3\n")
    with pytest.raises(ScoresNameTaken) as info:
        attach_seg_scores(loaded, [other])
    assert str(info.value) == (
        "new/m.seg.score: segment scores named 'm' are already loaded from m.seg.score, "
        "with other values; rename one file"
    )
    assert (info.value.name, info.value.loaded_from) == ("m", "/data/m.seg.score")
    replaced = attach_seg_scores(loaded, [other], replace_names={"m"})
    assert [s.origin for s in replaced.seg_scores] == ["new/m.seg.score"]
    assert list(replaced.seg_score("m").values["A"]) == [1.0, 3.0]


def test_systems_not_loaded_are_skipped_and_named() -> None:
    # WMT's files score the human references too: refA is no system of the test set.
    scores = read_seg_scores(
        nb("mqm.seg.score", "refA\t0\nA\t1\nrefA\t0\nA\t2\nrefB\t0\nrefB\t1\n"), TESTSET
    )
    assert list(scores.values) == ["A"] and list(scores.values["A"]) == [1.0, 2.0]
    assert scores.skipped == ("refA", "refB")
