"""HTML for highlighted tokens, with every piece of user text escaped.

Markup contract (tests and styling rely on it): each highlighted token is a
``<span class="bv-tok" data-status="match|clip|miss" title="...">``. Text from
the data only ever enters the HTML through ``inert_text``, so markup, Markdown
and LaTeX in a segment display literally and no script runs.
"""

from __future__ import annotations

from collections.abc import Sequence

from bleuviz.bleu.explain import NgramRow, SegmentExplanation
from bleuviz.bleu.spans import Span
from bleuviz.io.error_spans import ErrorSpan
from bleuviz.render.error_marks import (
    ERROR_CSS,
    TOKEN_PADDING_X,
    error_line_html,
    tokens_with_errors,
)
from bleuviz.render.inert import inert_text

STATUS_LABELS = {
    "match": "matched",
    "clip": "clipped (beyond the reference count)",
    "miss": "not in any reference",
}

STYLE = """
<style>
.bv-line { line-height: 2.1; font-size: 1.05rem; white-space: pre-wrap; }
"""
# A token's padding, which an error's underline reaches over (``error_marks``).
STYLE += ".bv-tok { padding: 0.1rem " + TOKEN_PADDING_X + "; border-radius: 0.25rem; }"
STYLE += """
.bv-tok[data-status="match"] { background: #c8ecd0; color: #0b3d17; }
.bv-tok[data-status="clip"] {
  background: #ffd8a8; color: #5a2d00; text-decoration: line-through;
}
.bv-tok[data-status="miss"] {
  background: #f1f3f5; color: #495057; border-bottom: 2px dotted #adb5bd;
}
.bv-legend .bv-tok { margin-right: 0.6rem; }
.bv-legend-side { display: inline-block; width: 6.5rem; font-weight: 600; }
.bv-glance-title { font-size: 0.875rem; line-height: 1.6; }
.bv-glance-value { font-size: 2.25rem; line-height: 1.4; }
"""
# The human error spans' underlines (``bleuviz.render.error_marks``), in the same sheet.
STYLE += ERROR_CSS + "\n</style>\n"


def token_span(text: str, status: str, title: str = "") -> str:
    """Return one escaped token element with its status."""
    tip = inert_text(title or STATUS_LABELS[status])
    return f'<span class="bv-tok" data-status="{status}" title="{tip}">{inert_text(text)}</span>'


def highlight(
    text: str,
    tokens: Sequence[str],
    statuses: Sequence[str],
    spans: Sequence[Span] | None,
    titles: Sequence[str] | None = None,
) -> str:
    """Return a line of HTML with each token marked by its status.

    With ``spans`` the original text is shown, including its spacing; without
    them, the tokenized text is shown, tokens separated by spaces.
    """
    tips = list(titles) if titles is not None else [""] * len(tokens)
    parts: list[str] = []
    cursor = 0
    for i, (token, status) in enumerate(zip(tokens, statuses, strict=True)):
        if spans is None:
            parts.append(("" if i == 0 else " ") + token_span(token, status, tips[i]))
            continue
        start, end = spans[i]
        parts.append(inert_text(text[cursor:start]))
        parts.append(token_span(text[start:end], status, tips[i]))
        cursor = end
    if spans is not None:
        parts.append(inert_text(text[cursor:]))
    return f'<div class="bv-line">{"".join(parts)}</div>'


#: What a status means on a reference token: only whether the hypothesis matched it.
REFERENCE_LABELS = {"match": "matched by the hypothesis", "miss": "not matched by the hypothesis"}


def legend() -> str:
    """Return the legend: the hypothesis's three statuses, then the references' two.

    The same colours mean different things on each side (a grey reference token
    is one the hypothesis missed, not one absent from every reference), so each
    side gets its own row.
    """
    hyp = "".join(
        token_span(label.split(" (")[0], status) for status, label in STATUS_LABELS.items()
    )
    ref = "".join(token_span(label, status, label) for status, label in REFERENCE_LABELS.items())
    return (
        f'<div class="bv-legend"><span class="bv-legend-side">Hypothesis</span> {hyp}</div>'
        f'<div class="bv-legend"><span class="bv-legend-side">References</span> {ref}</div>'
    )


