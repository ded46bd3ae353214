"""The paired tests report how far they are, chunk by chunk, without changing a single draw.

Small chunks (``MAX_CELLS`` lowered) make a small corpus need many; chunking
itself leaves numpy's stream unchanged (``resampling.draw_chunks``), which the
results with and without reports also show.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import bleuviz.significance.resampling as resampling
from bleuviz.bleu import BleuConfig
from bleuviz.significance import compare_systems
from bleuviz.significance.mean import compare_means
from tests.significance.test_significance import make_systems, stats_of

N_BOOTSTRAP, N_AR = 100, 320


def reports_of(run) -> tuple[object, list[tuple[str, float]]]:
    seen: list[tuple[str, float]] = []
    result = run(lambda what, fraction: seen.append((what, fraction)))
    return result, seen


def phases(seen: list[tuple[str, float]]) -> dict[str, list[tuple[int, int, float]]]:
    """Reports by test: (item, of, fraction), in the order they came."""
    out: dict[str, list[tuple[int, int, float]]] = {}
    for what, fraction in seen:
        match = re.fullmatch(r"(.+): (?:resample|trial) ([\d,]+) of ([\d,]+)", what)
        assert match is not None, what
        test, item, total = match.group(1), *(int(g.replace(",", "")) for g in match.groups()[1:])
        out.setdefault(test, []).append((item, total, fraction))
    return out


def check_phase(steps: list[tuple[int, int, float]], total: int) -> None:
    assert len(steps) > 1  # several chunks, each reported
    assert steps[0][:1] == (1,) and steps[0][2] == 0.0
    assert all(of == total for _, of, _ in steps)
    items = [item for item, _, _ in steps]
    assert items == sorted(set(items)) and items[-1] <= total
    assert all(f == (item - 1) / total for item, _, f in steps)


def test_bleu_tests_report_each_chunk_and_draw_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(resampling, "MAX_CELLS", 600)
    stats = stats_of(make_systems(40, 1, 3, seed=5))
    base, *others = stats
    rest = {name: stats[name] for name in others}

    def run(progress):
        config = BleuConfig()
        return compare_systems(base, stats[base], rest, config, N_BOOTSTRAP, N_AR, 7, progress)

    reported, seen = reports_of(run)
    assert reported == run(None)
    by_test = phases(seen)
    assert list(by_test) == ["paired bootstrap", "approximate randomization"]
    check_phase(by_test["paired bootstrap"], N_BOOTSTRAP)
    check_phase(by_test["approximate randomization"], N_AR)


def test_mean_tests_report_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(resampling, "MAX_CELLS", 600)
    rng = np.random.default_rng(3)
    a, b = rng.random(40), rng.random(40)

    def run(progress):
        return compare_means("a", a, {"b": b}, N_BOOTSTRAP, N_AR, 7, progress)

    reported, seen = reports_of(run)
    assert reported == run(None)
    assert {"paired bootstrap", "approximate randomization"} <= set(phases(seen))
