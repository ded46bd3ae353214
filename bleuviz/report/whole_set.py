"""The test set a report holding every segment carries, beside its browser's data.

The browser's data has the texts; reopening also needs the segment ids, every
imported score exactly (a float's JSON repr round-trips; NaN is None) and
every error-span file whole (its raters, segment scores and every span's
fields, which the browser does not show). ``whole_set`` writes them (into the
packed segments, ``segments.pack_segments``); ``testset_of`` rebuilds the
``TestSet`` from the packed data (``reading.read_report``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import astuple
from typing import Any

import numpy as np

from bleuviz.io.error_spans import ErrorAnnotations, ErrorSpan, SegmentAnnotation
from bleuviz.io.scores import SegmentScores
from bleuviz.io.testset import TestSet


def whole_set(testset: TestSet) -> dict[str, Any]:
    """What reopening the report needs beside the segments: ids, imported scores, spans."""
    return {
        "seg_ids": None if testset.seg_ids is None else list(testset.seg_ids),
        "scores": [
            {
                "name": s.name,
                "origin": s.origin,
                "lower_is_better": s.lower_is_better,
                "skipped": list(s.skipped),
                "values": {
                    k: [_exact(v) for v in values.tolist()] for k, values in s.values.items()
                },
            }
            for s in testset.seg_scores
        ],
        "spans": [_annotations_fields(a) for a in testset.error_spans],
    }


def _exact(value: float) -> float | None:
    """A score as JSON holds it exactly (a float's repr), None where there is none."""
    return None if math.isnan(value) else value


def _annotations_fields(annotations: ErrorAnnotations) -> dict[str, Any]:
    """One error-span file whole: its fields, and every segment's raters, score and spans."""
    return {
        "name": annotations.name,
        "origin": annotations.origin,
        "kind": annotations.kind,
        "skipped": list(annotations.skipped),
        "language_pairs": list(annotations.language_pairs),
        "segments": {
            system: [
                None
                if a is None
                else [list(a.raters), a.score, [list(astuple(span)) for span in a.spans]]
                for a in per_segment
            ]
            for system, per_segment in annotations.segments.items()
        },
    }


def testset_of(data: Mapping[str, Any]) -> TestSet:
    """The test set of unpacked report data that holds every segment (``data["set"]``)."""
    segments: Sequence[Mapping[str, Any]] = data["segments"]
    whole = data["set"]
    names: list[str] = list(data["systems"])
    systems = {name: tuple(s["hyps"][k]["t"] for s in segments) for k, name in enumerate(names)}
    n_refs = len(segments[0]["refs"]) if segments else 0
    references = tuple(tuple(s["refs"][r] for s in segments) for r in range(n_refs))
    source = tuple(s["src"] for s in segments) if segments and "src" in segments[0] else None
    docs = tuple(s["doc"] for s in segments) if segments and "doc" in segments[0] else None
    return TestSet(
        systems,
        references,
        source,
        docs,
        None if whole["seg_ids"] is None else tuple(whole["seg_ids"]),
        tuple(_scores_of(s) for s in whole["scores"]),
        tuple(_annotations_of(a) for a in whole["spans"]),
    )


def _scores_of(fields: Mapping[str, Any]) -> SegmentScores:
    """One imported score, its values exact (None: no score)."""
    values = {
        system: np.array([np.nan if v is None else float(v) for v in column], dtype=np.float64)
        for system, column in fields["values"].items()
    }
    for column in values.values():
        column.flags.writeable = False
    return SegmentScores(
        str(fields["name"]),
        str(fields["origin"]),
        values,
        bool(fields["lower_is_better"]),
        tuple(fields["skipped"]),
    )


def _annotations_of(fields: Mapping[str, Any]) -> ErrorAnnotations:
    """One error-span file, whole."""
    segments = {
        system: tuple(
            None
            if a is None
            else SegmentAnnotation(tuple(a[0]), tuple(ErrorSpan(*span) for span in a[2]), a[1])
            for a in per_segment
        )
        for system, per_segment in fields["segments"].items()
    }
    return ErrorAnnotations(
        str(fields["name"]),
        str(fields["origin"]),
        str(fields["kind"]),
        segments,
        tuple(fields["skipped"]),
        tuple(fields["language_pairs"]),
    )
