"""Tables leave the app faithfully: CSV, JSON and LaTeX of the same frame, untruncated.

Every cell is written whole (display truncation stays a display matter); the
signature travels with the table: a ``signature`` column in the CSV (the same on
every row, so that ``pandas.read_csv`` reads the file with no option: comment
lines would need ``skiprows``, and ``comment='#'`` would cut fields such as WMT's
``#PRS_ORG#``), a ``signature`` field in the JSON, a ``%`` comment above the
LaTeX. A table of several metrics carries each one's signature too
(``export_style``): ``signature METRIC`` columns, a ``signatures`` object, more
``%`` lines. The CSV's text cells are safe to open in a spreadsheet
(``bleuviz.render.spreadsheet``).

CSV and JSON keep every number at full precision. The LaTeX is for a paper:
each column to the decimals the page shows, integer columns as integers, the
best value of each score column in bold (all of a tie, none when every row
ties), ``booktabs`` rules, and a ``longtable`` past a page of rows.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping

import pandas as pd

from bleuviz.render.latex import bold, booktabs_table, escape_latex
from bleuviz.render.numbers import fixed
from bleuviz.render.spreadsheet import inert_cell

#: A named format and how a frame becomes its bytes.
Exporter = Callable[[pd.DataFrame, str], bytes]
#: Decimals of a float column without its own (``export_style``'s ``digits``).
DEFAULT_DIGITS = 4
#: Text longer than this (a sentence, not a name) wraps in a column of TEXT_WIDTH.
LONG_TEXT, TEXT_WIDTH = 40, "4cm"
_DIGITS, _BEST, _SIGNATURES = "bleuviz_digits", "bleuviz_best", "bleuviz_signatures"


def export_style(
    frame: pd.DataFrame,
    digits: Mapping[str, int] | None = None,
    best: Mapping[str, bool] | None = None,
    signatures: Mapping[str, str] | None = None,
) -> pd.DataFrame:
    """Return ``frame`` (a shallow copy) carrying how to export it, in ``DataFrame.attrs``.

    Args:
        frame: the table.
        digits: column -> decimals shown on the page (LaTeX writes that many).
        best: column -> True when higher is better, False when lower is (the best
            is bold in LaTeX).
        signatures: metric -> its signature, written beside the table's own.
    """
    styled = frame.copy(deep=False)
    styled.attrs = {
        _DIGITS: dict(digits or {}),
        _BEST: dict(best or {}),
        _SIGNATURES: dict(signatures or {}),
    }
    return styled


def to_csv(frame: pd.DataFrame, signature: str = "") -> bytes:
    """CSV with a header row (UTF-8): the table, then its signatures as last columns.

    ``signature`` (the table's) and ``signature METRIC`` (each metric's own) hold
    the same text on every row. Numbers stay numbers; a text cell or column name
    that a spreadsheet would read as a formula starts with ``'`` (``inert_cell``).
    Rows end with CRLF, as RFC 4180 has them: Python's csv writer quotes a field
    holding a line end's characters, and with a bare LF it would leave a lone CR
    in a field unquoted, which ends the row in a spreadsheet.
    """
    table = frame.copy(deep=False)
    for name, sig in _signatures(frame, signature):
        table[f"signature{name}"] = sig
    for i in range(table.shape[1]):
        if not pd.api.types.is_numeric_dtype(table.iloc[:, i]):
            table.isetitem(i, table.iloc[:, i].map(inert_cell).to_numpy())
    table.columns = [inert_cell(str(c)) for c in table.columns]
    return table.to_csv(index=False, lineterminator="\r\n").encode("utf-8")


def to_json(frame: pd.DataFrame, signature: str = "") -> bytes:
    """``{"signature": ..., "rows": [{column: value}, ...]}``; NaN and infinities become null.

    A table of several metrics adds ``"signatures": {metric: signature}``.
    """
    rows = [{str(k): _plain(v) for k, v in row.items()} for row in frame.to_dict(orient="records")]
    document: dict[str, object] = {"signature": signature}
    if frame.attrs.get(_SIGNATURES):
        document["signatures"] = dict(frame.attrs[_SIGNATURES])
    document["rows"] = rows
    return json.dumps(document, ensure_ascii=False, indent=1).encode()


def to_latex(frame: pd.DataFrame, signature: str = "") -> bytes:
    """A booktabs table (longtable when long): text escaped, numbers as the page shows them."""
    digits: Mapping[str, int] = frame.attrs.get(_DIGITS, {})
    header = [escape_latex(str(c)) for c in frame.columns]
    columns = [[_latex_cell(v, digits.get(str(c))) for v in frame[c]] for c in frame.columns]
    for i, column in enumerate(frame.columns):
        better = frame.attrs.get(_BEST, {}).get(str(column))
        if better is not None:
            for row in _best_rows(frame[column], better, digits.get(str(column))):
                columns[i][row] = bold(columns[i][row])
    rows = [list(row) for row in zip(*columns, strict=True)] if columns else []
    align = "".join(_align(frame[c]) for c in frame.columns)
    comments = [
        f"{name.strip()}: {sig}" if name else sig for name, sig in _signatures(frame, signature)
    ]
    return booktabs_table(header, rows, align or "l", comments).encode("utf-8")


#: Format name -> (exporter, file extension, MIME type).
EXPORTS: dict[str, tuple[Exporter, str, str]] = {
    "CSV": (to_csv, "csv", "text/csv"),
    "JSON": (to_json, "json", "application/json"),
    "LaTeX": (to_latex, "tex", "application/x-tex"),
}


def _align(column: pd.Series) -> str:
    """Numbers right; short text left; long text (sentences) a wrapping paragraph column."""
    if pd.api.types.is_numeric_dtype(column):
        return "r"
    longest = max((len(str(v)) for v in column), default=0)
    return f"p{{{TEXT_WIDTH}}}" if longest > LONG_TEXT else "l"


def _signatures(frame: pd.DataFrame, signature: str) -> list[tuple[str, str]]:
    """("", the table's signature), then (" METRIC", its signature) for each metric's own."""
    own = [("", signature)] if signature else []
    named = frame.attrs.get(_SIGNATURES, {})
    return own + [(f" {name}", sig) for name, sig in named.items() if sig and sig != signature]


def _best_rows(column: pd.Series, higher_is_better: bool, digits: int | None) -> list[int]:
    """Positions of the column's best value as written (every tie); none when all rows tie.

    Values are compared as the table writes them (rounded to ``digits``), so two
    cells that read the same are both bold or neither.
    """
    values = pd.to_numeric(column, errors="coerce").round(
        DEFAULT_DIGITS if digits is None else digits
    )
    scored = values.dropna()
    if scored.empty or (scored.nunique() == 1 and len(scored) > 1):
        return []
    best = scored.max() if higher_is_better else scored.min()
    return [i for i, v in enumerate(values) if v == best]


def _plain(value: object) -> object:
    """A JSON-ready value: numpy scalars as Python numbers, NaN and infinities as None."""
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _latex_cell(value: object, digits: int | None) -> str:
    """One cell: numbers to ``digits`` decimals (integers whole), NaN as --, text escaped."""
    value = _plain(value)
    if value is None:
        return "--"
    if isinstance(value, bool):
        return escape_latex(str(value))
    if isinstance(value, float):
        return fixed(value, DEFAULT_DIGITS if digits is None else digits)
    return escape_latex(str(value))
