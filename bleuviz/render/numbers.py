"""Numbers as text with a fixed number of decimals, never ``-0.00``; and how many, per quantity.

Python (and C's printf) keep the sign of a negative zero and of a tiny negative
that rounds to zero: ``f"{-0.0:.4f}"`` is ``-0.0000``. An imported score file may
hold ``-0`` and a mean of scores may come out as ``-1e-17``; both are shown as
``0.0000``, as sacrebleu's zero scores are.

The one place that says each quantity's precision (decimals), in the app, its
exports and the command line:

* a metric's score, its mean, CI, difference and tie threshold: the metric's
  own, ``MetricSpec.digits`` (``bleuviz.metrics``): BLEU, chrF and TER 2, as
  sacrebleu prints them; ROUGE 4, as rouge-score's 0-1 F; an imported score as
  its file writes it, from 2 to 4 (``ImportedMetric.digits``: MQM's ``-5.1``
  shows as ``-5.10``, COMET's ``0.834434`` as ``0.8344``);
* a correlation or an accuracy (Pearson, Kendall, pairwise accuracy, acc_eq):
  ``CORRELATION_DIGITS``, as ``bleuviz correlate`` prints them;
* a p-value: ``P_VALUE_DIGITS``, as sacrebleu's paired tests print them;
* a share written in percent (span precision, recall and F1, flagged tokens,
  tied pairs) and a percentile: ``PERCENT_DIGITS``, as ``bleuviz spans`` prints them.
"""

from __future__ import annotations

import math

#: Decimals of a correlation or an accuracy (0-1).
CORRELATION_DIGITS = 4
#: Decimals of a p-value.
P_VALUE_DIGITS = 4
#: Decimals of a share in percent (0-100) and of a percentile.
PERCENT_DIGITS = 1


def fixed(value: float, digits: int, sign: bool = False) -> str:
    """``value`` with ``digits`` decimals; a value that rounds to zero has no minus sign.

    ``sign``: write a plus sign on positive values (differences), never on zero's
    minus. NaN stays ``nan`` (callers show a dash for missing values).
    """
    text = f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"
    if not math.isnan(value) and float(text) == 0.0:
        return ("+" if sign else "") + text.lstrip("+-")
    return text


def printf(digits: int, sign: bool = False) -> str:
    """The printf format of ``digits`` decimals (a table column's), ``+`` first if ``sign``."""
    return f"%{'+' if sign else ''}.{digits}f"
