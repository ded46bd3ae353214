"""The UI boundary: the loaded test set, its statistics and metric scores, cached.

Heavy, immutable results (test sets, statistics) are cached with
``st.cache_resource``. A loader is keyed on the files' identity (paths, sizes
and times, or upload ids) and returns the test set with its content id
(``bleuviz.io.content_id``), hashed once there; everything computed from a test
set is keyed on that id and the settings it depends on, so a change of flavour,
smoothing or weights rescoring never re-tokenizes. Nothing cached is ever
mutated: the core's dataclasses are frozen.

Cached functions, and whatever runs on a worker thread (``with_progress``),
take every setting they read as an argument: off the script thread Streamlit's
session state reads as empty. Only the functions documented as reading the
sidebar's settings read it, on the script thread.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict

import pandas as pd
import streamlit as st

from bleuviz.analysis.segments import segment_table
from bleuviz.app.ui.cache.background import LatestReport, with_progress
from bleuviz.app.ui.cache.workspace import SAVED, SAVED_SET_KEY, load_saved
from bleuviz.app.ui.state.settings import bleu_config_from_state
from bleuviz.bleu import BleuConfig, sentence_scores
from bleuviz.bleu.columnar import COLUMNAR_TOKENIZERS
from bleuviz.bleu.corpus import CorpusStats, compute_corpus_stats
from bleuviz.bleu.result import BleuArrays
from bleuviz.bleu.tokenize import TokenizeConfig, default_workers
from bleuviz.errors import BleuvizError
from bleuviz.io.content_id import LoadedTestSet
from bleuviz.io.decode import NamedBytes, read_path
from bleuviz.io.load import load_files, load_paths
from bleuviz.io.seg_scores import attach_seg_scores, set_directions
from bleuviz.io.testset import TestSet
from bleuviz.metrics import EXTRA_METRICS, MetricOptions, MetricScores, MetricSpec, Settings
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.metrics.registry import imported_specs
from bleuviz.progress import Progress
from bleuviz.sample_data import SAMPLE_DOCIDS, SAMPLE_HYPS, SAMPLE_REFS, SAMPLE_SOURCE


class UploadPending(BleuvizError):
    """Upload is the data source but no file is chosen yet: a hint, not an error."""


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


@st.cache_resource(max_entries=6, show_spinner="Reading files…")
def read_testset(key: tuple[object, ...], _paths: PathSet) -> LoadedTestSet:
    """Read a test set from disk (cached on paths, sizes and modification times)."""
    testset = load_paths(_paths.hyp, _paths.ref, _paths.src or None, _paths.docids or None)
    return LoadedTestSet.of(testset)


@st.cache_resource(max_entries=6, show_spinner="Reading uploads…")
def load_uploads(
    key: tuple[object, ...],
    _hyp: tuple[NamedBytes, ...],
    _ref: tuple[NamedBytes, ...],
    _src: NamedBytes | None,
    _docids: NamedBytes | None,
) -> LoadedTestSet:
    """Read an uploaded test set (cached on the uploads' file ids)."""
    return LoadedTestSet.of(load_files(list(_hyp), list(_ref), _src, _docids))


def counting_threads(tokenize: TokenizeConfig) -> int:
    """Threads for the columnar tokenizers; the others stay in this process (the
    command line forks tokenizer processes, which a threaded server must not)."""
    return default_workers() if tokenize.name in COLUMNAR_TOKENIZERS else 1


def stats_settings() -> tuple[TokenizeConfig, int]:
    """The tokenization and the n-gram order the session's settings count with.

    Raises:
        BleuvizError: a setting is invalid (the page shows it).
    """
    state = st.session_state
    tokenize = TokenizeConfig(state["tokenize"], state["lowercase"])
    return tokenize, bleu_config_from_state().stats_order


#: Statistics counted ahead of their page (``start_corpus_stats``), at most one test set's:
#: (content id of the test set, tokenization, order) -> (its statistics to come, and the
#: last report of their progress).
_EARLY: dict[tuple[str, TokenizeConfig, int], tuple[Future[CorpusStats], LatestReport]] = {}
_EARLY_POOL = ThreadPoolExecutor(1, thread_name_prefix="bleuviz-early-stats")


def start_corpus_stats(loaded: LoadedTestSet, tokenize: TokenizeConfig, order: int) -> None:
    """Start counting the test set's n-grams on a background thread; ``corpus_stats`` takes them.

    The command line's files are counted while they are saved in the workspace and
    the sidebar is drawn, work that leaves a core idle, instead of after it.
    """
    _EARLY.clear()  # one test set's at most: statistics nobody took are let go
    report = LatestReport()
    work = _EARLY_POOL.submit(
        compute_corpus_stats,
        loaded.testset,
        tokenize,
        order,
        counting_threads(tokenize),
        progress=report,
    )
    _EARLY[(loaded.content_id, tokenize, order)] = (work, report)


def corpus_stats(loaded: LoadedTestSet, tokenize: TokenizeConfig, order: int) -> CorpusStats:
    """The test set's statistics, with a progress bar while they are counted (seconds at 100k)."""
    content_id, testset = loaded.content_id, loaded.testset
    return with_progress(
        "Counting n-grams",
        lambda report: _corpus_stats(content_id, testset, tokenize, order, _progress=report),
    )


@st.cache_resource(max_entries=8, show_spinner=False)
def _corpus_stats(
    content_id: str,
    _testset: TestSet,
    tokenize: TokenizeConfig,
    order: int,
    _progress: Progress | None = None,
) -> CorpusStats:
    """Tokenize and count the test set once per (content id, tokenizer, lowercase, order)."""
    early = _EARLY.pop((content_id, tokenize, order), None)
    if early is not None:  # the same content: its statistics are these
        work, report = early
        if _progress is not None:
            report.follow(_progress)
        return work.result()
    workers = counting_threads(tokenize)
    return compute_corpus_stats(_testset, tokenize, order, workers, progress=_progress)


@st.cache_resource(max_entries=6, show_spinner=False)
def _bundle(content_id: str, _testset: TestSet) -> Evaluation:
    """One evaluation bundle per loaded test set, shared by every session: what it computes
    (any metric, any settings) is kept for all."""
    return Evaluation(_testset)


def loaded_evaluation(content_id: str, counted: CorpusStats, settings: Settings) -> Evaluation:
    """The bundle of the test set ``content_id`` names, under ``settings``.

    ``counted``: BLEU's statistics, already counted (with a progress bar) under
    ``settings.tokenize``. Reads no setting: cached work and worker threads may
    call it.
    """
    bundle = _bundle(content_id, counted.testset)
    bundle.seed_statistics(counted)
    return bundle.with_settings(settings)


def session_settings() -> Settings:
    """The sidebar's settings, for every metric: BLEU's, chrF's lowercase, ROUGE's stemmer.

    Reads the session's settings: call it on the script thread and pass the
    value (or a metric's part of it, ``MetricSpec.reads``) to cached work.
    """
    state = st.session_state
    tokenize, _ = stats_settings()
    options = MetricOptions(bool(state.get("lowercase")), bool(state.get("rouge_stemmer")))
    return Settings(bleu=bleu_config_from_state(), tokenize=tokenize, options=options)


def system_scores(
    evaluation: Evaluation, system: str, label: str, settings: Settings
) -> MetricScores:
    """``label``'s scores of ``system`` under ``settings``, from the loaded bundle.

    Reads no setting. A computed metric still to score shows a spinner, so call
    it on the script thread; an imported metric's scores are read from the test set.
    """
    bundle = evaluation.with_settings(settings)
    if label in EXTRA_METRICS and not bundle.has_scores(label, system):
        with st.spinner("Scoring with another metric…"):
            return bundle.scores(label, [system])[system]
    return bundle.scores(label, [system])[system]


def every_system_scores(
    evaluation: Evaluation, label: str, systems: Sequence[str]
) -> dict[str, MetricScores]:
    """``label``'s scores of every system in ``systems``, with a progress bar while computing.

    Systems are scored one at a time at this boundary, so the bar names the one
    under way ("TER: system 3 of 9") and a rerun (another page, another setting)
    can stop the loop between systems; systems already scored come from the
    bundle, and when all are, no bar is drawn.
    """
    computed = label in EXTRA_METRICS  # BLEU's come from counted statistics, imported are read
    todo = [n for n in systems if computed and not evaluation.has_scores(label, n)]
    bar = st.empty()  # on every run: a bar on one run only would shift what follows
    if todo:
        bar.progress(0.0, text=f"{label}: scoring {len(todo)} systems")
    scores: dict[str, MetricScores] = {}
    for name in systems:
        if name in todo:
            done = todo.index(name)
            bar.progress(done / len(todo), text=f"{label}: system {done + 1} of {len(todo)}")
        scores[name] = evaluation.scores(label, [name])[name]
    if todo:
        bar.empty()
    return scores


def score_every_system(evaluation: Evaluation, labels: Iterable[str]) -> None:
    """Compute each computed metric in ``labels`` for every system, with the progress bar.

    Pages call this before their sections, which then read the scores from the
    bundle: a section that needs every system (one segment in every system, the
    significance table) would otherwise compute them one by one with no sign of
    progress. Imported scores are read, not computed, and are skipped.
    """
    for label in dict.fromkeys(labels):
        if label in EXTRA_METRICS:
            every_system_scores(evaluation, label, list(evaluation.testset.systems))


def sentence_bleu(evaluation: Evaluation, system: str, config: BleuConfig) -> BleuArrays:
    """Every segment's sentence BLEU of ``system``, computed once per data and settings.

    Shared by every session and page (Overview's boxes, mean and outliers; the
    segment tables), so a rerun that changes no setting recomputes nothing.
    Reads which test set is loaded; cached work calls ``keyed_sentence_bleu``.
    """
    return keyed_sentence_bleu(_current_testset().content_id, evaluation, system, config)


def keyed_sentence_bleu(
    content_id: str, evaluation: Evaluation, system: str, config: BleuConfig
) -> BleuArrays:
    """``sentence_bleu`` of the corpus counted from the test set ``content_id`` names."""
    return _sentence_bleu(content_id, evaluation.settings.tokenize, system, config, evaluation)


@st.cache_resource(max_entries=256, show_spinner=False)
def _sentence_bleu(
    content_id: str,
    tokenize: TokenizeConfig,
    system: str,
    config: BleuConfig,
    _evaluation: Evaluation,
) -> BleuArrays:
    """The cached sentence scores (keyed on the data, tokenization, system and settings)."""
    return sentence_scores(_evaluation.bleu_statistics().systems[system], config)


def segment_frame(evaluation: Evaluation, system: str, config: BleuConfig) -> pd.DataFrame:
    """The Sentences table of ``system`` (cached and shared: copy it before changing it)."""
    content_id = _current_testset().content_id
    return _segment_frame(content_id, evaluation.settings.tokenize, system, config, evaluation)


@st.cache_resource(max_entries=64, show_spinner=False)
def _segment_frame(
    content_id: str,
    tokenize: TokenizeConfig,
    system: str,
    config: BleuConfig,
    _evaluation: Evaluation,
) -> pd.DataFrame:
    """The cached table (keyed on the data, tokenization, system and settings)."""
    return segment_table(_evaluation.bleu_statistics(), system, config)


def metric_spec(evaluation: Evaluation, label: str) -> MetricSpec:
    """Return the metric ``label``: computed (BLEU, chrF, ROUGE ...) or imported."""
    return evaluation.metric(label)


def metric_scores(evaluation: Evaluation, system: str, label: str) -> MetricScores:
    """Return ``label``'s scores of ``system`` under the bundle's settings (the sidebar's).

    Only the settings a metric reads key what the bundle holds: chrF reads the
    lowercase switch, ROUGE the stemmer, TER neither. An imported metric's
    scores are read, not computed: they come from the test set.
    """
    return system_scores(evaluation, system, label, evaluation.settings)


@dataclass(frozen=True, slots=True)
class DataKey:
    """The loaded corpus in cache keys: the content it was read from and counted with.

    Attributes:
        loaded: the content id of the test set as its loader read it (the key of
            metric scores, which read its systems and references).
        scored: the content id with the imported segment-score files attached
            (``loaded`` when there are none).
        tokenize: the tokenization the statistics were counted with.
        order: the n-gram order they were counted to.
        directions: each imported metric's name and whether lower is better,
            after the sidebar's switches.
    """

    loaded: str
    scored: str
    tokenize: TokenizeConfig
    order: int
    directions: tuple[tuple[str, bool], ...] = ()


def current_corpus() -> tuple[Evaluation, BleuConfig]:
    """Return the loaded evaluation and BLEU's settings; on a core error, show it and stop."""
    evaluation, _ = current_data()
    return evaluation, evaluation.settings.bleu


def current_data() -> tuple[Evaluation, DataKey]:
    """The loaded test set under the sidebar's settings, and the key of its data.

    The bundle holds the test set with its imported scores (directions as the
    sidebar sets them) and BLEU's statistics, counted here with a progress bar;
    every metric's scores come from it on demand.
    """
    try:
        loaded = _current_testset()
        tokenize, order = stats_settings()
        settings = session_settings()
        counted = corpus_stats(loaded, tokenize, order)
        scored = scored_testset()
        directions: tuple[tuple[str, bool], ...] = ()
        testset = loaded.testset
        if scored.testset.seg_scores:
            directions = imported_directions(scored.testset)
            testset = with_directions(scored.content_id, directions, scored.testset)
    except UploadPending as exc:  # not an error: nothing is chosen yet
        st.info(str(exc).removeprefix("upload: ").capitalize() + ".", icon=":material/upload:")
        st.stop()
    except BleuvizError as exc:
        st.error(str(exc), icon=":material/error:")
        st.stop()
    bundle = loaded_evaluation(loaded.content_id, counted, settings).with_testset(testset)
    return bundle, DataKey(loaded.content_id, scored.content_id, tokenize, order, directions)


#: Session-state key of an imported metric's "lower is better" switch.
LOWER_KEY = "imported_lower::"


def scored_testset() -> LoadedTestSet:
    """The test set with the segment scores of the command line and the sidebar's uploads.

    Directions are the defaults (MetricX names and ``--lower-is-better`` names:
    lower is better); the sidebar's switches override them (``imported_directions``).
    """
    loaded = _current_testset()
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
    scores_key = (loaded.content_id, *stamps, lower)
    return attached_scores(scores_key, loaded.testset, tuple(files), lower)


@st.cache_resource(max_entries=8, show_spinner="Reading segment scores…")
def attached_scores(
    key: tuple[object, ...],
    _testset: TestSet,
    _files: tuple[NamedBytes, ...],
    lower: tuple[str, ...],
) -> LoadedTestSet:
    """Read segment-score files into the test set (cached on the test set and the files)."""
    scored = set_directions(attach_seg_scores(_testset, _files), lower)
    imported_specs(scored)  # refuses a name bleuviz computes itself
    return LoadedTestSet.of(scored)


def imported_directions(testset: TestSet) -> tuple[tuple[str, bool], ...]:
    """Each imported metric's name and whether lower is better, after the sidebar's switches."""
    state = st.session_state
    return tuple(
        (s.name, bool(state.get(LOWER_KEY + s.name, s.lower_is_better))) for s in testset.seg_scores
    )


@st.cache_resource(max_entries=8, show_spinner=False)
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
        if uploads is None:
            raise UploadPending("upload: choose hypothesis and reference files in the sidebar")
        key = ("upload", *uploads["key"])
        return load_uploads(key, uploads["hyp"], uploads["ref"], uploads["src"], uploads["docids"])
    paths: PathSet = st.session_state["cli_paths"] if source == "cli" else sample_paths()
    return read_testset(("paths", *paths.key()), paths)
