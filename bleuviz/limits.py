"""Documented maxima of the work one request may ask for, and the check that enforces them.

Every entry point (the command line, a link's parameters, the app's number inputs,
the Python API) reads its caps from here, so that a resample count or an order is
bounded the same way everywhere and the README can quote one number.

Why these numbers:

- ``MAX_RESAMPLES``: 1,000,000 bootstrap resamples or randomization trials. The
  smallest p-value a test of N resamples can give is 1/(N+1) (sacrebleu's
  ``_compute_p_value``); a million reaches 1e-6, below what Holm's correction over
  all pairs of 100 systems needs (0.05 / 4,950 = 1e-5). Each resample is a sum of
  rows, so a million stays minutes, not hours (10^9 ran 40 minutes until killed).
- ``MAX_CHRF_ORDER``: 20 character or word n-gram orders. sacrebleu's defaults are
  6 and 0 (2 for chrF++); Popović (2015) found nothing above 6 worth the cost. Each
  order is another pass over every segment, so the cap keeps a request linear.
- ``MAX_CHRF_BETA``: 100. sacrebleu takes any integer; the F-score weighs recall
  beta² times precision, so past 100 it is recall to four digits, and a huge
  integer would overflow the float arithmetic.
- ``MAX_SEED``: numpy's ``default_rng`` accepts any non-negative integer; a seed is
  kept below 2**63 so that it round-trips through SQLite and JSON as an integer.
"""

from __future__ import annotations

from bleuviz.errors import ConfigError

#: Most bootstrap resamples (``--paired-bs``, ``--confidence-n``, link ``bs``).
MAX_RESAMPLES = 1_000_000
#: Most approximate-randomization trials (``--paired-ar``, link ``ar``).
MAX_TRIALS = MAX_RESAMPLES
#: Highest chrF character or word n-gram order (``--chrf-char-order``, ``--chrf-word-order``).
MAX_CHRF_ORDER = 20
#: Highest chrF beta (``--chrf-beta``): recall weighs beta² times precision; papers use 1 to 3.
MAX_CHRF_BETA = 100
#: Largest random seed (``--seed``).
MAX_SEED = 2**63 - 1


def check_count(option: str, value: int, minimum: int, maximum: int) -> int:
    """Return ``value`` when it is an integer in ``[minimum, maximum]``.

    Args:
        option: the name shown to the user (``--paired-bs``, ``bs``, ``char_order``).
        value: the number given.
        minimum: the smallest meaningful value (0 where 0 means "off").
        maximum: the documented maximum (one of this module's constants).

    Raises:
        ConfigError: ``value`` is not an integer, below ``minimum`` or above ``maximum``;
            the message names the option and the bound.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{option}: must be an integer, got {value!r}")
    if value < minimum:
        raise ConfigError(f"{option}: must be at least {minimum:,}, got {value:,}")
    if value > maximum:
        raise ConfigError(f"{option}: at most {maximum:,}, got {value:,}")
    return value
