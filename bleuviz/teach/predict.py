"""Predict first: a student's guesses for one walkthrough, marked right or wrong.

The student guesses the clipped counts m_n, the precisions p_n (after
smoothing, as the score uses them), the brevity penalty and BLEU; each guess
is held against the walkthrough's own number, with a tolerance for the decimals
a person would write (counts exact, precisions and BP to ±0.005, BLEU to ±0.5),
and each mark names the step that explains the answer.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import pandas as pd

from bleuviz.teach.walkthrough import Walkthrough

#: How far a guess may be from the answer and still be right.
TOLERANCE = {"count": 0.0, "precision": 0.005, "bp": 0.005, "bleu": 0.5}


@dataclass(frozen=True, slots=True)
class Mark:
    """One quantity: the guess (None: not guessed), the answer, and the step that explains it."""

    name: str
    guess: float | None
    answer: float
    tolerance: float
    step: str

    @property
    def right(self) -> bool | None:
        """Whether the guess is within the tolerance; None when nothing was guessed."""
        if self.guess is None:
            return None
        if math.isnan(self.answer):
            return False
        return abs(self.guess - self.answer) <= self.tolerance + 1e-12


def quantities(walk: Walkthrough) -> dict[str, tuple[float, float, str]]:
    """Every quantity to predict: name -> (answer, tolerance, the step that explains it)."""
    out: dict[str, tuple[float, float, str]] = {}
    for s in walk.orders:
        out[f"m{s.order}"] = (
            float(s.matches),
            TOLERANCE["count"],
            f"Step 2: {s.matches} of the {s.totals} candidate {s.order}-grams are credited "
            "after clipping.",
        )
    for s in walk.orders:
        out[f"p{s.order}"] = (
            s.precision,
            TOLERANCE["precision"],
            f"Steps 3–4: p{s.order} = {s.fraction}; smoothing: {s.note} → {s.precision:.4f}.",
        )
    out["BP"] = (walk.bp, TOLERANCE["bp"], f"Steps 6–7: {walk.lengths.rule} {walk.bp_rule}")
    why = (
        walk.zero_rule
        or walk.caveat
        or (f"100 × BP {walk.bp:.3f} × p̄ {walk.geometric_mean:.4f} = {walk.score:.2f}.")
    )
    out["BLEU"] = (walk.core.score, TOLERANCE["bleu"], f"Steps 5 and 8: {why}")
    return out


def mark(walk: Walkthrough, guesses: Mapping[str, float | None]) -> tuple[Mark, ...]:
    """Mark every quantity of ``walk`` against ``guesses`` (by name: m1, p1, BP, BLEU)."""
    return tuple(
        Mark(name, guesses.get(name), answer, tolerance, step)
        for name, (answer, tolerance, step) in quantities(walk).items()
    )


def marks_frame(marks: tuple[Mark, ...]) -> pd.DataFrame:
    """One row per quantity: guess, answer, right or wrong in words, and the explaining step."""
    verdict = {True: "✓ right", False: "✗ wrong", None: "— not guessed"}
    return pd.DataFrame(
        {
            "quantity": [m.name for m in marks],
            "your guess": ["" if m.guess is None else f"{m.guess:g}" for m in marks],
            "answer": [f"{m.answer:.4g}" for m in marks],
            "mark": [verdict[m.right] for m in marks],
            "why": [m.step for m in marks],
        }
    )
