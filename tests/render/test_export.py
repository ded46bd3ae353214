"""The LaTeX export is paper-ready (issue 33, item 1): digits as shown, best in bold, longtable.

Expected cells are Python's own formatting of the input numbers.
"""

from __future__ import annotations

import csv
import io
import json

import pandas as pd

from bleuviz.render.export import export_style, to_csv, to_json, to_latex
from bleuviz.render.latex import LONG_ROWS


def body(latex: str) -> list[list[str]]:
    """The table's rows (header first) as lists of cells."""
    rows = [line.removesuffix(" \\\\") for line in latex.splitlines() if line.endswith("\\\\")]
    return [row.split(" & ") for row in rows]


def test_digits_integers_and_the_best_of_each_direction_in_bold() -> None:
    frame = pd.DataFrame(
        {
            "system": ["a", "b", "c"],
            "BLEU": [27.123, 30.456, 30.456],  # a tie at the top: both bold
            "TER": [50.0, 48.25, 60.0],  # lower is better
            "BP": [1.0, 1.0, 1.0],  # everyone ties: no best
            "bp": [1.0, 0.99989, 0.98],  # 1.000 and 1.000 as written: both bold
            "hyp_len": [1200, 1300, 1250],
            "ratio": [-0.00001, 1.0, 0.5],
        }
    )
    styled = export_style(
        frame,
        {"BLEU": 2, "TER": 2, "BP": 3, "bp": 3, "ratio": 3},
        {"BLEU": True, "TER": False, "BP": True, "bp": True},
    )
    header, *rows = body(to_latex(styled).decode())
    cells = {row[0]: dict(zip(header, row, strict=True)) for row in rows}
    assert cells["a"]["BLEU"] == f"{27.123:.2f}"
    assert cells["b"]["BLEU"] == cells["c"]["BLEU"] == f"\\textbf{{{30.456:.2f}}}"
    assert cells["b"]["TER"] == f"\\textbf{{{48.25:.2f}}}" and cells["a"]["TER"] == "50.00"
    assert {cells[n]["BP"] for n in "abc"} == {"1.000"}
    assert cells["a"]["bp"] == cells["b"]["bp"] == "\\textbf{1.000}" and cells["c"]["bp"] == "0.980"
    assert cells["a"]["hyp\\_len"] == "1200"
    assert cells["a"]["ratio"] == "0.000"  # never -0.000


def test_csv_and_json_keep_full_precision_and_every_signature() -> None:
    frame = export_style(pd.DataFrame({"s": ["a"], "x": [1 / 3]}), signatures={"chrF": "nc:6"})
    assert "0.3333333333333333" in to_csv(frame, "sig").decode()
    read = pd.read_csv(io.BytesIO(to_csv(frame, "sig")))  # no option: only the table
    assert read.columns.tolist() == ["s", "x", "signature", "signature chrF"]
    assert read.loc[0, "signature"] == "sig" and read.loc[0, "signature chrF"] == "nc:6"
    assert '"signatures": {\n  "chrF": "nc:6"' in to_json(frame, "sig").decode()
    assert "% chrF: nc:6" in to_latex(frame, "sig").decode()


def test_a_long_form_is_a_longtable_with_wrapping_text() -> None:
    n = LONG_ROWS + 1
    frame = pd.DataFrame({"seg": range(1, n + 1), "hypothesis": ["a long sentence " * 5] * n})
    latex = to_latex(frame).decode()
    assert "\\begin{longtable}{rp{4cm}}" in latex and "\\endhead" in latex
    assert latex.endswith("\\end{longtable}")
    assert len(body(latex)) == n + 1
    short = to_latex(frame.head(LONG_ROWS)).decode()
    assert "\\begin{tabular}" in short and "longtable" not in short


#: Text a spreadsheet would run as a formula (OWASP's "CSV Injection" leaders).
FORMULAS = [
    '=HYPERLINK("http://x","y")',
    "+1+cmd|' /C calc'!A0",
    "-2+3",
    "@SUM(A1)",
    "\t=1",
    "\r=1",
    "-\u0663",  # \d took other scripts' digits for a number (review r3)
]


def test_csv_text_cells_never_start_a_formula_and_numbers_stay_numbers() -> None:
    n = len(FORMULAS)
    frame = pd.DataFrame(
        {"=name": FORMULAS, "score": [-1.5] * n, "count": [-2] * n, "id": ["-3"] * n}
    )
    rows = list(csv.reader(io.StringIO(to_csv(frame, "sig").decode(), newline="")))
    assert rows[0] == ["'=name", "score", "count", "id", "signature"]
    for row, text in zip(rows[1:], FORMULAS, strict=True):
        assert row == ["'" + text, "-1.5", "-2", "-3", "sig"]  # a number in text stays too
    read = pd.read_csv(io.BytesIO(to_csv(frame)))
    assert read["score"].tolist() == [-1.5] * n and read["count"].tolist() == [-2] * n


def test_json_never_holds_a_non_finite_number() -> None:
    # RFC 8259 has no NaN or Infinity; json.dumps would write them as such
    frame = pd.DataFrame({"x": [float("inf"), float("-inf"), float("nan"), 1.5]})

    def refuse(constant: str) -> None:
        raise ValueError(constant)

    rows = json.loads(to_json(frame, "sig"), parse_constant=refuse)["rows"]
    assert [r["x"] for r in rows] == [None, None, None, 1.5]
