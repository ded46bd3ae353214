"""One segment's drill-down, shared by the sentences and compare pages."""

from __future__ import annotations

from functools import partial
from typing import Literal, cast

import numpy as np
import pandas as pd
import streamlit as st
from numpy.typing import NDArray

from bleuviz.app import routes
from bleuviz.app.ui.cache.keys import cached_resource
from bleuviz.app.ui.sections.deferred import deferred
from bleuviz.app.ui.sections.error_spans import (
    DRAWN_CHOICE,
    ShownErrors,
    annotation_choice,
    error_table,
    segment_errors,
    show_source,
)
from bleuviz.app.ui.sections.notes import note_editor
from bleuviz.app.ui.state.learn_links import learn_query
from bleuviz.app.ui.state.links import apply_links, write_links
from bleuviz.app.ui.state.page_links import imported_range_param
from bleuviz.app.ui.state.settings import chosen_metrics
from bleuviz.app.ui.widgets.format import direction_note, fmt_bleu, fmt_bp, fmt_metric
from bleuviz.app.ui.widgets.markup import empty_room, glance_score, show_html
from bleuviz.app.ui.widgets.table_window import table_px
from bleuviz.arrays import FloatArray
from bleuviz.bleu.explain import SegmentExplanation, explain_segment
from bleuviz.bleu.signature import signature
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.io.error_spans import ErrorAnnotations
from bleuviz.io.testset import TestSet
from bleuviz.metrics import BLEU
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.render.error_marks import error_legend
from bleuviz.render.highlight import (
    hypothesis_html,
    hypothesis_with_errors,
    legend,
    reference_html,
)
from bleuviz.render.labels import escape_markdown as md
from bleuviz.render.rouge_highlight import rouge_hypothesis_html, rouge_reference_html
from bleuviz.render.search_marks import mark_hits
from bleuviz.rouge.explain import TypeExplanation


@cached_resource(max_entries=256, show_spinner=False)
def explanation(
    hyp: str, refs: tuple[str, ...], tokenize: TokenizeConfig, order: int
) -> SegmentExplanation:
    """Explain one segment (cached: only the segments on screen are ever explained).

    A resource, shared, not a copy per call: an explanation is frozen throughout, and
    unpickling the ten a Sentences run reads (the open segment in nine systems and its
    drill-down) took 7% of the run's time on the server (WMT17 en-de, under cProfile).
    """
    return explain_segment(hyp, refs, tokenize, order)


def ngram_frame(expl: SegmentExplanation, order: int) -> pd.DataFrame:
    """The n-gram table of one order, its columns named for a student.

    "matched" is the clipped count min(times in hypothesis, most in one
    reference); "clipped" is what the clip took away. The reference holding the
    most is a dash where no reference holds the n-gram.
    """
    rows = expl.rows[order - 1]
    return pd.DataFrame(
        {
            "n-gram": [r.text for r in rows],
            "times in hypothesis": [r.hyp_count for r in rows],
            "most in one reference": [r.max_ref_count for r in rows],
            "reference with the most": [
                "—" if r.best_ref is None else f"reference {r.best_ref + 1}" for r in rows
            ],
            "matched": [r.matched for r in rows],
            "clipped": [r.clipped for r in rows],
        }
    )


def segment_anchor(key_prefix: str) -> str:
    """The id of the drill-down's heading (a link to a segment scrolls to it)."""
    return f"{key_prefix}-segment"


