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
- ``MAX_SEED``: 2**53 - 1. numpy's ``default_rng`` accepts any non-negative
  integer; a seed must also round-trip exactly wherever it is written: SQLite's
  integers (below 2**63), a signature and the JSON output read by a browser or any
  JavaScript (exact integers stop at 2**53 - 1, ``Number.MAX_SAFE_INTEGER``), and
  the app's seed input, which Streamlit bounds by that same number.
- ``MAX_SMOOTH_VALUE``: 1,000,000. sacrebleu's ``floor`` puts the value in place
  of a zero match count and ``add-k`` adds it to every count ("small positive
  value (0.1 in the paper)", k = 1 by default); a million is beyond any count one
  segment has, and keeps ``100 * value`` and its logarithm far from overflowing
  (add-k 1e308 scored ``inf``, and its signature printed a 309-digit number).
- ``MAX_WEIGHT``: 10 per order. sacrebleu's flavour normalises the weights (only
  their ratios matter, and any ratio is reachable below 10); nltk and tf-nmt use
  them as exponents of precisions (Papineni et al. (2002) make them sum to 1), and
  ``exp(sum of weight * log p)`` over 9 orders stays finite while every precision
  is below about 2,600 (``exp(709 / 90)``), far above the 0-1 (a little above 1
  with nltk's methods 4 and 5) those smoothings give. Four weights of 1e308
  summed to ``inf`` and scored ``nan``.

- ``MAX_MQM_WEIGHT``: 1,000,000 per error (``--mqm-weights``). mt-metrics-eval's
  largest weight is 25 (a major non-translation); a segment's score sums its
  errors' weights, so 1e308 overflowed to ``-inf`` (numpy's overflow warnings,
  then a refused JSON), and a negative weight made an error raise the score.

Each option's domain is a ``Domain`` here: the command line's parser, a link's
parameter, the app's input and the Python API take their bounds from it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bleuviz.errors import ConfigError

#: A whole number as every entry point reads it: ASCII digits with an optional sign
#: (Python's ``int`` would also read ``1_000`` and other scripts' digits, ``٣٠٠``).
WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")
#: A decimal number as every entry point reads it: ASCII, an optional exponent
#: (``float`` would also read ``1_0``, ``nan``, ``inf`` and other scripts' digits).
DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")

#: Most bootstrap resamples (``--paired-bs``, ``--confidence-n``, link ``bs``).
MAX_RESAMPLES = 1_000_000
#: Most approximate-randomization trials (``--paired-ar``, link ``ar``).
MAX_TRIALS = MAX_RESAMPLES
#: Highest chrF character or word n-gram order (``--chrf-char-order``, ``--chrf-word-order``).
MAX_CHRF_ORDER = 20
#: Highest chrF beta (``--chrf-beta``): recall weighs beta² times precision; papers use 1 to 3.
MAX_CHRF_BETA = 100
#: Largest random seed (``--seed``, link ``seed``).
MAX_SEED = 2**53 - 1
#: Largest smoothing value (``--smooth-value``, link ``smooth_value``).
MAX_SMOOTH_VALUE = 1_000_000
#: Largest weight of one order (``--weights``, link ``weights``).
MAX_WEIGHT = 10
#: Largest weight of one MQM error (``--mqm-weights``); the least is 0.
MAX_MQM_WEIGHT = 1_000_000


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


@dataclass(frozen=True, slots=True)
class Domain:
    """The whole numbers one option takes, wherever it is given.

    Attributes:
        low: the smallest value (0 where 0 means "off").
        high: the largest (one of this module's maxima).
    """

    low: int
    high: int

    def check(self, option: str, value: int) -> int:
        """Return ``value`` when it is in the domain (see ``check_count``)."""
        return check_count(option, value, self.low, self.high)


#: Bootstrap resamples: ``--paired-bs``, ``--confidence-n``, link ``bs``, ``n_bootstrap``.
RESAMPLES = Domain(1, MAX_RESAMPLES)
#: Approximate-randomization trials, 0 for none: ``--paired-ar``, link ``ar``, ``n_ar``.
TRIALS = Domain(0, MAX_TRIALS)
#: Random seeds: ``--seed``, link ``seed``, ``seed``.
SEEDS = Domain(0, MAX_SEED)
