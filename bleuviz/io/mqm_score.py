"""MQM segment scores from error spans, as mt-metrics-eval computes them.

Replicates ``mt_metrics_eval/converters/score_mqm.py`` (google-research/
mt-metrics-eval, commit 68a481a): each error weighs what the most specific
``severity[/category[/subcategory]]`` entry of the weights gives it (case
ignored; ``Score`` there tries ``severity/category/sub``, then
``severity/category``, then ``severity``); a rater's weights are summed per
segment, the sums averaged over the segment's raters (a rater who found no
error counts as 0), and the average negated so that higher is better. The
default weights are that script's: Major 5, Minor 1, Neutral 0,
Major/Non-translation! 25, Minor/Fluency/Punctuation 0.1.

Deliberate deviation: mt-metrics-eval weighs an error whose severity has no
entry at all as 0; here that is refused (a Critical error weighing nothing
would be a silent wrong score), naming the severity to add to the weights.
A segment nobody rated has no score (NaN).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass

from bleuviz.errors import ConfigError
from bleuviz.io.error_spans import ErrorAnnotations, SegmentAnnotation
from bleuviz.limits import MAX_MQM_WEIGHT

#: mt-metrics-eval's default ``--weights`` (``converters/score_mqm.py``).
DEFAULT_WEIGHTS_SPEC = (
    "major:5 minor:1 neutral:0 major/non-translation!:25 minor/fluency/punctuation:0.1"
)
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


@dataclass(frozen=True, slots=True)
class MqmWeights:
    """Weights of MQM errors by severity and category.

    Attributes:
        entries: ``(key, weight)`` pairs; a key is ``severity[/category[/...]]``
            in lower case.
    """

    entries: tuple[tuple[str, float], ...]

    def weight(self, severity: str, category: str) -> float | None:
        """Return the most specific entry's weight, or None when the severity has none."""
        return _lookup(dict(self.entries), severity, category)

    @property
    def spec(self) -> str:
        """Return the weights as ``--mqm-weights`` spells them."""
        return " ".join(f"{key}:{weight:g}" for key, weight in self.entries)


def parse_weights(text: str, option: str = "--mqm-weights") -> MqmWeights:
    """Parse ``"major:5 minor:1 major/non-translation!:25 ..."`` (case ignored).

    Raises:
        ConfigError: an item is not ``KEY:WEIGHT``, a weight is not a number from
            0 to ``MAX_MQM_WEIGHT``, a key is repeated, or there is no item.
    """
    entries: dict[str, float] = {}
    for item in text.split():
        key, colon, value = item.rpartition(":")
        key = key.strip().lower()
        if not colon or not key or any(not part for part in key.split("/")):
            raise ConfigError(
                f"{option}: {item[:40]!r} is not SEVERITY[/CATEGORY[/SUB]]:WEIGHT (e.g. major:5)"
            )
        if not _DECIMAL.fullmatch(value) or not math.isfinite(float(value)):
            raise ConfigError(f"{option}: the weight of {key!r} is not a number: {value[:20]!r}")
        if not 0 <= float(value) <= MAX_MQM_WEIGHT:
            raise ConfigError(
                f"{option}: the weight of {key!r} must be from 0 to {MAX_MQM_WEIGHT:,}, "
                f"got {value[:20]}"
            )
        if key in entries:
            raise ConfigError(f"{option}: {key!r} is given twice")
        entries[key] = float(value)
    if not entries:
        raise ConfigError(f"{option}: no weights given (e.g. {DEFAULT_WEIGHTS_SPEC!r})")
    return MqmWeights(tuple(entries.items()))


DEFAULT_WEIGHTS = parse_weights(DEFAULT_WEIGHTS_SPEC)


def _lookup(table: Mapping[str, float], severity: str, category: str) -> float | None:
    """Return the weight of the longest ``severity/category/...`` prefix in ``table``."""
    items = [severity.lower(), *category.lower().split("/")] if category else [severity.lower()]
    while items:
        key = "/".join(items)
        if key in table:
            return table[key]
        items.pop()
    return None


def segment_mqm(annotation: SegmentAnnotation, weights: MqmWeights, where: str = "") -> float:
    """Return the segment's MQM score: minus the raters' mean summed weight.

    A stretch ``continued`` from the error before it is not weighed again.

    Raises:
        ConfigError: an error's severity has no weight.
    """
    return _segment_mqm(annotation, dict(weights.entries), weights.spec, where)


def _segment_mqm(
    annotation: SegmentAnnotation,
    table: Mapping[str, float],
    spec: str,
    where: str,
    memo: dict[tuple[str, str], float | None] | None = None,
) -> float:
    """Score one segment with the weights ``table`` (``spec`` for the message).

    ``memo`` keeps each (severity, category)'s weight across the segments of a file.
    """
    memo = {} if memo is None else memo
    totals = dict.fromkeys(annotation.raters, 0.0)
    for span in annotation.spans:
        if span.continued:
            continue
        key = (span.severity, span.category)
        weight = memo[key] if key in memo else memo.setdefault(key, _lookup(table, *key))
        if weight is None:
            raise ConfigError(
                f"{where}MQM weights: severity {span.severity!r} has no weight "
                f"(weights: {spec}); add {span.severity}:N to --mqm-weights"
            )
        totals[span.rater] = totals.get(span.rater, 0.0) + weight
    return 0.0 - sum(totals.values()) / len(totals) if totals else math.nan


def mqm_scores(
    annotations: ErrorAnnotations, weights: MqmWeights = DEFAULT_WEIGHTS
) -> Mapping[str, list[float]]:
    """Return each system's MQM score per segment, NaN where the file rates none.

    Raises:
        ConfigError: an error's severity has no weight.
    """
    where, table, spec = f"{annotations.origin}: ", dict(weights.entries), weights.spec
    memo: dict[tuple[str, str], float | None] = {}
    return {
        system: [
            math.nan if annotation is None else _segment_mqm(annotation, table, spec, where, memo)
            for annotation in segments
        ]
        for system, segments in annotations.segments.items()
    }
