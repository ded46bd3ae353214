"""In Jupyter, a segment draws as the app's highlight and a score as a row of its table.

Oracles: the Sentences page itself (AppTest: the HTML blocks it draws for the
same segment), sacrebleu's ``BLEUScore`` for the table's numbers, and Python's
HTML parser for what a browser reads back from text holding markup (as in
``tests/render/test_inert.py``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from html.parser import HTMLParser

import pytest
import sacrebleu
from hypothesis import given
from streamlit.testing.v1 import AppTest

import bleuviz
from bleuviz.render.highlight import STYLE
from bleuviz.render.notebook import (
    ExplainedSegment,
    MetricTable,
    ScoreTable,
    metric_html,
    score_html,
    segment_html,
)
from tests.app.markup import html_bodies
from tests.data import SAMPLE_HYPS, SAMPLE_REFS
from tests.render.test_inert import LINE, MARKUP

TOKENIZE = bleuviz.TokenizeConfig("13a")
#: What ``show_html`` wraps each block in (``bleuviz.app.ui.widgets.markup.html_block``).
BLOCK = re.compile(r'<div class="bv-block" style="margin-bottom:1rem">(.*)</div>', re.DOTALL)
#: Segment 105 of the sample holds ``<script>alert('Tor!')</script>`` (sample README).
SCRIPT_SEGMENT = 105


def sample(system: int, seg: int) -> tuple[str, list[str]]:
    """The sample's hypothesis of ``system`` and its references at segment ``seg`` (from 1)."""
    hyp = SAMPLE_HYPS[system].read_text(encoding="utf-8").split("\n")[seg - 1]
    refs = [path.read_text(encoding="utf-8").split("\n")[seg - 1] for path in SAMPLE_REFS]
    return hyp, refs


class Reader(HTMLParser):
    """The text a browser shows and the tags it meets."""

    def __init__(self, markup: str) -> None:
        super().__init__(convert_charrefs=True)
        self.text, self.tags = "", []
        self.feed(markup)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        self.text += data


def test_a_segment_draws_as_the_sentences_page_draws_it(
    new_app: Callable[..., AppTest],
) -> None:
    at = new_app()
    at.switch_page("bleuviz/app/page_scripts/sentences.py")
    at.query_params["sys"] = "repeat"
    at.query_params["seg"] = str(SCRIPT_SEGMENT)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    # The page's first blocks: the legend, the hypothesis, each reference (order 1).
    drawn = [BLOCK.fullmatch(body) for body in html_bodies(at)[: 2 + len(SAMPLE_REFS)]]
    blocks = [match.group(1) for match in drawn if match]
    assert len(blocks) == 2 + len(SAMPLE_REFS)
    assert [block.count('class="bv-line"') for block in blocks] == [0, 1, 1, 1]
    hyp, refs = sample(2, SCRIPT_SEGMENT)
    notebook = bleuviz.explain_segment(hyp, refs, TOKENIZE)._repr_html_()
    start = 0
    for block in blocks:  # each of the page's blocks, in the page's order
        start = notebook.index(block, start) + len(block)
    assert notebook.count('class="bv-line"') == 1 + len(SAMPLE_REFS)
    assert notebook.count("<style>") == 1 and STYLE in notebook


def test_the_public_api_returns_objects_that_draw() -> None:
    hyp, refs = sample(0, 1)
    detail = bleuviz.explain_segment(hyp, refs, TOKENIZE)
    assert isinstance(detail, bleuviz.SegmentExplanation)
    assert isinstance(detail, ExplainedSegment)
    assert detail.matches(1) == bleuviz.explain_segment(hyp, refs, TOKENIZE).matches(1)
    assert detail._repr_html_() == segment_html(detail, 1)
    assert detail.highlight(2)._repr_html_() == segment_html(detail, 2)
    assert "matched at order 2" in detail.highlight(2)._repr_html_()
    with pytest.raises(bleuviz.ConfigError, match="order: 5 is not between 1 and 4"):
        detail.highlight(5)


