"""Tables leave the app faithfully: CSV, JSON and LaTeX of the same frame, untruncated.

Every cell is written whole (display truncation stays a display matter); the
signature travels with the table: a ``# signature:`` line on top of the CSV, a
``signature`` field in the JSON, a ``%`` comment above the LaTeX.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable

import pandas as pd

from bleuviz.render.latex import booktabs_table, escape_latex

#: A named format and how a frame becomes its bytes.
Exporter = Callable[[pd.DataFrame, str], bytes]


def to_csv(frame: pd.DataFrame, signature: str = "") -> bytes:
    """CSV with a header row (UTF-8); the signature as a first ``# signature:`` line."""
    head = f"# signature: {signature}\n" if signature else ""
    return (head + frame.to_csv(index=False)).encode("utf-8")


def to_json(frame: pd.DataFrame, signature: str = "") -> bytes:
    """``{"signature": ..., "rows": [{column: value}, ...]}``; NaN becomes null."""
    rows = [{str(k): _plain(v) for k, v in row.items()} for row in frame.to_dict(orient="records")]
    return json.dumps({"signature": signature, "rows": rows}, ensure_ascii=False, indent=1).encode()


def to_latex(frame: pd.DataFrame, signature: str = "") -> bytes:
    """A booktabs table: text escaped, numbers as shown (floats with 4 significant decimals)."""
    header = [escape_latex(str(c)) for c in frame.columns]
    rows = [[_latex_cell(v) for v in row] for row in frame.itertuples(index=False)]
    align = "".join("r" if pd.api.types.is_numeric_dtype(frame[c]) else "l" for c in frame.columns)
    comments = [signature] if signature else []
    return booktabs_table(header, rows, align or "l", comments).encode("utf-8")


#: Format name -> (exporter, file extension, MIME type).
EXPORTS: dict[str, tuple[Exporter, str, str]] = {
    "CSV": (to_csv, "csv", "text/csv"),
    "JSON": (to_json, "json", "application/json"),
    "LaTeX": (to_latex, "tex", "application/x-tex"),
}


def _plain(value: object) -> object:
    """A JSON-ready value: numpy scalars as Python numbers, NaN as None."""
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def _latex_cell(value: object) -> str:
    """One cell: numbers formatted, NaN as --, text escaped."""
    value = _plain(value)
    if value is None:
        return "--"
    if isinstance(value, float):
        return f"{value:.4f}"
    return escape_latex(str(value))
