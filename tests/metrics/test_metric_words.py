"""What a metric says of itself on the pages: its name, titles, headings, its token explanation.

The strings are the ones the app wrote from capability flags before the metric
answered them (issue 45): ``widgets/format.py``'s "Sentence chrF" / "Imported
COMET", the Overview's "mean ROUGE-L F" and "NAME (mean ± 95% CI)" headings and
"imported, mean of scored segments" cards, the Sentences caption's "corpus BLEU",
"chrF" and "mean ROUGE-1". The token explanation's oracle is
``bleuviz.rouge.explain`` itself on rouge-score's text, as the drill-down called it.
"""

from __future__ import annotations

import numpy as np
import pytest

from bleuviz.io.scores import SegmentScores
from bleuviz.metrics import BLEU, METRICS, Settings, rouge_text
from bleuviz.metrics.imported import ImportedMetric
from bleuviz.metrics.spec import MetricOptions
from bleuviz.render.labels import escape_markdown as md
from bleuviz.rouge.explain import explain_rouge_types
from bleuviz.rouge.score import RougeConfig

COMPUTED = list(METRICS)
ROUGE = [label for label in METRICS if label.startswith("ROUGE")]


def imported(name: str, lower_is_better: bool = False) -> ImportedMetric:
    """An imported metric named as a file from the data may name it."""
    values = {"a": np.array([0.5, np.nan, 0.25])}
    return ImportedMetric.of(SegmentScores(name, "scores.tsv", values, lower_is_better))


@pytest.mark.parametrize("label", COMPUTED)
def test_a_computed_metric_shows_its_own_name_unescaped(label: str) -> None:
    spec = METRICS[label]
    assert spec.shown_name(md) == label
    assert spec.sentence_title(md) == f"Sentence {label}"


def test_an_imported_name_comes_from_the_data_and_is_escaped() -> None:
    spec = imported("COMET_*22*")
    assert spec.shown_name(md) == md("COMET_*22*") != "COMET_*22*"
    assert spec.sentence_title(md) == f"Imported {md('COMET_*22*')}"


@pytest.mark.parametrize("label", COMPUTED)
def test_column_headings_say_what_the_corpus_figure_is(label: str) -> None:
    heading = METRICS[label].column_heading(md)
    assert heading == (f"mean {label} F" if label in ROUGE else label)


@pytest.mark.parametrize("lower", [False, True])
def test_an_imported_heading_is_a_mean_with_its_interval_and_direction(lower: bool) -> None:
    heading = imported("MQM", lower).column_heading(md)
    assert heading == "MQM (mean ± 95% CI)" + (" (lower is better)" if lower else "")


def test_only_an_imported_score_is_shown_as_a_mean_with_an_interval() -> None:
    assert all(METRICS[label].mean_interval_note() is None for label in COMPUTED)
    assert imported("COMET").mean_interval_note() == "imported, mean of scored segments"


@pytest.mark.parametrize("label", COMPUTED)
def test_a_subset_is_named_by_how_it_is_scored(label: str) -> None:
    name = METRICS[label].subset_name(md)
    if label == BLEU.label:
        assert name == "corpus BLEU"
    elif label in ROUGE:
        assert name == f"mean {label}"
    else:  # statistics that sum: the subset is a corpus of its own
        assert name == label
    assert imported("COMET").subset_name(md) == "mean COMET"


HYP = "The cats are sitting on the mats near the doors"
REFS = ("A cat sits on the mat by the door", "The cats sat on mats near doors")


@pytest.mark.parametrize("stemmer", [False, True])
@pytest.mark.parametrize("label", COMPUTED)
def test_only_rouge_explains_its_score_by_tokens(label: str, stemmer: bool) -> None:
    spec = METRICS[label]
    settings = Settings(options=MetricOptions(stemmer=stemmer))
    got = spec.token_explanation(HYP, REFS, settings)
    if label not in ROUGE:
        assert got is None
        return
    config = RougeConfig((spec.key,), use_stemmer=stemmer)
    want = explain_rouge_types(rouge_text(HYP), [rouge_text(r) for r in REFS], config)[spec.key]
    assert got == want
