"""Systems in rank order by a metric, and the best system of each score column."""

from __future__ import annotations

import math
from collections.abc import Mapping


def rank_order(values: Mapping[str, float], higher_is_better: bool = True) -> list[str]:
    """Systems best first; ties keep their load order; a system without a score goes last."""
    names = list(values)

    def key(name: str) -> tuple[bool, float, int]:
        value = values[name]
        missing = value is None or math.isnan(value)
        score = 0.0 if missing else (-value if higher_is_better else value)
        return (missing, score, names.index(name))

    return sorted(names, key=key)


def best_systems(values: Mapping[str, float], higher_is_better: bool = True) -> set[str]:
    """The systems with the best value: every one of a tie at the top, but none when all of
    several systems tie (a column where every BP is 1.0 has no best) or nothing is scored."""
    scored = {n: v for n, v in values.items() if v is not None and not math.isnan(v)}
    if not scored or (len(scored) > 1 and len(set(scored.values())) == 1):
        return set()
    best = max(scored.values()) if higher_is_better else min(scored.values())
    return {n for n, v in scored.items() if v == best}


def sole_best(values: Mapping[str, float], higher_is_better: bool = True) -> str | None:
    """The one system with the best value, or None when several share it (or none is scored).

    A page marks this one: marking every tied system would call half a column of
    BP 1.000 "best", which says nothing.
    """
    best = best_systems(values, higher_is_better)
    return next(iter(best)) if len(best) == 1 else None
