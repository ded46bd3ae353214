"""The Learn page's tables and numbers as text, built from a ``Walkthrough``.

Pure pandas: one frame per step (tokens, one order's n-grams, the precisions
and log terms of every order, the reference lengths), and the formatting of
precisions and logs they share with the page's prose.
"""

from __future__ import annotations

import math

import pandas as pd

from bleuviz.bleu import Flavor
from bleuviz.bleu.explain import SegmentExplanation
from bleuviz.teach.walkthrough import LengthStep, OrderStep, Walkthrough


def fmt_number(value: float) -> str:
    """A precision or log as readable text: 4 decimals, or 3 significant digits if tiny."""
    if value == 0 or abs(value) >= 1e-4:
        return f"{value:.4f}"
    return f"{value:.3g}"


def fmt_log(value: float) -> str:
    """A log value, with −∞ for log 0."""
    return "−∞" if value == -math.inf else fmt_number(value)


def tokens_frame(expl: SegmentExplanation) -> pd.DataFrame:
    """One row per text: its tokens (space-separated) and their count."""
    tokens = [expl.hyp_tokens, *expl.ref_tokens]
    return pd.DataFrame(
        {
            "text": ["candidate", *(f"reference {i + 1}" for i in range(len(expl.ref_tokens)))],
            "tokens": [" ".join(t) for t in tokens],
            "count": [len(t) for t in tokens],
        }
    )


def ngram_frame(step: OrderStep) -> pd.DataFrame:
    """One row per distinct candidate n-gram: counts, where the maximum is, clipped count."""
    rows = step.rows
    return pd.DataFrame(
        {
            "n-gram": [r.text for r in rows],
            "count in candidate": [r.hyp_count for r in rows],
            "max count in one reference": [r.max_ref_count for r in rows],
            "held by reference": [
                f"{r.best_ref + 1}" if r.best_ref is not None else "—" for r in rows
            ],
            "clipped count": [r.matched for r in rows],
            "not credited": [r.hyp_count - r.matched for r in rows],
        }
    )


def orders_frame(walk: Walkthrough) -> pd.DataFrame:
    """One row per order: counts, precision before and after smoothing, weight and log term."""
    steps = walk.orders
    return pd.DataFrame(
        {
            "n": [s.order for s in steps],
            "m_n": [s.matches for s in steps],
            "t_n": [s.totals for s in steps],
            "p_n (fraction)": [s.fraction for s in steps],
            "p_n": ["undefined" if s.raw is None else fmt_number(s.raw) for s in steps],
            "smoothed p_n": [fmt_number(s.precision) for s in steps],
            "what smoothing did": [s.note for s in steps],
            "w_n": [fmt_number(s.weight) for s in steps],
            "log p_n": [_log_text(s) for s in steps],
            "w_n · log p_n": [_term_text(s, walk.config.flavor_spec) for s in steps],
        }
    )


def _log_text(step: OrderStep) -> str:
    """log p_n, −∞ for p_n = 0, or a dash for an order effective order leaves out."""
    if not step.used:
        return "—"
    return fmt_log(math.log(step.precision)) if step.precision else "−∞"


def _term_text(step: OrderStep, flavor: Flavor) -> str:
    """The log term as the sum uses it, or why it is not in the sum."""
    if not step.used:
        return "left out (effective order)"
    if flavor.omits_zero_precision and step.precision == 0:
        return "left out (p = 0)"
    return fmt_log(step.term)


def lengths_frame(lengths: LengthStep) -> pd.DataFrame:
    """One row per reference: its length, distance to c, and whether it is r."""
    return pd.DataFrame(
        {
            "reference": [i + 1 for i in range(len(lengths.ref_lens))],
            "length r_i": list(lengths.ref_lens),
            "|r_i − c|": [abs(r - lengths.hyp_len) for r in lengths.ref_lens],
            "chosen as r": [
                "✓" if i == lengths.chosen else "" for i in range(len(lengths.ref_lens))
            ],
        }
    )
