"""The loaded test set: files, uploads or a saved set, read once, with their imported scores.

A loader is keyed on the files' identity (paths, sizes and times, or upload
ids) and returns the test set with its content id (``bleuviz.io.content_id``),
hashed once there; everything computed from a test set is keyed on that id.
Only ``current_testset`` and ``scored_testset`` read the sidebar's choices.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict

import streamlit as st

from bleuviz.app.ui.cache.keys import cached_resource
from bleuviz.app.ui.cache.workspace import SAVED, SAVED_SET_KEY, load_saved
from bleuviz.app.ui.state.app_args import app_args
from bleuviz.app.ui.state.settings import LOWER_KEY
from bleuviz.errors import BleuvizError
from bleuviz.io.content_id import LoadedTestSet
from bleuviz.io.decode import NamedBytes, file_extension, read_path
from bleuviz.io.error_span_files import attach_score_files
from bleuviz.io.load import load_files, load_paths
from bleuviz.io.mqm_score import DEFAULT_WEIGHTS_SPEC, parse_weights
from bleuviz.io.seg_scores import set_directions
from bleuviz.io.testset import TestSet
from bleuviz.metrics.registry import imported_specs
from bleuviz.sample_data import SAMPLE_DOCIDS, SAMPLE_HYPS, SAMPLE_REFS, SAMPLE_SOURCE


class UploadPending(BleuvizError):
    """Upload is the data source but no file is chosen yet: a hint, not an error."""


#: Extensions of the files that hold a whole test set, references included (``bleuviz.io.load``).
WHOLE_SET_EXTENSIONS = (".tsv", ".csv", ".jsonl", ".json", ".xml", ".sgm", ".sgml")


def upload_pending(uploads: dict[str, Any] | None) -> str | None:
    """What an upload still lacks before it can be read (a hint, not an error), or None.

    Files can come in any order: hypotheses first, references first, the source
    at any time. Hypotheses without references wait for them, unless a file holds
    a whole test set (a table or WMT XML).
    """
    if uploads is None:
        return "upload: choose hypothesis and reference files in the sidebar"
    if not uploads["hyp"]:
        return "upload: no hypotheses yet: add one file per system in the sidebar"
    whole = any(file_extension(f.name) in WHOLE_SET_EXTENSIONS for f in uploads["hyp"])
    if not uploads["ref"] and not whole:
        n = len(uploads["hyp"])
        files = f"{n} hypothesis file" + ("s" if n != 1 else "")
        return f"upload: {files} given, no reference yet: add one file per reference"
    return None


class SampleFiles(TypedDict):
    """The bundled sample's files."""

    hyp: list[Path]
    ref: list[Path]
    src: Path
    docids: Path


SAMPLE_FILES: SampleFiles = {
    "hyp": list(SAMPLE_HYPS),
    "ref": list(SAMPLE_REFS),
    "src": SAMPLE_SOURCE,
    "docids": SAMPLE_DOCIDS,
}


@dataclass(frozen=True, slots=True)
class PathSet:
    """Files on disk that make up a test set."""

    hyp: tuple[str, ...]
    ref: tuple[str, ...]
    src: str | None = None
    docids: str | None = None

    def key(self) -> tuple[object, ...]:
        """Identity for caching: paths with their sizes and modification times."""
        paths = [*self.hyp, *self.ref, self.src, self.docids]
        return tuple((p, _stamp(p)) for p in paths if p)


def _stamp(path: str) -> tuple[int, int]:
    """Return (size, mtime) of ``path``, or (-1, -1) if it is missing (read_path reports it)."""
    try:
        info = os.stat(path)
    except OSError:
        return (-1, -1)
    return (info.st_size, info.st_mtime_ns)


def sample_paths() -> PathSet:
    """The bundled sample."""
    return PathSet(
        tuple(map(str, SAMPLE_FILES["hyp"])),
        tuple(map(str, SAMPLE_FILES["ref"])),
        str(SAMPLE_FILES["src"]),
        str(SAMPLE_FILES["docids"]),
    )


@cached_resource(max_entries=6, show_spinner="Reading files…")
def read_testset(key: tuple[object, ...], _paths: PathSet) -> LoadedTestSet:
    """Read a test set from disk (cached on paths, sizes and modification times)."""
    testset = load_paths(_paths.hyp, _paths.ref, _paths.src or None, _paths.docids or None)
    return LoadedTestSet.of(testset)


