"""The score of the segments a filter leaves: "N of M segments · corpus BLEU of these N: X".

Corpus BLEU (and chrF, chrF++, TER) of a subset comes from its summed segment
statistics, so it equals scoring those segments alone; ROUGE and imported scores
are means over the subset (ROUGE's corpus figure is a mean too).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bleuviz.app.ui.state.settings import chosen_metrics
from bleuviz.app.ui.widgets.format import fmt_metric
from bleuviz.metrics import BLEU
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.render.labels import escape_markdown as md


def subset_scores(evaluation: Evaluation, system: str, rows: Sequence[int]) -> list[str]:
    """ "corpus BLEU X", then each chosen metric's subset score, for ``rows`` (0-based)."""
    index = np.asarray(rows, dtype=np.int64)
    parts = []
    for label in [BLEU.label, *chosen_metrics()]:
        spec = evaluation.metric(label)
        scores = evaluation.scores(label, [system])[system]
        # Rows are distinct segments: as many as there are means every one, in the table's
        # order (the test set's), and the whole corpus's score needs no copy of its rows.
        if len(index) != len(scores.sentence):
            scores = scores.select(index, evaluation.settings)
        parts.append(f"{spec.subset_name(md)} {fmt_metric(spec, scores.corpus)}")
    return parts


def subset_caption(
    evaluation: Evaluation,
    systems: Sequence[str],
    rows: Sequence[int],
    filters: Sequence[str],
) -> str:
    """The line under a filtered table: counts, the active filters, and the subset's scores."""
    total = evaluation.testset.n_segments
    active = " · ".join(filters) if filters else "no filter"
    head = f"{len(rows)} of {total} segments ({active})"
    if not rows:
        return head + ": no segment passes every filter; remove one to see more."
    lines = [head]
    for name in systems:
        lines.append(
            f"{md(name)}, these {len(rows)}: " + " · ".join(subset_scores(evaluation, name, rows))
        )
    return "  \n".join(lines)


def active_filters(
    text: str,
    bleu_range: tuple[float, float],
    len_range: tuple[int, int],
    longest: int,
    doc: str | None,
    score_ranges: dict[str, tuple[float, float]],
) -> dict[str, list[str]]:
    """The Sentences page's filters that narrow the table, in words (names escaped).

    Each maps to the session-state keys that hold it, so a chip can remove it.
    """
    active: dict[str, list[str]] = {}
    if text:
        active[f"search “{md(text)}”"] = ["sent_search"]
    if bleu_range != (0.0, 100.0):
        active[f"sentence BLEU {bleu_range[0]:g}–{bleu_range[1]:g}"] = ["sent_bleu"]
    if len_range != (0, longest):
        active[f"length {len_range[0]}–{len_range[1]}"] = ["sent_len"]
    if doc not in (None, "(all)"):
        active[f"document {md(str(doc))}"] = ["sent_doc"]
    for label, (low, high) in score_ranges.items():
        active[f"{md(label)} {low:g}–{high:g}"] = [f"sent_range::{label}"]
    return active
