"""Every pair of systems tested, Holm's correction, and WMT-style rank clusters.

``all_pairs`` runs the paired tests once per system as baseline against every
later system, so each pair's p-values equal a two-system comparison with the
first of the pair as baseline (every system starts from a fresh generator with
the same seed, as in sacrebleu's ``PairedTest``, so the draws are the pair's own).

Rank clusters: systems sorted best first; the best opens cluster 1; each next
system joins the current cluster unless it is significantly worse (p < alpha,
paired bootstrap by default) than that cluster's best, in which case it opens
the next cluster. This is the greedy clustering of WMT's system rankings by
significance (e.g. Kocmi et al., 2024, "Findings of WMT24"), on a metric.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields, replace

from bleuviz.errors import ConfigError
from bleuviz.significance.resampling import PairedResult

#: Runs the paired tests of a baseline against systems (baseline row first).
Tester = Callable[[str, Sequence[str]], list[PairedResult]]


@dataclass(frozen=True, slots=True)
class PairTest:
    """One pair: ``a`` the baseline, ``diff`` = score of b - score of a."""

    a: str
    b: str
    p_value_bs: float | None
    p_value_ar: float | None
    diff: float


#: The fields of a tested pair, in order (JSON keys and table columns).
PAIR_COLUMNS = [f.name for f in fields(PairTest)]


def all_pairs(names: Sequence[str], tester: Tester) -> tuple[dict[str, float], list[PairTest]]:
    """Test every pair (a before b in ``names``); return each system's score and the pairs."""
    if len(names) < 2:
        raise ConfigError("systems: all pairs need at least two systems")
    scores: dict[str, float] = {}
    pairs: list[PairTest] = []
    for i, a in enumerate(names[:-1]):
        base, *rows = tester(a, names[i + 1 :])
        scores[a] = base.score
        for row in rows:
            scores[row.name] = row.score
            pairs.append(
                PairTest(a, row.name, row.p_value_bs, row.p_value_ar, row.score - base.score)
            )
    return scores, pairs


def holm(pairs: Sequence[PairTest]) -> list[PairTest]:
    """Adjust both p-values of every pair for multiple comparisons (Holm, 1979).

    The k-th smallest of m p-values becomes max over j <= k of min(1, (m - j + 1) p_j):
    step-down, monotone, never below the raw value. Each test is adjusted on its own.
    """
    adjusted = list(pairs)
    for field in ("p_value_bs", "p_value_ar"):
        values = [
            (getattr(p, field), i) for i, p in enumerate(pairs) if getattr(p, field) is not None
        ]
        values.sort()
        running = 0.0
        for rank, (p, i) in enumerate(values):
            running = max(running, min(1.0, (len(values) - rank) * p))
            adjusted[i] = replace(adjusted[i], **{field: running})
    return adjusted


def rank_clusters(
    scores: Mapping[str, float],
    pairs: Sequence[PairTest],
    higher_is_better: bool = True,
    alpha: float = 0.05,
    test: str = "p_value_bs",
) -> list[list[str]]:
    """Group systems, best first, into clusters not significantly different from their best.

    Raises:
        ConfigError: ``test`` is not a p-value field, or a needed pair was not tested.
    """
    if test not in ("p_value_bs", "p_value_ar"):
        raise ConfigError(f"test: {test!r} is not p_value_bs or p_value_ar")
    by_pair = {frozenset((p.a, p.b)): getattr(p, test) for p in pairs}
    ranked = sorted(scores, key=lambda name: scores[name], reverse=higher_is_better)
    clusters: list[list[str]] = []
    for name in ranked:
        if clusters:
            best = clusters[-1][0]
            if frozenset((best, name)) not in by_pair:
                raise ConfigError(f"pairs: {best!r} and {name!r} were not tested")
            p = by_pair[frozenset((best, name))]
            if p is None or p >= alpha:
                clusters[-1].append(name)
                continue
        clusters.append([name])
    return clusters
