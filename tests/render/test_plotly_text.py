"""Text from the data reaches Plotly escaped: no tag, entity or template field of its own.

Plotly.js draws every string (trace names, axis titles, category ticks, hovers)
through ``svg_text_utils.convertToTspans``, which renders a subset of HTML and
decodes entities; hover templates also fill in ``%{...}``. ``plotly_decode``
below does what Plotly does to a string, on the subset that matters here.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleuviz.analysis.buckets import WinTieLoss
from bleuviz.bleu import BleuConfig, corpus_score
from bleuviz.bleu.references import build_reference_index
from bleuviz.bleu.stats import compute_stats
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.render.charts import document_bars, precision_by_order, sentence_score_boxes
from bleuviz.render.compare_charts import (
    Axis,
    bucket_bars,
    difference_histogram,
    sentence_scatter,
    win_tie_loss_bar,
)
from bleuviz.render.human_charts import metric_vs_human_scatter
from bleuviz.render.inert import inert_text
from bleuviz.render.pairs_chart import pairs_heatmap
from bleuviz.significance.all_pairs import PairTest

# A tag Plotly renders, an entity it decodes, a template field, and LaTeX.
NASTY = "<b>bold</b> &amp; 5%{y} $x$"
OTHER = "<i>it</i>"
ENTITY = re.compile(r"&(#x[0-9a-f]+|#[0-9]+|[a-z]+);", re.IGNORECASE)


def plotly_decode(text: str) -> str:
    """Plotly's ``convertEntities``: named and numeric entities become characters."""
    return ENTITY.sub(lambda m: html.unescape(m.group(0)), text)


@given(st.text())
def test_escaped_text_decodes_to_itself_and_holds_no_tag_or_field(text: str) -> None:
    escaped = inert_text(text)
    assert plotly_decode(escaped) == text
    assert "<" not in escaped and ">" not in escaped and "%" not in escaped


def strings(value: object) -> Iterator[str]:
    """Every string anywhere in a figure's JSON."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings(item)
    elif isinstance(value, np.ndarray) and value.dtype == object:
        for item in value.ravel():
            yield from strings(item)


def figures() -> Iterator[tuple[str, go.Figure]]:
    tok = TokenizeConfig()
    refs = build_reference_index([["the cat sat", "a dog ran"]], tok, 4)
    stats = compute_stats(["the cat sat", "a dog"], refs)
    score = corpus_score(stats, BleuConfig(), tok, 1)
    names = (NASTY, OTHER)
    yield "precision", precision_by_order({NASTY: score, OTHER: score})
    yield "boxes", sentence_score_boxes({NASTY: [1.0, 2.0, 90.0], OTHER: [3.0]})
    yield "documents", document_bars([NASTY, "d2"], {OTHER: [1.0, 2.0], NASTY: [3.0, 4.0]})
    a, b = np.array([10.0, 20.0, 30.0]), np.array([20.0, 20.0, 10.0])
    axis = Axis(label=NASTY, scale=100.0)
    yield "scatter", sentence_scatter(a, b, [1, 2, 3], names, axis)
    yield "histogram", difference_histogram(b - a, names, axis)
    yield "win tie loss", win_tie_loss_bar(WinTieLoss(1, 1, 1), names)
    table = pd.DataFrame({"bucket": ["0–10"], "segments": [3], "bleu_a": [1.0], "bleu_b": [2.0]})
    yield "buckets", bucket_bars(table, names, "reference length")
    yield "humans", metric_vs_human_scatter([NASTY, OTHER], [1.0, 2.0], [3.0, 4.0], NASTY, OTHER)


@pytest.mark.parametrize(("kind", "figure"), list(figures()), ids=[k for k, _ in figures()])
def test_every_figure_shows_names_as_written(kind: str, figure: go.Figure) -> None:
    shown = list(strings(figure.to_plotly_json()))
    assert any(inert_text(NASTY) in text for text in shown), kind
    for text in shown:
        # Neither name's markup, entity or template field survives unescaped...
        assert "<b>" not in text and "<i>" not in text and "&amp; 5" not in text, (kind, text)
        assert "5%{y}" not in text, (kind, text)
        # ...and what Plotly decodes is the name as written, nowhere its markup.
        if inert_text(NASTY) in text:
            assert NASTY in plotly_decode(text)


def test_the_heatmap_shows_names_as_written() -> None:
    figure = pairs_heatmap([NASTY, OTHER], [PairTest(NASTY, OTHER, 0.01, 0.02, 1.5)])
    trace = figure.data[0]
    assert list(trace.x) == list(trace.y) == [inert_text(NASTY), inert_text(OTHER)]
    assert trace.text[1][0] == "+1.50*"  # the pair is still found by its raw name (p < 0.05)