def show_segment(
    evaluation: Evaluation,
    system: str,
    index: int,
    key_prefix: str,
    defer_table: bool = False,
) -> ErrorAnnotations | None:
    """Draw source, hypothesis and references highlighted, the n-gram tables and the BP.

    ``defer_table``: the n-gram table follows once the rest is on screen (a link to one
    segment: without it, the page sends no data frame before its answer is drawn).
    Returns the error spans drawn (None without any), for the page's other views of the
    segment.
    """
    testset = evaluation.testset
    segment_heading(testset, system, index, key_prefix)
    hyp = testset.systems[system][index]
    refs = tuple(stream[index] for stream in testset.references)
    max_order = evaluation.settings.bleu.max_order
    expl = explanation(hyp, refs, evaluation.settings.tokenize, max_order)
    cards = segment_bleu(evaluation, system, index)
    for column, (title, value) in zip(st.columns(len(cards)), cards, strict=True):
        column.metric(title, value)
    _other_metrics(evaluation, system, index)
    learn_link(hyp, refs)
    # None without any; the table's choice until the user makes one here.
    spans = annotation_choice(
        testset, f"{key_prefix}_seg_err_from", False, DRAWN_CHOICE, f"{key_prefix}_err_from"
    )
    errors = segment_errors(spans, system, index, key_prefix)
    order = source_and_order(evaluation, index, f"{key_prefix}_order", errors)
    severities = [] if errors is None else [span.severity for span in errors.spans]
    show_html(legend() + ("" if errors is None else error_legend(severities)))
    _hypothesis(expl, order, errors)
    if errors is not None:
        error_table(expl, order, errors, key_prefix)
    _references(expl, order, len(refs))
    note_editor(testset, system, index, key_prefix)
    _precision_lines(expl, max_order)
    ngrams = ngram_frame(expl, order)
    deferred(
        f"{key_prefix}_ngrams_part",
        "Show the n-gram table",
        table_px(len(ngrams)),
        partial(st.dataframe, ngrams, hide_index=True, key=f"{key_prefix}_ngrams_{order}"),
        defer=defer_table,
    )
    # Not cached: a segment's ROUGE tokens take about a millisecond (36 tokens, two
    # references), less than a cache's copy of them, and every other metric has none.
    explained = {
        label: found
        for label in chosen_metrics()
        if (found := evaluation.metric(label).token_explanation(hyp, refs, evaluation.settings))
        is not None
    }
    if explained:
        _rouge_section(explained, evaluation.settings.options.stemmer, key_prefix)
    return spans


#: The heights (px) of the widgets a glance leaves room for, as chromium draws them at
#: 1,400 px wide: the link to Learn and the order's radio buttons, each with its gap.
_LEARN_LINK_PX, _ORDER_CHOICE_PX = 40, 67


def segment_heading(
    testset: TestSet, system: str, index: int, key_prefix: str, anchored: bool = True
) -> None:
    """The drill-down's heading: segment, document and system, with the page's anchor.

    ``anchored``: False leaves the anchor out (a first look, which the page's own drill-down
    follows: a link scrolls to that one, never to the first look below it).
    """
    label = testset.segment_label(index)
    doc = f" · document {testset.doc_ids[index]}" if testset.doc_ids is not None else ""
    # Segment ids, document ids and system names come from the data: shown literally.
    anchor: str | Literal[False] = segment_anchor(key_prefix) if anchored else False
    st.subheader(md(f"Segment {label}{doc} · {system}"), anchor=anchor)


def segment_bleu(evaluation: Evaluation, system: str, index: int) -> list[tuple[str, str]]:
    """The drill-down's three cards: sentence BLEU, brevity penalty and "hyp / ref" lengths.

    Each as (title, formatted value).
    """
    bleu = evaluation.bleu(system)
    return [
        (f"Sentence {BLEU.label}", fmt_bleu(float(bleu.sentence[index]))),
        ("Brevity penalty", fmt_bp(float(bleu.arrays.bp[index]))),
        ("Lengths (hyp / ref)", f"{int(bleu.stats.hyp_len[index])} / {int(bleu.ref_len[index])}"),
    ]


