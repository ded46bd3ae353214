"""Every segment's evidence, packed for the report's segment browser.

Per segment: its number, id, document, source and references; per system, the
hypothesis, where each token sits (alternating gaps and lengths, in
characters) and its status at every order (``token_status``: one letter per
order, ``m`` match, ``c`` clip, ``x`` miss), its sentence scores, the error
spans of every loaded file and the saved set's notes. A line the tokenizer
rewrote (its tokens not found in it) carries its tokens instead of places.

The whole is JSON, gzip-compressed (level 6: level 9 takes twice as long for 3%
less; mtime 0, so that the bytes depend on the data alone) and base64-encoded;
the page unpacks it with ``DecompressionStream``.

A report holding every segment also holds what its browser does not need to
be reopened as the test set it was made of (``set``: the segment ids, every
imported score exactly, every error-span file whole: ``whole_set``); ``reading``
reads it back. Past ``max_segments`` segment x system rows, the browser holds the most telling
segments (those of the largest disagreements with the human score, then those
the systems' first-metric scores spread most widely over) up to half the room,
then a sample drawn with a fixed seed; ``HeldSegments`` says how many of each.
"""

from __future__ import annotations

import base64
import gzip
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from bleuviz.arrays import FloatArray, IntArray
from bleuviz.bleu.references import build_reference_index
from bleuviz.bleu.tokenize import preprocess
from bleuviz.io.error_spans import ErrorAnnotations, ErrorSpan
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.report.options import ReportOptions
from bleuviz.report.ranking import MetricColumn, scored
from bleuviz.report.token_status import TokenStatuses, token_statuses
from bleuviz.report.whole_set import whole_set
from bleuviz.workspace.notes import Note


@dataclass(frozen=True, slots=True)
class HeldSegments:
    """Which segments the browser holds (0-based, ascending), and why.

    Attributes:
        indices: the segments held.
        total: every segment of the test set.
        telling: how many were chosen as the most telling; sampled: how many by the seed.
        seed: the sample's seed.
    """

    indices: tuple[int, ...]
    total: int
    telling: int = 0
    sampled: int = 0
    seed: int = 0

    @property
    def whole(self) -> bool:
        """Whether every segment is held."""
        return len(self.indices) == self.total


