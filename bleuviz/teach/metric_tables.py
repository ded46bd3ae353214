"""The Learn page's chrF and TER tables and the TER edit script as escaped HTML.

Built from ``bleuviz.teach.chrf_steps`` and ``bleuviz.teach.ter_steps``. Every
word of the user's text enters the HTML through ``inert_text``; each edit
carries its operation in words and signs (−, +, →, ↷) as well as colour, so a
screen reader and a colour-blind reader get it too.
"""

from __future__ import annotations

import pandas as pd

from bleuviz.render.inert import inert_text
from bleuviz.teach.chrf_steps import ChrfReference
from bleuviz.teach.ter_steps import Edit, ShiftStep, TerReference

_STYLE = {
    "match": "",
    "substitution": "background:#ffe3b3;color:#5a2d00;",
    "deletion": "background:#f8d7da;color:#58151c;",
    "insertion": "background:#d1e7dd;color:#0a3622;",
}
_PAD = "padding:0.1rem 0.25rem;border-radius:0.25rem;"


def _fmt(value: float | None) -> str:
    return "left out" if value is None else f"{value:.4f}"


def chrf_frame(ref: ChrfReference) -> pd.DataFrame:
    """One row per order: n-gram counts, matches, precision and recall."""
    orders = ref.orders
    return pd.DataFrame(
        {
            "n-grams": [f"{o.kind} {o.order}-grams" for o in orders],
            "in candidate": [o.hyp for o in orders],
            "in reference": [o.ref for o in orders],
            "matches": [o.matches for o in orders],
            "precision": [_fmt(o.precision) for o in orders],
            "recall": [_fmt(o.recall) for o in orders],
        }
    )


def _edit_html(edit: Edit) -> str:
    """One edit: the word(s), a sign and the operation's name as a tooltip and hidden text."""
    style = _PAD + _STYLE[edit.operation]
    hyp, ref = inert_text(edit.hyp or ""), inert_text(edit.ref or "")
    if edit.operation == "match":
        body = hyp
    elif edit.operation == "substitution":
        body = f"<del>{hyp}</del> → <ins>{ref}</ins>"
    elif edit.operation == "deletion":
        body = f"−<del>{hyp}</del>"
    else:
        body = f"+<ins>{ref}</ins>"
    return (
        f'<span class="bv-ter" data-op="{edit.operation}" title="{edit.operation}" '
        f'aria-label="{edit.operation}" style="{style}">{body}</span>'
    )


def edit_script_html(ref: TerReference) -> str:
    """The edit script over the shifted candidate: one marked span per step."""
    if not ref.edits:
        return '<div class="bv-line">(nothing to edit)</div>'
    return '<div class="bv-line">' + " ".join(_edit_html(e) for e in ref.edits) + "</div>"


def shift_html(shift: ShiftStep, number: int) -> str:
    """A shift: the moved words marked (↷) in the candidate after the move."""
    moved = " ".join(shift.words)
    length = len(shift.words)
    # Where _perform_shift (bleuviz.metrics.ter_shifts) puts the moved words.
    start = shift.target - length if shift.target > shift.start + length else shift.target
    words = []
    for i, word in enumerate(shift.after):
        text = inert_text(word)
        if start <= i < start + length:
            text = f'<mark title="shifted" aria-label="shifted">↷{text}</mark>'
        words.append(text)
    return (
        f'<div class="bv-line">Shift {number}: “{inert_text(moved)}” '
        f"(words {shift.start + 1}–{shift.start + len(shift.words)}) moves: "
        + " ".join(words)
        + f" · edit distance after it: {shift.distance}</div>"
    )


def ter_counts_frame(refs: tuple[TerReference, ...], best: int) -> pd.DataFrame:
    """One row per reference: its length, the shifts and each kind of edit."""

    def count(ref: TerReference, op: str) -> int:
        return sum(e.operation == op for e in ref.edits)

    return pd.DataFrame(
        {
            "reference": [i + 1 for i in range(len(refs))],
            "words": [len(r.ref_words) for r in refs],
            "shifts": [len(r.shifts) for r in refs],
            "substitutions": [count(r, "substitution") for r in refs],
            "deletions": [count(r, "deletion") for r in refs],
            "insertions": [count(r, "insertion") for r in refs],
            "edits": [r.count for r in refs],
            "fewest": ["✓" if i == best else "" for i in range(len(refs))],
        }
    )
