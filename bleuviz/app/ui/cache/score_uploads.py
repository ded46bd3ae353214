"""Score files beside the loaded scores: uploads that would replace some, systems skipped.

Segment-score files and error-span files (MQM, ESA, xCOMET: their spans and
score) are taken alike, each read by its layout.

An upload naming its scores like scores already loaded, with other values, is
held back until the user chooses (``bleuviz.app.ui.frame.imported``); a file
scoring systems the test set does not hold (WMT's human references) is read for
the systems there, and the sidebar names the others.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from bleuviz.app.ui.state.app_args import app_args
from bleuviz.errors import BleuvizError
from bleuviz.io.content_id import LoadedTestSet
from bleuviz.io.decode import NamedBytes, read_path
from bleuviz.io.error_span_files import attach_score_files, is_error_span_file, read_error_spans
from bleuviz.io.mqm_score import parse_weights
from bleuviz.io.seg_scores import ScoresNameTaken, read_seg_scores
from bleuviz.io.testset import TestSet


@dataclass(frozen=True, slots=True)
class ScoreConflict:
    """An upload naming its scores like scores already loaded, with other values.

    Attributes:
        index: the upload's position among the uploads.
        name: the metric's name.
        loaded_from: the file the loaded scores come from.
    """

    index: int
    name: str
    loaded_from: str


def score_conflicts(
    base: LoadedTestSet, files: tuple[tuple[NamedBytes, str], ...]
) -> tuple[ScoreConflict, ...]:
    """Return the uploads that would replace loaded scores (cached on the set and the files)."""
    weights = app_args().mqm_weights  # as the uploads are attached (cache.loading)
    key = (base.content_id, tuple(file_id for _, file_id in files), weights)
    return _conflicts(key, base, tuple(f for f, _ in files), weights)


@st.cache_resource(max_entries=8, show_spinner="Reading segment scores…")
def _conflicts(
    key: tuple[object, ...], _base: LoadedTestSet, _files: tuple[NamedBytes, ...], weights: str
) -> tuple[ScoreConflict, ...]:
    """Attach the uploads one by one to find the conflicts; other refusals are the page's."""
    testset, found = _base.testset, []
    mqm = parse_weights(weights)
    for index, f in enumerate(_files):
        try:
            testset = attach_score_files(testset, [f], weights=mqm)
        except ScoresNameTaken as exc:
            found.append(ScoreConflict(index, exc.name, exc.loaded_from))
        except BleuvizError:  # shown on the page when the uploads are attached
            continue
    return tuple(found)


@st.cache_resource(max_entries=8, show_spinner=False)
def skipped_in_files(
    content_id: str, paths: tuple[str, ...], _testset: TestSet
) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """Each command-line score file's metric, file and the systems it skips.

    The command line's files are saved with the test set, which keeps the scores
    of the systems it holds only; the file is read again (once per server and test
    set) to say which systems it also scores.
    """
    found = []
    for path in paths:
        try:
            f = read_path(path)
            read = read_error_spans if is_error_span_file(f) else read_seg_scores
            scores = read(f, _testset)
        except BleuvizError:  # refused when it was loaded; nothing to add
            continue
        if scores.skipped:
            found.append((scores.name, path, scores.skipped))
    return tuple(found)
