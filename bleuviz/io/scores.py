"""Segment scores from outside, the value type: one metric's score per system and segment.

The readers (``bleuviz.io.seg_scores``, ``bleuviz.io.table``) build them with
:func:`build_scores`, which refuses what does not fit the test set; this module
imports no reader, so ``TestSet`` can hold them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from bleuviz.arrays import FloatArray
from bleuviz.errors import InputError

#: Names whose scores are errors by default (MetricX predicts an MQM-like error score).
_LOWER_IS_BETTER_NAMES = re.compile(r"metricx", re.IGNORECASE)


@dataclass(frozen=True, slots=True, eq=False)
class SegmentScores:
    """One imported metric: a score per system and segment, NaN where missing.

    Attributes:
        name: the metric's name ("COMET-22", "mqm").
        origin: the file (and column) it was read from, for messages and signatures.
        values: system -> (N,) float64 scores (read-only), for the systems scored.
        lower_is_better: True for error scores (MetricX, MQM penalties).
        skipped: systems the file scores that the test set does not hold (WMT's
            files score the human references too, e.g. ``refA``), in file order.
    """

    name: str
    origin: str
    values: Mapping[str, FloatArray]
    lower_is_better: bool = False
    skipped: tuple[str, ...] = ()

    def same_values(self, other: SegmentScores) -> bool:
        """Return whether ``other`` scores the same systems with the same values (NaN = NaN)."""
        return self.values.keys() == other.values.keys() and all(
            np.array_equal(v, other.values[k], equal_nan=True) for k, v in self.values.items()
        )

    def scored(self, system: str) -> FloatArray:
        """Return the (N,) boolean mask of ``system``'s segments that have a score."""
        mask: FloatArray = ~np.isnan(self.values[system])
        return mask


def default_lower_is_better(name: str) -> bool:
    """Return the direction a metric gets unless the user says otherwise (MetricX: lower)."""
    return bool(_LOWER_IS_BETTER_NAMES.search(name))


def build_scores(
    origin: str,
    name: str,
    columns: Mapping[str, Sequence[float]],
    systems: Sequence[str],
    n_segments: int,
) -> SegmentScores:
    """Check the systems and counts of parsed scores and freeze them.

    Systems the test set does not hold are left out and named in ``skipped``:
    mt-metrics-eval's files score every system of a WMT campaign and its human
    references, of which a test set often loads some only.

    Raises:
        InputError: no system of the test set is scored, a count that differs
            from the segment count, or no scores at all.
    """
    if not columns:
        raise InputError(f"{origin}: no scores")
    known = [system for system in columns if system in systems]
    skipped = tuple(system for system in columns if system not in systems)
    if not known:
        raise InputError(
            f"{origin}: no system it scores is in the test set "
            f"(it scores {_some(skipped)}; the test set has {_some(systems)})"
        )
    for system in known:
        if len(columns[system]) != n_segments:
            raise InputError(
                f"{origin}: system {system!r} has {len(columns[system])} scores "
                f"but the test set has {n_segments} segments"
            )
    frozen = {}
    for system in systems:  # the test set's order
        if system in columns:
            array = np.asarray(columns[system], dtype=np.float64)
            array.flags.writeable = False
            frozen[system] = array
    return SegmentScores(name, origin, frozen, default_lower_is_better(name), skipped)


def _some(names: Sequence[str], shown: int = 10) -> str:
    """Name the first ``shown`` of ``names``, and how many more there are."""
    listed = ", ".join(names[:shown])
    return listed + (f", … ({len(names) - shown} more)" if len(names) > shown else "")