def segment_glance(evaluation: Evaluation, system: str, index: int, key_prefix: str) -> None:
    """The drill-down's answer with no widget: heading, scores, source and highlighted lines.

    A new session opened by a link to one segment shows this first (the frame's first
    look), as :func:`show_segment` draws it, at the order chosen so far (1 in a new
    session). Every widget and chart of the page follows on the next run; drawn
    without them, the answer needs none of their browser code.
    """
    testset = evaluation.testset
    segment_heading(testset, system, index, key_prefix, anchored=False)
    cards = segment_bleu(evaluation, system, index)
    for column, (title, value) in zip(st.columns(len(cards)), cards, strict=True):
        show_html(glance_score(title, value), column)
    show_html(empty_room(_LEARN_LINK_PX))  # where the link to Learn will be
    hyp = testset.systems[system][index]
    refs = tuple(stream[index] for stream in testset.references)
    max_order = evaluation.settings.bleu.max_order
    expl = explanation(hyp, refs, evaluation.settings.tokenize, max_order)
    order = min(int(st.session_state.get(f"{key_prefix}_order", 1)), max_order)
    if testset.source is not None:
        st.markdown("**Source**")
        show_source(testset.source[index], None)
    show_html(empty_room(_ORDER_CHOICE_PX))  # and the choice of the order
    show_html(legend())
    _hypothesis(expl, order, None)
    _references(expl, order, len(refs))


def _hypothesis(expl: SegmentExplanation, order: int, errors: ShownErrors | None) -> None:
    """The hypothesis, highlighted at ``order`` (with the error spans shown, if any)."""
    st.markdown("**Hypothesis**")
    if expl.hyp_spans is None:
        st.caption(
            "The tokenizer changed this text, so its tokens are shown instead of the original."
            + ("" if errors is None else " The error spans follow on the original text.")
        )
    show_html(marked_hypothesis(expl, order, errors))


def _references(expl: SegmentExplanation, order: int, count: int) -> None:
    """Each reference, with the tokens the hypothesis matched at ``order`` marked."""
    for r in range(count):
        st.markdown(f"**Reference {r + 1}**: tokens the hypothesis matched at order {order}")
        show_html(reference_html(expl, order, r))


def learn_link(hyp: str, refs: tuple[str, ...], label: str = "Open this segment in Learn") -> None:
    """A link that carries the text, tokenizer and case to Learn, which links back here."""
    st.page_link(
        routes.LEARN,
        label=label,
        query_params=learn_query(hyp, refs),
        icon=":material/school:",
    )


def marked_hypothesis(expl: SegmentExplanation, order: int, errors: ShownErrors | None) -> str:
    """The hypothesis highlighted at ``order``, with the human error spans if any are shown."""
    if errors is None:
        return hypothesis_html(expl, order)
    return hypothesis_with_errors(expl, order, errors.spans)


def source_and_order(
    evaluation: Evaluation,
    index: int,
    key: str,
    errors: ShownErrors | None = None,
) -> int:
    """Show the segment's source (if any, with its marked errors) and return the order chosen."""
    if evaluation.testset.source is not None:
        st.markdown("**Source**")
        show_source(evaluation.testset.source[index], errors)
    return int(
        st.radio(
            "Highlight n-grams of order",
            list(range(1, evaluation.settings.bleu.max_order + 1)),
            horizontal=True,
            key=key,
            persist_state="page",
        )
    )


def _other_metrics(evaluation: Evaluation, system: str, index: int) -> None:
    """Sentence scores of the metrics chosen beside BLEU."""
    labels = chosen_metrics()
    for col, label in zip(st.columns(max(len(labels), 1)), labels, strict=False):
        spec = evaluation.metric(label)
        value = float(evaluation.detail(label, system).sentence[index])
        col.metric(f"{spec.sentence_title(md)}{direction_note(spec)}", fmt_metric(spec, value))


def _rouge_section(explained: dict[str, TypeExplanation], stemmer: bool, key_prefix: str) -> None:
    """The tokens that make one ROUGE type's score, in the hypothesis and the chosen reference."""
    st.markdown("**ROUGE**: which tokens count")
    label = st.radio("ROUGE type", list(explained), horizontal=True, key=f"{key_prefix}_rouge_type")
    expl = explained[str(label)]
    score = expl.score
    st.caption(
        f"{label}: precision {score.precision:.4f} · recall {score.recall:.4f} · "
        f"F {score.fmeasure:.4f}, against reference {expl.ref_index + 1} (the best F). "
        "Tokens are rouge-score's: lowercased, punctuation dropped"
        + (", Porter-stemmed." if stemmer else ".")
    )
    st.markdown("Hypothesis")
    show_html(rouge_hypothesis_html(expl))
    st.markdown(f"Reference {expl.ref_index + 1}")
    show_html(rouge_reference_html(expl))


