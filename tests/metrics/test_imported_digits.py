"""An imported score is shown with the decimals its file writes (at least 2, at most 4).

Oracle: the score text itself; each case writes a file's values as text, and the
expected precision is counted from that text (the decimals after the point).
"""

from __future__ import annotations

import numpy as np
import pytest

from bleuviz.io.scores import build_scores
from bleuviz.metrics.imported import MAX_DECIMALS, MIN_DECIMALS, ImportedMetric
from bleuviz.render.numbers import fixed


def written(text: str) -> int:
    """Decimals a number is written with."""
    return len(text.partition(".")[2])


@pytest.mark.parametrize(
    "texts",
    [
        ["0", "-1", "-5.1", "-25", "-10.1"],  # MQM: weights 1, 5, 25 and 0.1
        ["66", "100", "0", "12"],  # ESA: whole numbers
        ["0.772413", "0.834434", "0.1"],  # COMET: six decimals
        ["-0.25", "1.5", "0.125"],  # averages of raters
    ],
)
def test_a_score_shows_with_the_decimals_its_file_writes(texts: list[str]) -> None:
    values = np.array([float(t) for t in texts] + [np.nan])  # a missing score counts for none
    scores = build_scores("mqm.seg.score", "mqm", {"sys": values}, ["sys"], len(values))
    spec = ImportedMetric.of(scores)
    expected = min(max(max(written(t) for t in texts), MIN_DECIMALS), MAX_DECIMALS)
    assert spec.digits == expected
    for text in texts:  # every score shows as written, padded to the precision
        if written(text) <= MAX_DECIMALS:
            assert float(fixed(float(text), spec.digits)) == float(text)


def test_mqm_is_not_padded_to_four_decimals() -> None:
    """The issue's example: MQM's -10.1 was shown as -10.1000 everywhere."""
    values = np.array([0.0, -10.1, -5.0])
    scores = build_scores("mqm.seg.score", "mqm", {"sys": values}, ["sys"], len(values))
    assert fixed(-10.1, ImportedMetric.of(scores).digits) == "-10.10"
