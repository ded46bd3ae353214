"""Pandas frames for the app: per-segment tables, filters and document scores.

"Corpus BLEU of a subset" (from summed statistics) and "mean of sentence BLEU"
are different numbers; the names here keep them apart.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from bleuviz.bleu import group_scores
from bleuviz.bleu.result import BleuScore
from bleuviz.io.testset import TestSet
from bleuviz.metrics import BLEU
from bleuviz.metrics.evaluation import Evaluation

PREVIEW_CHARS = 120


def segment_table(evaluation: Evaluation, system: str) -> pd.DataFrame:
    """Return one row per segment: id, document, sentence BLEU, precisions, lengths, preview."""
    bleu = evaluation.bleu(system)
    testset = evaluation.testset
    frame = pd.DataFrame({"seg": np.arange(1, len(bleu.stats) + 1)})
    if testset.doc_ids is not None:
        frame["doc"] = testset.doc_ids
    frame["bleu"] = bleu.arrays.score
    for n in range(evaluation.settings.bleu.max_order):
        frame[f"p{n + 1}"] = bleu.arrays.precisions[:, n]
    frame["bp"] = bleu.arrays.bp
    frame["hyp_len"] = bleu.stats.hyp_len
    frame["ref_len"] = bleu.ref_len
    frame["hypothesis"] = [line[:PREVIEW_CHARS] for line in testset.systems[system]]
    return frame


def add_columns(
    table: pd.DataFrame, metrics: Mapping[str, ArrayLike], notes: Sequence[str] | None = None
) -> pd.DataFrame:
    """Put each metric's sentence scores before the lengths, and the notes last (in place).

    ``table`` is a ``segment_table`` (a copy: the app caches the original). The
    notes go after the hypothesis, so that a mostly empty column does not push
    the text out of view.
    """
    for label, values in metrics.items():
        table.insert(list(table.columns).index("hyp_len"), label, np.asarray(values))
    if notes is not None:
        table["note"] = list(notes)
    return table


def reading_order(columns: Sequence[str]) -> list[str]:
    """Return a segment table's columns as the page shows them: the hypothesis after the scores.

    ``columns``: a ``segment_table``'s, with ``add_columns``'s and any others (error
    counts, where the search matched). Ids and scores come first, then the hypothesis
    and the note, then BLEU's details (precisions, brevity penalty, lengths): with
    three metrics and error counts beside BLEU, the hypothesis had moved past the
    details, out of view at 1280 px.
    """
    details = [c for c in columns if c in ("bp", "hyp_len", "ref_len") or _is_precision(c)]
    text = [c for c in ("hypothesis", "note") if c in columns]
    first = [c for c in columns if c not in details and c not in text]
    return [*first, *text, *details]


def _is_precision(column: str) -> bool:
    """Whether ``column`` is one of ``segment_table``'s modified precisions (``p1``...)."""
    return column[:1] == "p" and column[1:].isdigit()


#: Columns of a segment table an export replaces (ids and the preview: it has whole texts).
_REPLACED = ("seg", "doc", "hypothesis")
#: Columns an export names otherwise: sentence BLEU by its metric's label, as elsewhere.
_EXPORT_NAMES = {"bleu": BLEU.label}


def export_columns(tables: Mapping[str, pd.DataFrame]) -> dict[str, dict[str, ArrayLike]]:
    """Every column the segment tables show, by column then system, for ``segment_export``.

    ``tables`` maps a system to its table (``segment_table`` with ``add_columns``);
    sentence BLEU's ``bleu`` is named ``BLEU``, as elsewhere in exports.
    """
    columns: dict[str, dict[str, ArrayLike]] = {}
    for system, table in tables.items():
        for column in table.columns:
            if column not in _REPLACED:
                name = _EXPORT_NAMES.get(str(column), str(column))
                columns.setdefault(name, {})[system] = table[column].to_numpy()
    return columns


@dataclass(frozen=True, slots=True)
class SegmentFilter:
    """What the sentence table shows: a text search, a BLEU range and a length range."""

    text: str = ""
    bleu_min: float = 0.0
    bleu_max: float = 100.0
    len_min: int = 0
    len_max: int | None = None


