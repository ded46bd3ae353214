"""Numbers as text with a fixed number of decimals, never ``-0.00``.

Python (and C's printf) keep the sign of a negative zero and of a tiny negative
that rounds to zero: ``f"{-0.0:.4f}"`` is ``-0.0000``. An imported score file may
hold ``-0`` and a mean of scores may come out as ``-1e-17``; both are shown as
``0.0000``, as sacrebleu's zero scores are.
"""

from __future__ import annotations

import math


def fixed(value: float, digits: int, sign: bool = False) -> str:
    """``value`` with ``digits`` decimals; a value that rounds to zero has no minus sign.

    ``sign``: write a plus sign on positive values (differences), never on zero's
    minus. NaN stays ``nan`` (callers show a dash for missing values).
    """
    text = f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"
    if not math.isnan(value) and float(text) == 0.0:
        return ("+" if sign else "") + text.lstrip("+-")
    return text