def _precision_lines(expl: SegmentExplanation, max_order: int) -> None:
    """Clipped counts and modified precision per order, as fractions and decimals."""
    parts = []
    for n in range(1, max_order + 1):
        m, t = expl.matches(n), expl.totals(n)
        value = f"{m / t:.4f}" if t else "undefined"
        parts.append(f"p{n} = {m}/{t} = {value}")
    st.markdown("Modified precision: " + " · ".join(parts))


def imported_ranges(evaluation: Evaluation, labels: list[str]) -> dict[str, tuple[float, float]]:
    """A range slider per imported score over every system's scores; return the chosen ranges.

    A range left at its full extent keeps the segments without a score too.
    """
    ranges: dict[str, tuple[float, float]] = {}
    if not labels:
        return ranges
    columns = st.columns(min(len(labels), 3))
    for i, label in enumerate(labels):
        values = np.concatenate([scores.sentence for scores in evaluation.scores(label).values()])
        finite = values[np.isfinite(values)]
        if not len(finite) or finite.min() == finite.max():
            continue
        low, high = float(finite.min()), float(finite.max())
        link = imported_range_param(label, f"sent_range::{label}", low, high)
        st.session_state.setdefault(link.key, (low, high))
        apply_links([link])
        slider = columns[i % len(columns)].slider(
            f"{md(label)} (imported)",
            low,
            high,
            key=link.key,  # its value is in session state: set above or by the link
            help="Segments of the shown system whose score lies in this range",
        )
        chosen = cast(tuple[float, float], slider)
        write_links([link])
        if chosen != (low, high):
            ranges[label] = (float(chosen[0]), float(chosen[1]))
    return ranges


def in_range(values: FloatArray, low: float, high: float) -> NDArray[np.bool_]:
    """Mask of scores within [low, high]; a missing score (NaN) is outside every range."""
    with np.errstate(invalid="ignore"):
        mask: NDArray[np.bool_] = (values >= low) & (values <= high)
    return mask


def sentence_signature(evaluation: Evaluation) -> str:
    """The signature of the sentence BLEU scores (sentence-level semantics)."""
    return signature(
        evaluation.settings.bleu.for_sentences(),
        evaluation.settings.tokenize,
        len(evaluation.testset.references),
    )


def sentence_semantics_note(evaluation: Evaluation) -> str:
    """Which sentence-level semantics the sentence scores use, with their signature."""
    config = evaluation.settings.bleu
    if not config.flavor_spec.sentence_effective_order:
        how = f"each segment scored as a one-segment corpus ({config.flavor})"
    elif config.sentence_like_corpus:
        how = "each segment with exactly the sidebar's settings (BLEU(...).sentence_score)"
    else:
        how = "sacrebleu's sentence_bleu: effective order on"
    return f"Sentence BLEU: {how} · `{sentence_signature(evaluation)}`"


def search_hits(testset: TestSet, system: str, index: int, text: str) -> None:
    """The open segment's hypothesis, references and source with the search hits marked."""
    st.markdown(f"**Where “{md(text.strip())}” occurs** in this segment")
    named = [("Hypothesis", testset.systems[system][index])]
    named += [(f"Reference {r}", s[index]) for r, s in enumerate(testset.references, 1)]
    if testset.source is not None:
        named.append(("Source", testset.source[index]))
    rows = "".join(
        f'<div class="bv-hit"><span style="font-weight:600">{label}</span>: '
        f"{mark_hits(line, text)}</div>"
        for label, line in named
    )
    show_html(f'<div class="bv-hits">{rows}</div>')
