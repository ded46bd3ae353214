"""Error-span files of any layout, recognised, read and attached with their scores.

Five layouts are read (one module each):

* Google's MQM TSV (``bleuviz.io.mqm_tsv``): a ``.tsv`` whose header names
  ``system doc doc_id seg_id rater source target category severity``;
* mt-metrics-eval's ``NAME.seg.rating`` (``bleuviz.io.mqm_ratings``);
* WMT24's ESA export as JSON lines (``bleuviz.io.esa_jsonl``, flat or unified): a ``.jsonl``;
* Appraise's raw ESA export (``bleuviz.io.appraise_csv``): a ``.csv``, or any file
  whose first line is such a row;
* COMET's ``--to_json`` output with xCOMET's ``error_spans`` (``bleuviz.io.xcomet_spans``):
  a ``.json``.

Attached to a test set, a file adds its :class:`ErrorAnnotations` and one
segment score, so that everything an imported ``.seg.score`` works with (the
Overview, Compare's significance and buckets, ``correlate --human``) works with
it: people's MQM annotations give their MQM score (``bleuviz.io.mqm_score``,
named like the annotations, ``MQM`` for a TSV); a file giving its own segment
score (ESA's ``esa_score``, xCOMET's score) gives that one.

``attach_score_files`` takes segment-score and error-span files alike (the
app's score uploader), and ``rescore`` weighs a saved set's MQM spans anew.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace

from bleuviz.errors import InputError
from bleuviz.io.decode import DEFAULT_MAX_BYTES, NamedBytes, file_extension
from bleuviz.io.error_spans import HUMAN, ErrorAnnotations
from bleuviz.io.esa_records import ESA
from bleuviz.io.mqm_score import DEFAULT_WEIGHTS, MqmWeights, mqm_scores
from bleuviz.io.scores import SegmentScores, build_scores
from bleuviz.io.seg_scores import (
    SEG_SCORE_SUFFIX,
    ScoresNameTaken,
    attach_seg_scores,
    file_base_name,
)
from bleuviz.io.testset import TestSet

#: mt-metrics-eval's suffix of a segment-level rating file.
SEG_RATING_SUFFIX = ".seg.rating"
#: The layouts, as a refusal lists them.
LAYOUTS = (
    "Google's MQM TSV (.tsv)",
    f"mt-metrics-eval NAME{SEG_RATING_SUFFIX}",
    "WMT24 ESA JSON lines, flat or unified (.jsonl)",
    "Appraise's ESA export (.csv)",
    "COMET's --to_json output with xCOMET error_spans (.json)",
)


#: How to load an ESA campaign published in waves (WMT24's wave2.csv, wave3.csv).
_ESA_WAVES = "; join the files of one ESA campaign first (cat wave2.csv wave3.csv > waves.csv)"
#: Layouts known by a file's extension (others are recognised by their first line).
_EXTENSIONS = {".tsv": "tsv", ".jsonl": "jsonl", ".json": "json", ".csv": "csv"}


class SpansNameTaken(ScoresNameTaken):
    """A file's spans (or their score) are named like ones already loaded, with others.

    A ``ScoresNameTaken`` (the app asks whether to replace), whose message does not
    advise renaming the file: an MQM TSV, ESA or xCOMET file's name is its layout's.
    """

    def __init__(self, name: str, origin: str, loaded_from: str) -> None:
        super().__init__(name, origin, loaded_from)
        self.args = (
            f"{origin}: error spans or scores named {name!r} are already loaded from "
            f"{file_base_name(loaded_from)}, with other values; one file of each name "
            f"per test set (a {SEG_RATING_SUFFIX} file is named after its file)"
            + (_ESA_WAVES if name == ESA else ""),
        )


def read_error_spans(
    f: NamedBytes, testset: TestSet, max_bytes: int = DEFAULT_MAX_BYTES
) -> ErrorAnnotations:
    """Recognise the layout of ``f`` by its name (else its first bytes) and read it.

    Raises:
        InputError: the layout is none of the five, or the reader refuses the file.
    """
    base = file_base_name(f.name)
    if base.endswith(SEG_RATING_SUFFIX) and len(base) > len(SEG_RATING_SUFFIX):
        from bleuviz.io.mqm_ratings import read_mqm_ratings

        return read_mqm_ratings(f, testset, max_bytes)
    layout = _EXTENSIONS.get(file_extension(base)) or _sniff(f.data)
    if layout == "tsv":
        from bleuviz.io.mqm_tsv import read_mqm_tsv

        return read_mqm_tsv(f, testset, max_bytes)
    if layout == "jsonl":
        from bleuviz.io.esa_jsonl import read_esa_jsonl

        return read_esa_jsonl(f, testset, max_bytes)
    if layout == "csv":
        from bleuviz.io.appraise_csv import read_appraise_csv

        return read_appraise_csv(f, testset, max_bytes)
    if layout == "json":
        from bleuviz.io.xcomet_spans import read_xcomet_spans

        return read_xcomet_spans(f, testset, max_bytes)
    hint = "; segment scores go to --seg-scores" if base.endswith(SEG_SCORE_SUFFIX) else ""
    raise InputError(f"{f.name}: not an error-span file; bleuviz reads {'; '.join(LAYOUTS)}{hint}")


def is_error_span_file(f: NamedBytes) -> bool:
    """Return whether ``f`` is an error-span file rather than a segment-score file.

    For the places that take both kinds (the app's score uploader): a
    ``.seg.score`` file and COMET's JSON without spans are scores; a JSON
    whose records hold ``"errors"`` or ``"error_spans"`` is xCOMET's.
    """
    base = file_base_name(f.name)
    if base.endswith(SEG_SCORE_SUFFIX):
        return False
    if base.endswith(SEG_RATING_SUFFIX):
        return True
    layout = _EXTENSIONS.get(file_extension(base)) or _sniff(f.data)
    if layout == "json":
        return b'"errors"' in f.data or b'"error_spans"' in f.data
    return layout is not None


def attach_score_files(
    testset: TestSet,
    files: Sequence[NamedBytes],
    max_bytes: int = DEFAULT_MAX_BYTES,
    replace_names: Collection[str] = (),
    weights: MqmWeights = DEFAULT_WEIGHTS,
) -> TestSet:
    """Attach segment-score and error-span files alike, each by its layout, in order.

    Raises:
        InputError: a file is refused.
        ScoresNameTaken: a name is taken by other values.
        ConfigError: an MQM severity has no weight.
    """
    for f in files:
        if is_error_span_file(f):
            testset = attach_error_spans(testset, [f], max_bytes, weights, replace_names)
        else:
            testset = attach_seg_scores(testset, [f], max_bytes, replace_names)
    return testset


def _sniff(data: bytes) -> str | None:
    """Guess a layout from the first line: an MQM header, JSON lines, JSON, or Appraise's CSV."""
    head = data[:65536].removeprefix(b"\xef\xbb\xbf")
    first = head.split(b"\n", 1)[0].strip().lower()
    if first.startswith(b"system\t") and b"\ttarget\t" in first:
        return "tsv"
    from bleuviz.io.appraise_csv import is_appraise_row

    if is_appraise_row(first.decode("utf-8", errors="replace")):
        return "csv"
    if first.startswith(b"{") and first.endswith(b"}") and b"\n" in head.strip():
        return "jsonl"
    if first.startswith((b"{", b"[")):
        return "json"
    return None


def annotation_scores(
    annotations: ErrorAnnotations, testset: TestSet, weights: MqmWeights = DEFAULT_WEIGHTS
) -> SegmentScores | None:
    """Return the segment score a file of error spans gives, named like its annotations.

    The file's own segment scores where it gives them (ESA, xCOMET); else, for
    people's annotations, the MQM score under ``weights``; else None.

    Raises:
        ConfigError: an MQM severity has no weight.
    """
    given = _given_scores(annotations)
    if given is None and annotations.kind == HUMAN:
        given = mqm_scores(annotations, weights)
    if given is None:
        return None
    scores = build_scores(
        annotations.origin, annotations.name, given, testset.system_names, testset.n_segments
    )
    return replace(scores, skipped=annotations.skipped)  # named where scores' skips are


def _given_scores(annotations: ErrorAnnotations) -> Mapping[str, list[float]] | None:
    """Each system's file-given segment scores (NaN where none), or None if it gives none."""
    columns = {
        system: [math.nan if a is None or a.score is None else a.score for a in segments]
        for system, segments in annotations.segments.items()
    }
    given = any(not math.isnan(v) for column in columns.values() for v in column)
    return columns if given else None


def attach_error_spans(
    testset: TestSet,
    files: Sequence[NamedBytes],
    max_bytes: int = DEFAULT_MAX_BYTES,
    weights: MqmWeights = DEFAULT_WEIGHTS,
    replace_names: Collection[str] = (),
) -> TestSet:
    """Return ``testset`` with each file's error spans and their segment score added.

    A file whose annotations equal those already loaded under its name (the same
    file twice, or uploaded again) adds nothing; one with other annotations under
    a taken name replaces them (and their score) when the name is in
    ``replace_names``, and is refused otherwise.

    Raises:
        InputError: a file is refused (see ``read_error_spans``).
        SpansNameTaken: a name is taken by other annotations or scores.
        ConfigError: an MQM severity has no weight.
    """
    for f in files:
        annotations = read_error_spans(f, testset, max_bytes)
        taken = next((a for a in testset.error_spans if a.name == annotations.name), None)
        if taken is not None and same_annotations(taken, annotations):
            continue
        if taken is not None and annotations.name not in replace_names:
            raise SpansNameTaken(annotations.name, f.name, taken.origin)
        scores = annotation_scores(annotations, testset, weights)
        old = None if scores is None else _named(testset.seg_scores, scores.name)
        if (
            old is not None
            and scores is not None
            and taken is None
            and not old.same_values(scores)
            and scores.name not in replace_names
        ):
            raise SpansNameTaken(scores.name, f.name, old.origin)
        spans = tuple(a for a in testset.error_spans if a is not taken)
        kept = tuple(s for s in testset.seg_scores if s is not old)
        added = () if scores is None else (scores,)
        testset = replace(testset, error_spans=(*spans, annotations), seg_scores=(*kept, *added))
    return testset


def _named(scores: Sequence[SegmentScores], name: str) -> SegmentScores | None:
    """Return the scores named ``name``, or None."""
    return next((s for s in scores if s.name == name), None)


def rescore(testset: TestSet, weights: MqmWeights) -> TestSet:
    """Return ``testset`` with the MQM scores of its people's spans weighed anew.

    For a test set saved with its spans (``--set ID --mqm-weights ...``): each
    human annotation that gives no score of its own gets its score recomputed
    under ``weights``, in place of the one it was saved with.

    Raises:
        ConfigError: an MQM severity has no weight.
    """
    scores = list(testset.seg_scores)
    for spans_file in testset.error_spans:
        if spans_file.kind != HUMAN or _given_scores(spans_file) is not None:
            continue
        new = annotation_scores(spans_file, testset, weights)
        old = _named(scores, spans_file.name)
        if new is not None and old is not None:
            scores[scores.index(old)] = replace(new, lower_is_better=old.lower_is_better)
    return replace(testset, seg_scores=tuple(scores))


def same_annotations(a: ErrorAnnotations, b: ErrorAnnotations) -> bool:
    """Return whether ``a`` and ``b`` hold the same spans and raters for the same systems."""
    return a.name == b.name and a.kind == b.kind and dict(a.segments) == dict(b.segments)
