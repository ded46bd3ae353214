"""The UI boundary: the loaded test set, its statistics and metric scores, cached.

Heavy, immutable results (test sets, statistics) are cached with
``st.cache_resource`` keyed on the files' identity and the tokenization, so a
change of flavour, smoothing or weights rescoring never re-tokenizes. Nothing
cached is ever mutated: the core's dataclasses are frozen.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TypedDict

import pandas as pd
import streamlit as st

from bleuviz.analysis.segments import segment_table
from bleuviz.app.ui.cache.background import LatestReport, with_progress
from bleuviz.app.ui.cache.workspace import SAVED, SAVED_SET_KEY, load_saved
from bleuviz.app.ui.frame.settings import bleu_config_from_state
from bleuviz.bleu import BleuConfig, sentence_scores
from bleuviz.bleu.columnar import COLUMNAR_TOKENIZERS
from bleuviz.bleu.corpus import CorpusStats, compute_corpus_stats
from bleuviz.bleu.result import BleuArrays
from bleuviz.bleu.tokenize import TokenizeConfig, default_workers
from bleuviz.errors import BleuvizError
from bleuviz.io.decode import NamedBytes, read_path
from bleuviz.io.load import load_files, load_paths
from bleuviz.io.seg_scores import attach_seg_scores, set_directions
from bleuviz.io.testset import TestSet
from bleuviz.metrics import EXTRA_METRICS, MetricScores, MetricSpec, score_metric
from bleuviz.metrics.imported import imported_scores, imported_spec, imported_specs
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
def read_testset(key: tuple[object, ...], _paths: PathSet) -> TestSet:
    """Read a test set from disk (cached on paths, sizes and modification times)."""
    return load_paths(_paths.hyp, _paths.ref, _paths.src or None, _paths.docids or None)


@st.cache_resource(max_entries=6, show_spinner="Reading uploads…")
def load_uploads(
    key: tuple[object, ...],
    _hyp: tuple[NamedBytes, ...],
    _ref: tuple[NamedBytes, ...],
    _src: NamedBytes | None,
    _docids: NamedBytes | None,
) -> TestSet:
    """Read an uploaded test set (cached on the uploads' file ids)."""
    return load_files(list(_hyp), list(_ref), _src, _docids)


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
#: (id of the test set, tokenization, order) -> (the test set, its statistics to come, and
#: the last report of their progress).
_EARLY: dict[
    tuple[int, TokenizeConfig, int], tuple[TestSet, Future[CorpusStats], LatestReport]
] = {}
_EARLY_POOL = ThreadPoolExecutor(1, thread_name_prefix="bleuviz-early-stats")


def start_corpus_stats(testset: TestSet, tokenize: TokenizeConfig, order: int) -> None:
    """Start counting ``testset``'s n-grams on a background thread; ``corpus_stats`` takes them.

    The command line's files are counted while they are saved in the workspace and
    the sidebar is drawn, work that leaves a core idle, instead of after it.
    """
    _EARLY.clear()  # one test set's at most: statistics nobody took are let go
    report = LatestReport()
    work = _EARLY_POOL.submit(
        compute_corpus_stats,
        testset,
        tokenize,
        order,
        counting_threads(tokenize),
        progress=report,
    )
    _EARLY[(id(testset), tokenize, order)] = (testset, work, report)


def corpus_stats(
    key: tuple[object, ...], testset: TestSet, tokenize: TokenizeConfig, order: int
) -> CorpusStats:
    """The test set's statistics, with a progress bar while they are counted (seconds at 100k)."""
    return with_progress(
        "Counting n-grams",
        lambda report: _corpus_stats(key, testset, tokenize, order, _progress=report),
    )


@st.cache_resource(max_entries=8, show_spinner=False)
def _corpus_stats(
    key: tuple[object, ...],
    _testset: TestSet,
    tokenize: TokenizeConfig,
    order: int,
    _progress: Progress | None = None,
) -> CorpusStats:
    """Tokenize and count the test set once per (data, tokenizer, lowercase, order)."""
    early = _EARLY.pop((id(_testset), tokenize, order), None)
    if early is not None and early[0] is _testset:  # the very object, not one at its address
        _, work, report = early
        if _progress is not None:
            report.follow(_progress)
        return work.result()
    workers = counting_threads(tokenize)
    return compute_corpus_stats(_testset, tokenize, order, workers, progress=_progress)


#: Keys of the metric scores this process has computed (``system_metric`` misses): a loop
#: over systems shows a progress bar only while some are still to compute.
_SCORED: set[tuple[object, ...]] = set()


@st.cache_resource(max_entries=64, show_spinner="Scoring with another metric…")
def system_metric(
    key: tuple[object, ...],
    _testset: TestSet,
    system: str,
    label: str,
    lowercase: bool,
    stemmer: bool,
) -> MetricScores:
    """Score one system with one metric beside BLEU, once per (data, system, metric, options)."""
    hyps, refs = _testset.systems[system], _testset.references
    scores = score_metric(label, hyps, refs, lowercase, stemmer)
    _SCORED.add((key, system, label, lowercase, stemmer))
    return scores


def every_system_scores(
    corpus: CorpusStats, label: str, systems: Sequence[str]
) -> dict[str, MetricScores]:
    """``label``'s scores of every system in ``systems``, with a progress bar while computing.

    Systems are scored one at a time at this boundary, so the bar names the one
    under way ("TER: system 3 of 9") and a rerun (another page, another setting)
    can stop the loop between systems; systems already scored come from the
    cache, and when all are, no bar is drawn.
    """
    state = st.session_state
    _, key = _current_testset()
    options = (
        EXTRA_METRICS[label].options(bool(state.get("lowercase")), bool(state.get("rouge_stemmer")))
        if label in EXTRA_METRICS
        else None
    )
    todo = (
        []
        if options is None
        else [
            n for n in systems if (key, n, label, options.lowercase, options.stemmer) not in _SCORED
        ]
    )
    bar = st.empty()  # on every run: a bar on one run only would shift what follows
    if todo:
        bar.progress(0.0, text=f"{label}: scoring {len(todo)} systems")
    scores: dict[str, MetricScores] = {}
    for name in systems:
        if name in todo:
            done = todo.index(name)
            bar.progress(done / len(todo), text=f"{label}: system {done + 1} of {len(todo)}")
        scores[name] = metric_scores(corpus, name, label)
    if todo:
        bar.empty()
    return scores


def score_every_system(corpus: CorpusStats, labels: Iterable[str]) -> None:
    """Compute each computed metric in ``labels`` for every system, with the progress bar.

    Pages call this before their sections, which then read the scores from the
    cache: a section that needs every system (one segment in every system, the
    significance table) would otherwise compute them one by one with no sign of
    progress. Imported scores are read, not computed, and are skipped.
    """
    for label in dict.fromkeys(labels):
        if label in EXTRA_METRICS:
            every_system_scores(corpus, label, list(corpus.systems))


def sentence_bleu(corpus: CorpusStats, system: str, config: BleuConfig) -> BleuArrays:
    """Every segment's sentence BLEU of ``system``, computed once per data and settings.

    Shared by every session and page (Overview's boxes, mean and outliers; the
    segment tables), so a rerun that changes no setting recomputes nothing.
    """
    _, key = _current_testset()
    return _sentence_bleu(key, corpus.tokenize, system, config, corpus)


@st.cache_resource(max_entries=256, show_spinner=False)
def _sentence_bleu(
    key: tuple[object, ...],
    tokenize: TokenizeConfig,
    system: str,
    config: BleuConfig,
    _corpus: CorpusStats,
) -> BleuArrays:
    """The cached sentence scores (keyed on the data, tokenization, system and settings)."""
    return sentence_scores(_corpus.systems[system], config)


def segment_frame(corpus: CorpusStats, system: str, config: BleuConfig) -> pd.DataFrame:
    """The Sentences table of ``system`` (cached and shared: copy it before changing it)."""
    _, key = _current_testset()
    return _segment_frame(key, corpus.tokenize, system, config, corpus)


@st.cache_resource(max_entries=64, show_spinner=False)
def _segment_frame(
    key: tuple[object, ...],
    tokenize: TokenizeConfig,
    system: str,
    config: BleuConfig,
    _corpus: CorpusStats,
) -> pd.DataFrame:
    """The cached table (keyed on the data, tokenization, system and settings)."""
    return segment_table(_corpus, system, config)


def metric_spec(corpus: CorpusStats, label: str) -> MetricSpec:
    """Return the spec of a metric beside BLEU: computed (chrF, ROUGE ...) or imported."""
    if label in EXTRA_METRICS:
        return EXTRA_METRICS[label]
    return imported_spec(corpus.testset.seg_score(label))


def metric_scores(corpus: CorpusStats, system: str, label: str) -> MetricScores:
    """Return ``label``'s scores of ``system`` with the sidebar's options.

    Only the options a metric reads enter its cache key: chrF reads the
    lowercase switch, ROUGE the stemmer, TER neither. An imported metric's
    scores are read, not computed: they come from the test set.
    """
    if label not in EXTRA_METRICS:
        return imported_scores(corpus.testset.seg_score(label), system)
    state = st.session_state
    _, key = _current_testset()
    options = EXTRA_METRICS[label].options(
        bool(state.get("lowercase")), bool(state.get("rouge_stemmer"))
    )
    return system_metric(key, corpus.testset, system, label, options.lowercase, options.stemmer)


def current_corpus() -> tuple[CorpusStats, BleuConfig]:
    """Return the loaded corpus and settings; on a core error, show it and stop the page."""
    try:
        testset, key = _current_testset()
        tokenize, order = stats_settings()
        config = bleu_config_from_state()
        corpus = corpus_stats(key, testset, tokenize, order)
        scored, scores_key = scored_testset()
        if scored.seg_scores:
            directions = imported_directions(scored)
            corpus = with_scores((key, scores_key, tokenize, order), directions, corpus, scored)
    except UploadPending as exc:  # not an error: nothing is chosen yet
        st.info(str(exc).removeprefix("upload: ").capitalize() + ".", icon=":material/upload:")
        st.stop()
    except BleuvizError as exc:
        st.error(str(exc), icon=":material/error:")
        st.stop()
    return corpus, config


#: Session-state key of an imported metric's "lower is better" switch.
LOWER_KEY = "imported_lower::"


def scored_testset() -> tuple[TestSet, tuple[object, ...]]:
    """The test set with the segment scores of the command line and the sidebar's uploads.

    Directions are the defaults (MetricX names and ``--lower-is-better`` names:
    lower is better); the sidebar's switches override them (``imported_directions``).
    """
    testset, key = _current_testset()
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
        return testset, key
    scores_key = (*key, *stamps, lower)
    return attached_scores(scores_key, testset, tuple(files), lower), scores_key


@st.cache_resource(max_entries=8, show_spinner="Reading segment scores…")
def attached_scores(
    key: tuple[object, ...],
    _testset: TestSet,
    _files: tuple[NamedBytes, ...],
    lower: tuple[str, ...],
) -> TestSet:
    """Read segment-score files into the test set (cached on the files and the test set)."""
    scored = set_directions(attach_seg_scores(_testset, _files), lower)
    imported_specs(scored)  # refuses a name bleuviz computes itself
    return scored


def imported_directions(testset: TestSet) -> tuple[tuple[str, bool], ...]:
    """Each imported metric's name and whether lower is better, after the sidebar's switches."""
    state = st.session_state
    return tuple(
        (s.name, bool(state.get(LOWER_KEY + s.name, s.lower_is_better))) for s in testset.seg_scores
    )


@st.cache_resource(max_entries=8, show_spinner=False)
def with_scores(
    key: tuple[object, ...],
    directions: tuple[tuple[str, bool], ...],
    _corpus: CorpusStats,
    _scored: TestSet,
) -> CorpusStats:
    """The corpus statistics with the imported scores beside them, directions applied.

    Statistics are shared (nothing is re-tokenized); one object per key, so the
    Compare page's caches keyed on the corpus keep hitting.
    """
    lower = [name for name, low in directions if low]
    higher = [name for name, low in directions if not low]
    return replace(_corpus, testset=set_directions(_scored, lower, higher))


def current_testset() -> tuple[TestSet, tuple[object, ...]]:
    """The loaded test set and its identity for cache keys (files, sizes, times or upload ids)."""
    return _current_testset()


def _current_testset() -> tuple[TestSet, tuple[object, ...]]:
    """Load the test set the sidebar's data source points to."""
    source = st.session_state.get("data_source", "sample")
    if source == SAVED:
        return load_saved(str(st.session_state.get(SAVED_SET_KEY)))
    if source == "upload":
        uploads = st.session_state.get("uploads")
        if uploads is None:
            raise UploadPending("upload: choose hypothesis and reference files in the sidebar")
        key = ("upload", *uploads["key"])
        return load_uploads(
            key, uploads["hyp"], uploads["ref"], uploads["src"], uploads["docids"]
        ), key
    paths: PathSet = st.session_state["cli_paths"] if source == "cli" else sample_paths()
    key = ("paths", *paths.key())
    return read_testset(key, paths), key
