"""Score files beside the loaded scores: uploads that would replace some, systems skipped.

Segment-score files and error-span files (MQM, ESA, xCOMET: their spans and
score) are taken alike, each read by its layout.

An upload naming its scores like scores already loaded, with other values, is
held back until the user chooses (``bleuviz.app.ui.frame.imported``); one that
cannot be read against the test set (Google's MQM TSV before the document ids)
is refused in the sidebar, and the page stays; one that adds nothing is said to
be loaded already. A file scoring systems the test set does not hold (WMT's
human references) is read for the systems there, and the sidebar names the others.
"""

from __future__ import annotations

from dataclasses import dataclass

from bleuviz.app.ui.cache.keys import cached_resource
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


@dataclass(frozen=True, slots=True)
class UploadCheck:
    """What each uploaded score file would do to the loaded test set.

    Attributes:
        conflicts: uploads naming their scores like loaded ones, with other values.
        refused: each upload that cannot be read against the test set (a span file
            that cannot be mapped yet, a malformed file), by position, with the reason.
        unchanged: the positions of uploads that add nothing (already loaded).
    """

    conflicts: tuple[ScoreConflict, ...] = ()
    refused: tuple[tuple[int, str], ...] = ()
    unchanged: tuple[int, ...] = ()


def check_uploads(base: LoadedTestSet, files: tuple[tuple[NamedBytes, str], ...]) -> UploadCheck:
    """Return what the uploads would do to ``base`` (cached on the set and the files)."""
    weights = app_args().mqm_weights  # as the uploads are attached (cache.loading)
    key = (base.content_id, tuple(file_id for _, file_id in files), weights)
    return _check(key, base, tuple(f for f, _ in files), weights)


@cached_resource(max_entries=8, show_spinner="Reading segment scores…")
def _check(
    key: tuple[object, ...], _base: LoadedTestSet, _files: tuple[NamedBytes, ...], weights: str
) -> UploadCheck:
    """Attach the uploads one by one: a conflict, a refusal or nothing added is noted."""
    testset, mqm = _base.testset, parse_weights(weights)
    conflicts, refused, unchanged = [], [], []
    for index, f in enumerate(_files):
        try:
            attached = attach_score_files(testset, [f], weights=mqm)
        except ScoresNameTaken as exc:
            conflicts.append(ScoreConflict(index, exc.name, exc.loaded_from))
            continue
        except BleuvizError as exc:  # refused in the sidebar; the page stays (issue 44 item 7)
            refused.append((index, str(exc)))
            continue
        if attached is testset:  # the attach functions return the very set when nothing changes
            unchanged.append(index)
        testset = attached
    return UploadCheck(tuple(conflicts), tuple(refused), tuple(unchanged))


@cached_resource(max_entries=8, show_spinner=False)
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
