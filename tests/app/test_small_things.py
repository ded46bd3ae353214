"""Issue 33, items 8 and 9 on the Overview: no ``-0.0000``, imported cards ranked, no all-tie best.

Oracles: Python's own formatting of the absolute value (what a zero must read
as), the score file read with plain Python, and sacrebleu 2.6's corpus BLEU.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from bleuviz.analysis.ranking import best_systems, sole_best
from bleuviz.app.ui.sections.overview_table import Column, systems_table
from bleuviz.app.ui.widgets.format import fmt_bleu, fmt_metric
from bleuviz.metrics import METRICS
from tests.data import SAMPLE_HYPS, SAMPLE_REFS, SAMPLE_SYSTEM_LINES


@pytest.mark.parametrize("value", [-0.0, -1e-12, -0.00004])
def test_a_zero_never_shows_a_minus(value: float) -> None:
    assert fmt_bleu(value) == f"{abs(value):.2f}"
    assert (
        fmt_metric(next(s for s in METRICS.values() if s.scale <= 1), value) == f"{abs(value):.4f}"
    )


def test_a_column_where_everyone_ties_has_no_best() -> None:
    assert best_systems({"a": 1.0, "b": 1.0, "c": 1.0}) == set()
    assert best_systems({"a": 1.0, "b": 1.0, "c": 0.5}) == {"a", "b"}
    assert best_systems({"a": 0.5}) == {"a"}
    assert sole_best({"a": 1.0, "b": 1.0, "c": 0.5}) is None
    assert sole_best({"a": 1.0, "b": 0.9, "c": 0.5}) == "a"


def test_the_page_marks_no_tied_best() -> None:
    """BP 1.000 for two of three systems: no cell of BP is marked; BLEU's best is."""
    bp = {"a": 1.0, "b": 1.0, "c": 0.98}
    columns = {
        "BLEU": Column("BLEU", {"a": 20.0, "b": 25.0, "c": 22.0}, {}, True),
        "BP": Column("BP", bp, {}, True),
    }
    columns = {
        k: Column(c.heading, c.values, {n: str(v) for n, v in c.values.items()}, True)
        for k, c in columns.items()
    }
    styled = systems_table(columns, ["b", "c", "a"])
    frame = styled.data
    marked = {
        (frame.index[r], frame.columns[c]) for (r, c), css in styled._compute().ctx.items() if css
    }
    assert marked == {("b", "BLEU")}


@pytest.fixture
def zero_scores(tmp_path: Path) -> Path:
    """An MQM-like file: literal has only ``-0`` scores, the others a spread below zero."""
    n = len(SAMPLE_SYSTEM_LINES["literal"])
    rng = np.random.default_rng(3)
    lines = ["literal\t-0" for _ in range(n)]
    for name in ("terse", "repeat"):
        lines += [f"{name}\t{-v:.3f}" for v in rng.uniform(0, 5, n)]
    path = tmp_path / "mqm.seg.score"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_imported_cards_are_ranked_and_a_zero_is_unsigned(
    new_app: Callable[..., AppTest], zero_scores: Path
) -> None:
    argv = ["--ref", *map(str, SAMPLE_REFS), "--hyp", *map(str, SAMPLE_HYPS)]
    at = new_app(*argv, "--seg-scores", str(zero_scores))
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    values = {}
    for line in zero_scores.read_text().splitlines():
        name, value = line.split("\t")
        values.setdefault(name, []).append(float(value))
    means = {name: float(np.mean(v)) for name, v in values.items()}
    expected = sorted(means, key=means.get, reverse=True)  # mqm: higher is better here
    cards = [(m.label, m.value) for m in at.metric][len(SAMPLE_SYSTEM_LINES) :]
    assert [label for label, _ in cards] == expected
    # the file writes three decimals, and a score shows as its file writes it (issue 44, 17)
    assert dict(cards)["literal"] == "0.000"
    assert "-0.000" not in at.table[0].value.to_string()


def test_values_that_read_the_same_are_a_tie() -> None:
    """27.114 and 27.111 both read 27.11: neither is marked best."""
    values = {"a": 27.114, "b": 27.111, "c": 20.0}
    cells = {n: f"{v:.2f}" for n, v in values.items()}
    styled = systems_table({"BLEU": Column("BLEU", values, cells, True, 2)}, ["a", "b", "c"])
    assert not [css for css in styled._compute().ctx.values() if css]
