"""The Sentences caption's subset scores read the evaluation's settings, never session state.

Issue 45 (f): ``subset_scores`` re-implemented ``MetricScores.select`` and read the
lowercase switch from ``st.session_state``, so a call outside the page's run saw
another setting than the evaluation it was given. Oracle: sacrebleu 2.x's ``CHRF``
and ``BLEU`` on the chosen segments alone (chrF lowercased as the settings say).
"""

from __future__ import annotations

import pytest
from sacrebleu.metrics import BLEU, CHRF

from bleuviz.app.ui.sections import subset
from bleuviz.io.testset import TestSet
from bleuviz.metrics import Settings
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.metrics.spec import MetricOptions
from tests.data import SAMPLE_REF_LINES, SAMPLE_SYSTEM_LINES

TESTSET = TestSet(
    {name: tuple(lines) for name, lines in SAMPLE_SYSTEM_LINES.items()},
    tuple(tuple(stream) for stream in SAMPLE_REF_LINES),
)
ROWS = list(range(0, len(SAMPLE_REF_LINES[0]), 3))


@pytest.mark.parametrize("lowercase", [False, True])
def test_subset_scores_follow_the_evaluation_settings(
    lowercase: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(subset, "chosen_metrics", lambda: ["chrF"])
    settings = Settings(options=MetricOptions(lowercase=lowercase))
    system = next(iter(TESTSET.systems))
    parts = subset.subset_scores(Evaluation(TESTSET, settings), system, ROWS)
    hyps = [TESTSET.systems[system][i] for i in ROWS]
    refs = [[stream[i] for i in ROWS] for stream in TESTSET.references]
    bleu = BLEU().corpus_score(hyps, refs).score
    chrf = CHRF(lowercase=lowercase).corpus_score(hyps, refs).score
    assert parts == [f"corpus BLEU {bleu:.2f}", f"chrF {chrf:.2f}"]


def test_the_lowercase_switch_changes_the_subsets_chrf() -> None:
    """The case above can fail: on this subset, lowercasing changes chrF as printed."""
    system = next(iter(TESTSET.systems))
    hyps = [TESTSET.systems[system][i] for i in ROWS]
    refs = [[stream[i] for i in ROWS] for stream in TESTSET.references]
    shown = {f"{CHRF(lowercase=low).corpus_score(hyps, refs).score:.2f}" for low in (False, True)}
    assert len(shown) == 2
