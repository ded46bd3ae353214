"""The adapter to sacrebleu's chrF, chrF++ and TER: the one module calling their private API.

bleuviz extracts the statistics itself (``chrf_columnar``, ``ter_score``); sacrebleu's
own ``Metric`` objects give the signatures, TER's words (its tercom tokenizer) and
turn statistics into scores (``_compute_score_from_stats``,
``_aggregate_and_compute``), exactly as its ``sentence_score``, ``corpus_score``
and ``PairedTest`` do.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
from sacrebleu.metrics.base import Metric
from sacrebleu.metrics.chrf import CHRF
from sacrebleu.metrics.ter import TER

from bleuviz.arrays import FloatArray
from bleuviz.errors import ConfigError

if TYPE_CHECKING:
    from bleuviz.metrics.ter_config import TerConfig


def sacrebleu_metric(key: str, lowercase: bool = False) -> Metric:
    """Return a fresh sacrebleu metric object for ``key`` with sacrebleu's CLI defaults.

    ``lowercase`` applies to chrF and chrF++ only, as sacrebleu's ``-lc`` does;
    TER keeps its own default, which is case-insensitive.
    """
    if key == "TER":
        return TER()
    if key in ("chrF", "chrF++"):
        return CHRF(word_order=2 if key == "chrF++" else 0, lowercase=lowercase)
    raise ConfigError(f"metric: {key!r} is not a sacrebleu metric")


def scores_from_stats(metric: Metric, rows: Any) -> list[Any]:
    """Score each row of (summed) statistics, keeping the type sacrebleu's score has."""
    return [metric._compute_score_from_stats(row).score for row in rows]


def corpus_from_stats(metric: Metric, rows: FloatArray) -> float:
    """Return sacrebleu's corpus score of statistics rows, as ``_aggregate_and_compute``."""
    ints = rows.astype(np.int64)
    python_rows = ints if np.array_equal(ints, rows) else rows
    return float(metric._aggregate_and_compute(python_rows.tolist()).score)


def statistics_width(metric: Metric) -> int | None:
    """Statistics a segment has for ``metric`` (chrF: 3 per order; TER: 2), if known."""
    if isinstance(metric, CHRF):
        return 3 * int(metric.order)
    if isinstance(metric, TER):
        return 2
    return None


def ter_metric(config: TerConfig) -> TER:
    """Return sacrebleu's ``TER`` object with ``config``'s options."""
    return TER(
        normalized=config.normalized,
        no_punct=config.no_punct,
        asian_support=config.asian_support,
        case_sensitive=config.case_sensitive,
    )


def ter_words(config: TerConfig) -> Callable[[str], list[str]]:
    """Return TER's words of a line: sacrebleu's ``TER._preprocess_segment`` (the tercom
    tokenizer on the right-stripped line), split on whitespace."""
    preprocess = ter_metric(config)._preprocess_segment
    return lambda line: preprocess(line).split()


def signature_of(metric: Metric, n_refs: int) -> str:
    """Return sacrebleu's signature of ``metric`` for ``n_refs`` references.

    sacrebleu sets ``num_refs`` while extracting statistics; here the statistics
    come from elsewhere, so it is set as that extraction would.
    """
    metric.num_refs = n_refs
    return str(metric.get_signature().format())