@cached_resource(max_entries=6, show_spinner="Reading uploads…")
def load_uploads(
    key: tuple[object, ...],
    _hyp: tuple[NamedBytes, ...],
    _ref: tuple[NamedBytes, ...],
    _src: NamedBytes | None,
    _docids: NamedBytes | None,
) -> LoadedTestSet:
    """Read an uploaded test set (cached on the uploads' file ids)."""
    return LoadedTestSet.of(load_files(list(_hyp), list(_ref), _src, _docids))


def uploaded_testset(uploads: Mapping[str, Any]) -> LoadedTestSet:
    """The test set of the sidebar's uploads (``upload_widgets``' record of them)."""
    key = ("upload", *uploads["key"])
    return load_uploads(key, uploads["hyp"], uploads["ref"], uploads["src"], uploads["docids"])


def scored_testset() -> LoadedTestSet:
    """The test set with the segment scores of the command line and the sidebar's uploads.

    Directions are the defaults (MetricX names and ``--lower-is-better`` names:
    lower is better); the sidebar's switches override them (``imported_directions``).
    """
    loaded = current_testset()
    state = st.session_state
    files: list[NamedBytes] = []
    stamps: list[object] = []
    lower: tuple[str, ...] = ()
    if state.get("data_source") == "cli" and state.get("cli_seg_scores"):
        files += [read_path(path) for path in state["cli_seg_scores"]]
        stamps += [(path, _stamp(path)) for path in state["cli_seg_scores"]]
        lower = tuple(state.get("cli_lower_is_better") or ())
    uploads = state.get("seg_score_uploads") or ()
    files += [f for f, _ in uploads]
    stamps += [file_id for _, file_id in uploads]
    if not files:
        return loaded
    replacing = tuple(state.get("seg_score_replace") or ())  # names the user chose to replace
    weights = app_args().mqm_weights  # --mqm-weights weigh MQM spans, uploaded ones too
    scores_key = (loaded.content_id, *stamps, lower, replacing, weights)
    return attached_scores(scores_key, loaded.testset, tuple(files), lower, replacing, weights)


@cached_resource(max_entries=8, show_spinner="Reading segment scores…")
def attached_scores(
    key: tuple[object, ...],
    _testset: TestSet,
    _files: tuple[NamedBytes, ...],
    lower: tuple[str, ...],
    replacing: tuple[str, ...] = (),
    weights: str = DEFAULT_WEIGHTS_SPEC,
) -> LoadedTestSet:
    """Read segment-score files into the test set (cached on the test set and the files)."""
    mqm = parse_weights(weights)
    scored = attach_score_files(_testset, _files, replace_names=replacing, weights=mqm)
    scored = set_directions(scored, lower)
    imported_specs(scored)  # refuses a name bleuviz computes itself
    return LoadedTestSet.of(scored)


def imported_directions(testset: TestSet) -> tuple[tuple[str, bool], ...]:
    """Each imported metric's name and whether lower is better, after the sidebar's switches."""
    state = st.session_state
    return tuple(
        (s.name, bool(state.get(LOWER_KEY + s.name, s.lower_is_better))) for s in testset.seg_scores
    )


@cached_resource(max_entries=8, show_spinner=False)
def with_directions(
    content_id: str, directions: tuple[tuple[str, bool], ...], _scored: TestSet
) -> TestSet:
    """The test set with its imported scores' directions as the sidebar sets them.

    ``content_id``: the scored test set's. Its text is shared, not copied.
    """
    lower = [name for name, low in directions if low]
    higher = [name for name, low in directions if not low]
    return set_directions(_scored, lower, higher)


def current_testset() -> LoadedTestSet:
    """The loaded test set with its content id (the key of everything computed from it)."""
    return _current_testset()


def _current_testset() -> LoadedTestSet:
    """Load the test set the sidebar's data source points to."""
    source = st.session_state.get("data_source", "sample")
    if source == SAVED:
        return load_saved(str(st.session_state.get(SAVED_SET_KEY)))
    if source == "upload":
        uploads = st.session_state.get("uploads")
        pending = upload_pending(uploads)
        if pending is not None or uploads is None:
            raise UploadPending(str(pending))
        return uploaded_testset(uploads)
    paths: PathSet = st.session_state["cli_paths"] if source == "cli" else sample_paths()
    return read_testset(("paths", *paths.key()), paths)
