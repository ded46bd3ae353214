"""Strict inputs: repeated JSON keys, deep nesting and numbers that are not plain ASCII.

Each case failed before (a repeated key kept its last value, deep nesting raised
RecursionError, ``float`` read ``1_000`` and Arabic-Indic digits); every refusal
is one line naming the file and the line.
"""

from __future__ import annotations

import json

import pytest

from bleuviz.errors import InputError
from bleuviz.io.decode import NamedBytes
from bleuviz.io.seg_scores import read_seg_scores
from bleuviz.io.strict_json import MAX_JSON_DEPTH, load_json
from bleuviz.io.table import load_table
from bleuviz.io.testset import TestSet

TESTSET = TestSet({"A": ("x y", "z"), "B": ("x", "q")}, (("x y", "z"),))


def nb(name: str, text: str) -> NamedBytes:
    """Return an in-memory file."""
    return NamedBytes(name, text.encode())


def refused(read: object, f: NamedBytes) -> str:
    """Return the one-line message ``read(f)`` raises."""
    with pytest.raises(InputError) as info:
        read(f)  # type: ignore[operator]
    message = str(info.value)
    assert "\n" not in message and message.startswith(f.name)
    return message


def read_scores(f: NamedBytes) -> object:
    return read_seg_scores(f, TESTSET)


@pytest.mark.parametrize(
    ("f", "message"),
    [
        (
            nb("t.jsonl", '{"A": "x y", "ref": "x y"}\n{"A": "z", "ref": "z", "A": "q"}\n'),
            "t.jsonl: line 2: key 'A' appears twice in one object",
        ),
        (
            nb("t.jsonl", '{"A": "x", "ref": "x", "ref": "y"}\n'),
            "t.jsonl: line 1: key 'ref' appears twice in one object",
        ),
        (
            nb("t.jsonl", '{"A": "x", "ref": "x"}\n{"A": "x", "ref": ' + "[" * 100_000 + "\n"),
            f"t.jsonl: line 2: nested deeper than {MAX_JSON_DEPTH} levels",
        ),
        (
            nb("t.jsonl", '{"A": "x", "ref": "x", "score:C:A": NaN}\n'),
            "t.jsonl: line 1: NaN is not a JSON number",
        ),
        (nb("t.jsonl", '{"A": "\\udc00", "ref": "x"}\n'), "t.jsonl: line 1: '\\udc00' holds"),
    ],
)
def test_jsonl_table_refusals(f: NamedBytes, message: str) -> None:
    assert refused(load_table, f).startswith(message)


def comet(records: str) -> str:
    """A COMET --to_json file scoring system A with ``records`` (a JSON list's text)."""
    return '{\n  "hyp.A.txt": ' + records + "\n}\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            comet(
                '[\n{"src": "s", "mt": "x y", "COMET": 0.5},\n{"mt": "z", "COMET": 1, "COMET": 2}]'
            ),
            "c.json: line 4: key 'COMET' appears twice in one object",
        ),
        ('{"hyp.A.txt": [], "hyp.A.txt": []}', "c.json: line 1: key 'hyp.A.txt' appears twice"),
        (comet("[" * 50_000), f"c.json: line 2: nested deeper than {MAX_JSON_DEPTH} levels"),
        (comet('[{"mt": "x y", "COMET": Infinity}]'), "c.json: line 2: Infinity is not a JSON"),
        (comet('[{"mt": "x y", "COMET": 1e999}]'), "c.json: 'hyp.A.txt' record 1: 'inf' is not a"),
    ],
)
def test_comet_json_refusals(text: str, message: str) -> None:
    assert refused(read_scores, nb("c.json", text)).startswith(message)


def test_comet_json_within_the_depth_still_reads() -> None:
    records = [{"src": "s", "mt": "x y", "ref": "r", "COMET": 0.5}, {"mt": "z", "COMET": 1}]
    scores = read_seg_scores(nb("c.json", json.dumps({"hyp.A.txt": records}, indent=2)), TESTSET)
    assert list(scores.values["A"]) == [0.5, 1.0]


@pytest.mark.parametrize(
    "value", ["1_000", "\u0661\u0662", "\uff11", "0x10", "1e", ".", "+", "١.٥", "1 2", "½"]
)
def test_seg_score_refuses_what_float_would_read(value: str) -> None:
    message = refused(read_scores, nb("m.seg.score", f"A\t1\nA\t{value}\n"))
    assert message.startswith(f"m.seg.score: line 2: {value!r} is not a number")


@pytest.mark.parametrize("value", ["nan", "-Infinity", "1e999", "-1E+400"])
def test_seg_score_refuses_non_finite(value: str) -> None:
    message = refused(read_scores, nb("m.seg.score", f"A\t{value}\nA\t1\n"))
    assert message == f"m.seg.score: line 1: {value!r} is not a finite number"


@pytest.mark.parametrize(
    ("value", "expected"),
    [("-1.5", -1.5), ("2e-3", 2e-3), ("+.5", 0.5), ("7.", 7.0), ("-0", 0.0), ("1E+2", 100.0)],
)
def test_seg_score_reads_plain_numbers(value: str, expected: float) -> None:
    scores = read_seg_scores(nb("m.seg.score", f"A\t{value}\nA\tNone\n"), TESTSET)
    assert scores.values["A"][0] == pytest.approx(float(expected))


def test_table_score_cell_is_as_strict() -> None:
    f = nb("t.tsv", "A\tref\tscore:C:A\nx\tx\t1\ny\ty\t1_0\n")
    assert "line 3, column 'score:C:A': '1_0' is not a number" in refused(load_table, f)


def test_load_json_keeps_valid_json() -> None:
    text = '{"a": ["\\ud83d\\ude00", 1, -2.5e3], "b": {"c": null, "d": "[[[[[[[[[[["}}'
    assert load_json("x.json", text) == json.loads(text, parse_int=float)