def filter_mask(
    testset: TestSet, system: str, table: pd.DataFrame, flt: SegmentFilter
) -> np.ndarray:
    """Return a boolean mask of the segments that pass ``flt``.

    The text search is case-insensitive and looks in the hypothesis, every
    reference and the source, matching literally (no regular expressions).
    """
    lengths = table["hyp_len"].to_numpy()
    bleu = table["bleu"].to_numpy()
    # The slider's ends mean "no bound": a perfect sentence may score 100.00000000000001.
    low = -np.inf if flt.bleu_min <= 0 else flt.bleu_min
    high = np.inf if flt.bleu_max >= 100 else flt.bleu_max
    mask = (bleu >= low) & (bleu <= high) & (lengths >= flt.len_min)
    if flt.len_max is not None:
        mask = mask & (lengths <= flt.len_max)
    needle = flt.text.strip().lower()
    if needle:
        streams = [testset.systems[system], *testset.references]
        if testset.source is not None:
            streams.append(testset.source)
        found = np.zeros(len(mask), dtype=bool)
        for stream in streams:
            found |= np.fromiter((needle in line.lower() for line in stream), bool, len(stream))
        mask = mask & found
    return mask


def document_scores(evaluation: Evaluation) -> pd.DataFrame:
    """Return corpus BLEU of every document for every system, from summed statistics."""
    doc_ids = evaluation.testset.doc_ids
    if doc_ids is None:
        return pd.DataFrame()
    codes, documents = pd.factorize(pd.Series(doc_ids))
    frame = pd.DataFrame(
        {"doc": documents, "segments": np.bincount(codes, minlength=len(documents))}
    )
    config = evaluation.settings.bleu
    for name in evaluation.testset.systems:
        stats = evaluation.bleu(name).stats
        frame[name] = group_scores(stats, config, codes, len(documents)).score
    return frame


def system_scores(evaluation: Evaluation) -> dict[str, BleuScore]:
    """Return every system's corpus BLEU with its precisions, brevity penalty and lengths."""
    return {name: evaluation.bleu(name).score for name in evaluation.testset.systems}


def mean_sentence_bleu(evaluation: Evaluation, system: str) -> float:
    """Return the arithmetic mean of sentence BLEU (not the corpus BLEU)."""
    return float(evaluation.bleu(system).sentence.mean())


def segment_export(
    testset: TestSet,
    systems: Sequence[str],
    scores: Mapping[str, Mapping[str, ArrayLike]],
    rows: Sequence[int] | None = None,
) -> pd.DataFrame:
    """Every segment whole, for a download: ids, document, source, references, output, scores.

    One row per segment and system (long form when ``systems`` has several),
    segments in ``rows`` order (0-based; all by default). ``scores`` maps a
    column's name (a metric's, or any per-segment column such as ``hyp_len``)
    to each system's values. No text is shortened.
    """
    index = np.arange(testset.n_segments) if rows is None else np.asarray(rows, dtype=np.int64)
    parts = []
    for system in systems:
        frame = pd.DataFrame({"seg": index + 1})
        frame["seg_id"] = [testset.segment_label(int(i)) for i in index]
        if testset.doc_ids is not None:
            frame["doc"] = [testset.doc_ids[i] for i in index]
        if testset.source is not None:
            frame["source"] = [testset.source[i] for i in index]
        for r, stream in enumerate(testset.references, start=1):
            frame[f"ref_{r}"] = [stream[i] for i in index]
        frame["system"] = system
        frame["hypothesis"] = [testset.systems[system][i] for i in index]
        for metric, by_system in scores.items():
            frame[metric] = np.asarray(by_system[system])[index]
        parts.append(frame)
    return pd.concat(parts, ignore_index=True)


def match_places(testset: TestSet, system: str, text: str) -> list[str]:
    """Per segment, where the search ``text`` occurs (as ``filter_mask`` searches).

    Case-insensitive and literal, in the system's hypothesis, each reference and
    the source: e.g. "hypothesis, reference 2"; empty where it does not occur.
    """
    needle = text.strip().lower()
    named = [("hypothesis", testset.systems[system])]
    named += [(f"reference {r}", stream) for r, stream in enumerate(testset.references, 1)]
    if testset.source is not None:
        named.append(("source", testset.source))
    if not needle:
        return [""] * testset.n_segments
    return [
        ", ".join(name for name, stream in named if needle in stream[i].lower())
        for i in range(testset.n_segments)
    ]