def held_segments(
    evaluation: Evaluation,
    options: ReportOptions,
    first_seen: Sequence[int] = (),
) -> HeldSegments:
    """Choose the segments the browser holds (see the module notes).

    Args:
        evaluation: the test set and settings.
        options: ``max_segments`` and ``sample_seed``.
        first_seen: 0-based segments held first (the disagreements the report links to).
    """
    testset = evaluation.testset
    total, n_systems = testset.n_segments, len(testset.systems)
    room = max(1, options.max_segments // max(n_systems, 1))
    if total <= room:
        return HeldSegments(tuple(range(total)), total)
    half = room // 2
    chosen = list(dict.fromkeys(i for i in first_seen if 0 <= i < total))[:half]
    taken = set(chosen)
    for i in np.argsort(-_spread(evaluation, options), kind="stable").tolist():
        if len(chosen) >= half:
            break
        if i not in taken:
            chosen.append(i)
            taken.add(i)
    rest = np.array([i for i in range(total) if i not in taken], dtype=np.int64)
    rng = np.random.default_rng(options.sample_seed)
    sample = rng.choice(rest, size=min(room - len(chosen), len(rest)), replace=False)
    indices = tuple(sorted([*chosen, *sample.tolist()]))
    return HeldSegments(indices, total, len(chosen), len(sample), options.sample_seed)


def _spread(evaluation: Evaluation, options: ReportOptions) -> FloatArray:
    """Each segment's spread (largest minus smallest) of the first metric's sentence scores."""
    label = options.metrics[0]
    scores = scored(evaluation, options, label).scores(label)
    matrix = np.vstack([s.sentence for s in scores.values()])
    with np.errstate(invalid="ignore"):
        spread = np.nanmax(matrix, axis=0) - np.nanmin(matrix, axis=0)
    filled: FloatArray = np.nan_to_num(spread, nan=0.0)
    return filled


def pack_segments(
    evaluation: Evaluation,
    options: ReportOptions,
    columns: Sequence[MetricColumn],
    held: HeldSegments,
) -> str:
    """The held segments' evidence as gzip-compressed JSON in base64 (see the module notes)."""
    testset, settings = evaluation.testset, evaluation.settings
    refs = build_reference_index(testset.references, settings.tokenize, settings.bleu.max_order)
    sentence = {c.label: scored(evaluation, options, c.label).scores(c.label) for c in columns}
    notes = _notes_by_row(options.notes)
    systems = []
    for index, name in enumerate(testset.systems):
        statuses = token_statuses(testset.systems[name], refs)
        scores = [sentence[c.label][name].sentence for c in columns]
        systems.append((index, name, statuses, scores))
    segments = [_segment(evaluation, i, systems, columns, notes) for i in held.indices]
    data = {
        "systems": list(testset.systems),
        "order": settings.bleu.max_order,
        "metrics": [
            {"label": c.name, "digits": c.digits, "higher": c.higher_is_better} for c in columns
        ],
        "spans": [a.name for a in testset.error_spans],
        "total": held.total,
        "segments": segments,
        "set": whole_set(testset) if held.whole else None,
    }
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    packed = gzip.compress(text.encode("utf-8"), compresslevel=6, mtime=0)
    return base64.b64encode(packed).decode("ascii")


def unpack_segments(packed: str) -> dict[str, Any]:
    """The JSON ``pack_segments`` packed (for tests, and for reading a report back)."""
    data: dict[str, Any] = json.loads(gzip.decompress(base64.b64decode(packed)))
    return data


def _segment(
    evaluation: Evaluation,
    i: int,
    systems: Sequence[tuple[int, str, TokenStatuses, Sequence[np.ndarray[Any, Any]]]],
    columns: Sequence[MetricColumn],
    notes: Mapping[tuple[str, int], Sequence[Note]],
) -> dict[str, Any]:
    """One segment's fields."""
    testset = evaluation.testset
    out: dict[str, Any] = {
        "n": i + 1,
        "id": testset.segment_label(i),
        "refs": [stream[i] for stream in testset.references],
    }
    if testset.doc_ids is not None:
        out["doc"] = testset.doc_ids[i]
    if testset.source is not None:
        out["src"] = testset.source[i]
    out["hyps"] = [
        _hypothesis(evaluation, name, i, statuses, scores, columns, notes.get((name, i), ()))
        for _, name, statuses, scores in systems
    ]
    return out


def _hypothesis(
    evaluation: Evaluation,
    name: str,
    i: int,
    statuses: TokenStatuses,
    scores: Sequence[np.ndarray[Any, Any]],
    columns: Sequence[MetricColumn],
    notes: Sequence[Note],
) -> dict[str, Any]:
    """One system's line of segment ``i``: text, tokens, statuses, scores, spans, notes."""
    text = evaluation.testset.systems[name][i]
    flags = statuses.flags
    lo, hi = int(flags.offsets[i]), int(flags.offsets[i + 1])
    out: dict[str, Any] = {"t": text, "k": statuses.letters(i)}
    if flags.aligned[i]:
        out["o"] = _gaps_and_lengths(flags.starts[lo:hi], flags.ends[lo:hi])
    else:
        out["w"] = preprocess(text, evaluation.settings.tokenize).split()
    out["sc"] = [_rounded(float(s[i]), c.digits + 2) for s, c in zip(scores, columns, strict=True)]
    errors = [
        _error(f, span)
        for f, annotations in enumerate(evaluation.testset.error_spans)
        for span in _spans(annotations, name, i)
    ]
    if errors:
        out["e"] = errors
    if notes:
        out["notes"] = [_note(note) for note in notes]
    return out


def _gaps_and_lengths(starts: IntArray, ends: IntArray) -> list[int]:
    """Token places as alternating gaps (from the previous token's end) and lengths."""
    previous = np.concatenate(([0], ends[:-1]))
    pairs = np.column_stack((starts - previous, ends - starts))
    return [int(v) for v in pairs.ravel().tolist()]


def _rounded(value: float, digits: int) -> float | None:
    """``value`` rounded for the browser (None where the segment has no score)."""
    return None if math.isnan(value) else round(value, digits)


def _spans(annotations: ErrorAnnotations, system: str, i: int) -> tuple[ErrorSpan, ...]:
    """The spans ``annotations`` marks on ``system``'s line ``i``."""
    per_segment = annotations.segments.get(system)
    annotation = per_segment[i] if per_segment is not None else None
    return annotation.spans if annotation is not None else ()


def _error(file: int, span: ErrorSpan) -> list[Any]:
    """One span: file, start, end, severity, category, rater, where (t, s or o)."""
    where = "o" if span.omission else "s" if span.on_source else "t"
    return [file, span.start, span.end, span.severity, span.category, span.rater, where]


def _notes_by_row(notes: Sequence[Note]) -> dict[tuple[str, int], list[Note]]:
    """The notes by (system, 0-based segment)."""
    out: dict[tuple[str, int], list[Note]] = {}
    for note in notes:
        out.setdefault((note.system, note.segment), []).append(note)
    return out


def _note(note: Note) -> dict[str, Any]:
    """A note's fields; its marked words only if written on the line shown."""
    out: dict[str, Any] = {
        "author": note.author,
        "category": note.category,
        "severity": note.severity,
        "text": note.text,
    }
    if note.span is not None and not note.on_earlier_output:
        out["span"] = list(note.span)
    if note.on_earlier_output:
        out["earlier"] = True
    return out
