"""A brute-force MPP: every one-to-one matching enumerated, scored on character sets.

An independent re-statement of span-mt-metrics-eval's MPP (Perrella et al.,
2026; ``scoring/one_to_one.py`` and ``matching/optimal.py``): spans are sets of
character positions, a pair's overlap is the size of their intersection, every
partial injective map from predicted to gold spans over positive overlaps is
tried, and the best by (F, P + R, P, R) wins. Micro-averaging adds the credits
and span counts over segments. Exponential: for small generated segments only.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

Span = tuple[int, int]


def chars(span: Span) -> set[int]:
    """The character positions a half-open span covers."""
    return set(range(span[0], span[1]))


def matchings(
    n_pred: int, gold: int, allowed: dict[tuple[int, int], int]
) -> Iterator[list[tuple[int, int]]]:
    """Yield every one-to-one matching using only ``allowed`` (pred, gold) pairs."""

    def extend(i: int, used: frozenset[int]) -> Iterator[list[tuple[int, int]]]:
        if i == n_pred:
            yield []
            return
        yield from extend(i + 1, used)
        for j in range(gold):
            if j not in used and (i, j) in allowed:
                for rest in extend(i + 1, used | {j}):
                    yield [(i, j), *rest]

    yield from extend(0, frozenset())


def harmonic(p: float, r: float) -> float:
    """Harmonic mean, 0 when both are 0."""
    return 2 * p * r / (p + r) if p + r > 0 else 0.0


def segment(predicted: Sequence[Span], gold: Sequence[Span]) -> tuple[float, float]:
    """Return the best matching's (precision credit, recall credit)."""
    overlap = {
        (i, j): len(chars(p) & chars(g))
        for i, p in enumerate(predicted)
        for j, g in enumerate(gold)
        if chars(p) & chars(g)
    }
    best: tuple[tuple[float, ...], tuple[float, float]] | None = None
    for matching in matchings(len(predicted), len(gold), overlap):
        a = sum(overlap[i, j] / len(chars(predicted[i])) for i, j in matching)
        b = sum(overlap[i, j] / len(chars(gold[j])) for i, j in matching)
        p = a / len(predicted) if predicted else 1.0
        r = b / len(gold) if gold else 1.0
        key = tuple(round(v, 12) for v in (harmonic(p, r), p + r, p, r))
        if best is None or key > best[0]:
            best = (key, (a, b))
    assert best is not None  # the empty matching is always there
    return best[1]


def micro(
    predicted: Sequence[Sequence[Span]], gold: Sequence[Sequence[Span]]
) -> tuple[float, float, float]:
    """Return micro-averaged (precision, recall, F1) over segments."""
    a = b = 0.0
    n_pred = n_gold = 0
    for pred, ref in zip(predicted, gold, strict=True):
        credit = segment(pred, ref)
        a, b = a + credit[0], b + credit[1]
        n_pred, n_gold = n_pred + len(pred), n_gold + len(ref)
    p = a / n_pred if n_pred else 1.0
    r = b / n_gold if n_gold else 1.0
    return p, r, harmonic(p, r)


def union(spans: Sequence[Span]) -> list[Span]:
    """Merge spans that share a character (transitively), by pairwise set intersection."""
    groups: list[set[int]] = []
    for span in spans:
        covered = chars(span)
        if not covered:
            continue
        touching = [g for g in groups if g & covered]
        for g in touching:
            groups.remove(g)
            covered |= g
        groups.append(covered)
    return sorted((min(g), max(g) + 1) for g in groups)
