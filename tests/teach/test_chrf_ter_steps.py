"""chrF and TER walkthroughs against sacrebleu 2.6 (``CHRF`` / ``TER`` ``sentence_score``).

The oracle is the installed sacrebleu itself, on generated sentences (hypothesis)
and on the Learn page's examples; the chrF statistics are also held against the
metric's own columnar statistics (``bleuviz.metrics.chrf_columnar``).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import CHRF, TER

from bleuviz.metrics.chrf_columnar import chrf_statistics
from bleuviz.metrics.chrf_score import ChrfConfig
from bleuviz.metrics.ter_config import TerConfig
from bleuviz.teach.chrf_steps import chrf_walkthrough
from bleuviz.teach.examples import EXAMPLES
from bleuviz.teach.metric_tables import chrf_frame, edit_script_html, shift_html
from bleuviz.teach.ter_steps import ter_walkthrough

WORDS = st.sampled_from(["the", "cat", "sat", "on", "mat", "a", "Mat", "(mat)", ".", "é", "dog,"])
SENTENCE = st.lists(WORDS, min_size=0, max_size=14).map(" ".join)
REFS = st.lists(SENTENCE, min_size=1, max_size=3)
REAL = [(e.hypothesis, list(e.references)) for e in EXAMPLES] + [
    ("on the mat the cat sat", ["the cat sat on the mat"]),
    ("", ["abc"]),
    ("a b", [""]),
    ("", [""]),
]


def check_chrf(hyp: str, refs: list[str], word_order: int, lowercase: bool) -> None:
    config = ChrfConfig(word_order=word_order, lowercase=lowercase)
    walk = chrf_walkthrough(hyp, refs, config)
    oracle = CHRF(word_order=word_order, lowercase=lowercase).sentence_score(hyp, refs).score
    assert walk.score == pytest.approx(oracle, abs=1e-9)
    best = walk.references[walk.best]
    # The shown rows are the metric's statistics against that reference.
    texts = [hyp.lower(), [r.lower() for r in refs]] if lowercase else [hyp, refs]
    stats = chrf_statistics([texts[0]], [[texts[1][walk.best]]], config)
    shown = [v for o in best.orders for v in (o.hyp, o.ref, o.matches)]
    assert shown == [int(v) for v in stats[0]]


@settings(max_examples=60, deadline=None)
@given(hyp=SENTENCE, refs=REFS, word_order=st.sampled_from([0, 2]), lowercase=st.booleans())
def test_chrf_walkthrough_equals_sacrebleu(
    hyp: str, refs: list[str], word_order: int, lowercase: bool
) -> None:
    check_chrf(hyp, refs, word_order, lowercase)


@pytest.mark.parametrize(("hyp", "refs"), REAL)
def test_chrf_walkthrough_on_real_sentences(hyp: str, refs: list[str]) -> None:
    for word_order in (0, 2):
        check_chrf(hyp, refs, word_order, False)


def check_ter(hyp: str, refs: list[str]) -> None:
    walk = ter_walkthrough(hyp, refs, TerConfig())
    oracle = TER().sentence_score(hyp, refs)
    assert walk.score == pytest.approx(oracle.score, abs=1e-9)
    ter = TER()
    stats = ter._compute_segment_statistics(
        ter._preprocess_segment(hyp), ter._extract_reference_info(refs)
    )
    assert (walk.edits, walk.avg_ref_len) == (stats[0], stats[1])
    best = walk.references[walk.best]
    # The script rebuilds the reference from the shifted candidate.
    rebuilt = [e.ref for e in best.edits if e.operation != "deletion"]
    assert rebuilt == list(best.ref_words)
    kept = [e.hyp for e in best.edits if e.operation != "insertion"]
    assert kept == list(best.shifts[-1].after if best.shifts else walk.hyp_words)


@settings(max_examples=60, deadline=None)
@given(hyp=SENTENCE, refs=REFS)
def test_ter_walkthrough_equals_sacrebleu(hyp: str, refs: list[str]) -> None:
    check_ter(hyp, refs)


@pytest.mark.parametrize(("hyp", "refs"), REAL)
def test_ter_walkthrough_on_real_sentences(hyp: str, refs: list[str]) -> None:
    check_ter(hyp, refs)


def test_a_shift_is_drawn_on_the_tokens() -> None:
    walk = ter_walkthrough("on the mat the cat sat", ["the cat sat on the mat"], TerConfig())
    shift = walk.references[0].shifts[0]
    html = shift_html(shift, 1)
    assert html.count("↷") == len(shift.words) == 3
    assert walk.edits == 1


def test_user_text_is_escaped_in_the_edit_script() -> None:
    walk = ter_walkthrough("<script>x</script> a", ["b a"], TerConfig())
    html = edit_script_html(walk.references[0])
    assert "<script" not in html and "&#60;script&#62;" in html
    assert 'data-op="substitution"' in html and "→" in html


def test_chrf_orders_left_out_say_so() -> None:
    walk = chrf_walkthrough("ab", ["abcd"], ChrfConfig())
    frame = chrf_frame(walk.references[0])
    assert frame["precision"].tolist()[2:] == ["left out"] * 4
