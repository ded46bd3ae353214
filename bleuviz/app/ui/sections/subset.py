"""The score of the segments a filter leaves: "N of M segments · corpus BLEU of these N: X".

Corpus BLEU (and chrF, chrF++, TER) of a subset comes from its summed segment
statistics, so it equals scoring those segments alone; ROUGE and imported scores
are means over the subset (ROUGE's corpus figure is a mean too).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import streamlit as st

from bleuviz.app.ui.cache.scores import metric_scores, metric_spec
from bleuviz.app.ui.state.settings import chosen_metrics
from bleuviz.app.ui.widgets.format import fmt_bleu, fmt_metric
from bleuviz.bleu import BleuConfig, corpus_score
from bleuviz.metrics import subset_score
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.render.labels import escape_markdown as md


def subset_scores(
    evaluation: Evaluation, config: BleuConfig, system: str, rows: Sequence[int]
) -> list[str]:
    """ "corpus BLEU X", then each chosen metric's subset score, for ``rows`` (0-based)."""
    index = np.asarray(rows, dtype=np.int64)
    stats = evaluation.bleu_statistics().systems[system]
    # Rows are distinct segments: as many as there are means every one, in some order,
    # and summing every row needs no copy of them in that order (100,000 rows x 6 columns).
    every = len(index) == len(stats)
    bleu = corpus_score(
        stats,
        config,
        evaluation.settings.tokenize,
        len(evaluation.testset.references),
        None if every else index,
    )
    parts = [f"corpus BLEU {fmt_bleu(bleu.score)}"]
    lowercase = bool(st.session_state.get("lowercase"))
    for label in chosen_metrics():
        spec = metric_spec(evaluation, label)
        scores = metric_scores(evaluation, system, label)
        if spec.paired_tests:
            value = subset_score(scores, index.tolist(), lowercase)
            parts.append(f"{md(label)} {fmt_metric(spec, value)}")
        else:
            chosen = scores.sentence[index]
            chosen = chosen[~np.isnan(chosen)]
            value = float(chosen.mean()) if len(chosen) else float("nan")
            parts.append(f"mean {md(label)} {fmt_metric(spec, value)}")
    return parts


def subset_caption(
    evaluation: Evaluation,
    config: BleuConfig,
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
            f"{md(name)}, these {len(rows)}: "
            + " · ".join(subset_scores(evaluation, config, name, rows))
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