def hypothesis_html(explanation: SegmentExplanation, order: int) -> str:
    """Return the hypothesis with each token marked for ``order`` and hover text with counts."""
    return highlight(
        explanation.hyp_text,
        explanation.hyp_tokens,
        explanation.token_statuses(order),
        explanation.hyp_spans,
        hypothesis_titles(explanation, order),
    )


def hypothesis_status_html(
    explanation: SegmentExplanation, order: int, errors: Sequence[ErrorSpan] = ()
) -> str:
    """Return the hypothesis marked for ``order``, each token's hover text its status alone.

    For a list of many systems' lines: counted hover text made "this segment in every
    system" 2.6 times as heavy (WMT17 en-de, nine systems), and the drill-down counts
    the open system's n-grams. ``errors``: human error spans drawn over it, as
    :func:`hypothesis_with_errors` draws them.
    """
    statuses = explanation.token_statuses(order)
    if not errors:
        return highlight(
            explanation.hyp_text, explanation.hyp_tokens, statuses, explanation.hyp_spans
        )
    titles = [STATUS_LABELS[status] for status in statuses]
    return _with_errors(explanation, statuses, titles, errors)


def hypothesis_titles(explanation: SegmentExplanation, order: int) -> list[str]:
    """Hover text of each hypothesis token at ``order``: the n-gram starting there, counted."""
    rows = {row.ngram: row for row in explanation.rows[order - 1]}
    grams = [
        tuple(explanation.hyp_tokens[i : i + order])
        for i in range(len(explanation.statuses[order - 1]))
    ]
    titles = []
    for i, status in enumerate(explanation.token_statuses(order)):
        row = rows.get(grams[i]) if i < len(grams) else None
        titles.append(_title(row, status) if row else STATUS_LABELS[status])
    return titles


def hypothesis_with_errors(
    explanation: SegmentExplanation, order: int, errors: Sequence[ErrorSpan]
) -> str:
    """Return the hypothesis with BLEU's status at ``order`` and human errors underlined.

    Only the errors marked on the hypothesis are drawn (``on_source`` ones belong
    to the source line). Where the tokenizer rewrote the text (no alignment),
    the tokens are shown as ``hypothesis_html`` shows them and the errors follow
    on the raw text in a second line; the caller says so.
    """
    statuses = explanation.token_statuses(order)
    return _with_errors(explanation, statuses, hypothesis_titles(explanation, order), errors)


def _with_errors(
    explanation: SegmentExplanation,
    statuses: Sequence[str],
    titles: Sequence[str],
    errors: Sequence[ErrorSpan],
) -> str:
    """The hypothesis's tokens with ``statuses`` and ``titles``, its target errors underlined."""
    target = [e for e in errors if not e.on_source]
    if explanation.hyp_spans is None:
        tokens = highlight(explanation.hyp_text, explanation.hyp_tokens, statuses, None, titles)
        return tokens + error_line_html(explanation.hyp_text, target)
    return tokens_with_errors(explanation.hyp_text, explanation.hyp_spans, statuses, titles, target)


def reference_html(explanation: SegmentExplanation, order: int, ref: int) -> str:
    """Return reference ``ref`` with the tokens the hypothesis matched at ``order``."""
    covered = explanation.ref_coverage(order)[ref]
    statuses = ["match" if c else "miss" for c in covered]
    titles = [REFERENCE_LABELS["match" if c else "miss"] for c in covered]
    return highlight(
        explanation.ref_texts[ref],
        explanation.ref_tokens[ref],
        statuses,
        explanation.ref_spans[ref],
        titles,
    )


def _title(row: NgramRow, status: str) -> str:
    """Hover text: the n-gram starting here with its counts."""
    where = f" (reference {row.best_ref + 1})" if row.best_ref is not None else ""
    return (
        f"“{row.text}”: {row.hyp_count} in hypothesis, at most {row.max_ref_count} in one "
        f"reference{where}; {row.matched} matched, {row.clipped} clipped. "
        f"This token: {STATUS_LABELS[status]}"
    )