def test_a_score_draws_as_a_row_of_the_overview_table() -> None:
    """Numbers: sacrebleu.corpus_bleu of the sample's system "terse" (BLEU 52.84, BP 0.767)."""
    testset = bleuviz.load_paths([SAMPLE_HYPS[1]], SAMPLE_REFS)
    corpus = bleuviz.compute_corpus_stats(testset, TOKENIZE)
    score = bleuviz.corpus_score(
        corpus.systems["terse"], bleuviz.BleuConfig(), corpus.tokenize, corpus.n_refs
    )
    assert isinstance(score, bleuviz.BleuScore) and isinstance(score, ScoreTable)
    lines = [list(testset.systems["terse"]), *[list(ref) for ref in testset.references]]
    oracle = sacrebleu.corpus_bleu(lines[0], lines[1:])
    table = Reader(score._repr_html_())
    cells = [f"{oracle.score:.2f}", *(f"{p:.1f}" for p in oracle.precisions)]
    cells += [f"{oracle.bp:.3f}", f"{oracle.sys_len / oracle.ref_len:.3f}"]
    cells += [str(oracle.sys_len), str(oracle.ref_len)]
    heads = ["BLEU", "p1", "p2", "p3", "p4", "BP", "ratio", "hyp_len", "ref_len"]
    assert table.text == "".join(heads) + "".join(cells) + score.signature
    assert cells[0] == "52.84" and cells[5] == "0.767"
    assert table.tags.count("th") == table.tags.count("td") == 9


@given(LINE, LINE)
def test_text_holding_markup_shows_literally(hyp: str, ref: str) -> None:
    detail = bleuviz.explain_segment(hyp, [ref], TOKENIZE)
    markup = segment_html(detail, 1)
    page = Reader(markup)
    assert set(page.tags) <= {"div", "style", "p", "strong", "em", "span"}
    # The text as written, or (where the tokenizer changed it) its tokens.
    shown_hyp = hyp if detail.hyp_spans is not None else " ".join(detail.hyp_tokens)
    shown_ref = ref if detail.ref_spans[0] is not None else " ".join(detail.ref_tokens[0])
    assert shown_hyp in page.text and shown_ref in page.text
    assert "<script" not in markup.lower()


@pytest.mark.parametrize("text", MARKUP)
def test_markup_in_a_signature_shows_literally(text: str) -> None:
    testset = bleuviz.load_paths([SAMPLE_HYPS[0]], SAMPLE_REFS)
    corpus = bleuviz.compute_corpus_stats(testset, TOKENIZE)
    score = bleuviz.corpus_score(corpus.systems["literal"], bleuviz.BleuConfig(), TOKENIZE, 2)
    signature = f"{score.signature}|{text}"
    page = Reader(score_html(replace(score, signature=signature)))
    assert page.text.endswith(signature)
    assert set(page.tags) == {"table", "tr", "th", "td", "p", "code"}


@pytest.mark.parametrize(
    ("label", "oracle", "heading"),
    [
        ("chrF", sacrebleu.corpus_chrf, "chrF"),
        ("TER", sacrebleu.corpus_ter, "TER (lower is better)"),
    ],
)
def test_a_metric_draws_as_its_column_of_the_table(
    label: str, oracle: Callable[..., sacrebleu.metrics.base.Score], heading: str
) -> None:
    """Numbers: sacrebleu's corpus_chrf and corpus_ter on the sample's system "literal"."""
    hyps = SAMPLE_HYPS[0].read_text(encoding="utf-8").splitlines()
    refs = [path.read_text(encoding="utf-8").splitlines() for path in SAMPLE_REFS]
    scores = bleuviz.score_metric(label, hyps, refs)
    assert isinstance(scores, MetricTable)
    expected = oracle(hyps, refs).score
    page = Reader(scores._repr_html_())
    assert page.text == f"{heading}segments{expected:.2f}{len(hyps)}{scores.signature}"


def test_markup_in_a_metric_signature_shows_literally() -> None:
    hyps = SAMPLE_HYPS[0].read_text(encoding="utf-8").splitlines()[:3]
    refs = [path.read_text(encoding="utf-8").splitlines()[:3] for path in SAMPLE_REFS]
    scores = bleuviz.score_metric("ROUGE-L", hyps, refs)
    signature = "<script>alert(1)</script>|**x**|$y$"
    markup = metric_html(replace(scores, signature=signature))
    assert Reader(markup).text.endswith(signature)
    assert "<script" not in markup
