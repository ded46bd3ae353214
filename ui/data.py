"""The UI boundary: the loaded test set, its statistics and metric scores, cached.

Heavy, immutable results (test sets, statistics) are cached with
``st.cache_resource`` keyed on the files' identity and the tokenization, so a
change of flavour, smoothing or weights rescoring never re-tokenizes. Nothing
cached is ever mutated: the core's dataclasses are frozen.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict

import streamlit as st

from bleuviz.bleu import BleuConfig
from bleuviz.bleu.corpus import CorpusStats, compute_corpus_stats
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.errors import BleuvizError
from bleuviz.io.decode import NamedBytes
from bleuviz.io.load import load_files, load_paths
from bleuviz.io.testset import TestSet
from bleuviz.metrics import EXTRA_METRICS, MetricScores, score_metric
from ui.settings import bleu_config_from_state

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample_data"


class SampleFiles(TypedDict):
    """The bundled sample's files."""

    hyp: list[Path]
    ref: list[Path]
    src: Path
    docids: Path


SAMPLE_FILES: SampleFiles = {
    "hyp": [SAMPLE / "hyp.literal.en", SAMPLE / "hyp.terse.en", SAMPLE / "hyp.repeat.en"],
    "ref": [SAMPLE / "ref.A.en", SAMPLE / "ref.B.en"],
    "src": SAMPLE / "source.de",
    "docids": SAMPLE / "docids.txt",
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


@st.cache_resource(max_entries=8, show_spinner="Counting n-grams…")
def corpus_stats(
    key: tuple[object, ...], _testset: TestSet, tokenize: TokenizeConfig, order: int
) -> CorpusStats:
    """Tokenize and count the test set once per (data, tokenizer, lowercase, order)."""
    return compute_corpus_stats(_testset, tokenize, order)


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
    return score_metric(label, hyps, refs, lowercase, stemmer)


def metric_scores(corpus: CorpusStats, system: str, label: str) -> MetricScores:
    """Return ``label``'s scores of ``system`` with the sidebar's options.

    Only the options a metric reads enter its cache key: chrF reads the
    lowercase switch, ROUGE the stemmer, TER neither.
    """
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
        tokenize = TokenizeConfig(st.session_state["tokenize"], st.session_state["lowercase"])
        config = bleu_config_from_state()
        corpus = corpus_stats(key, testset, tokenize, config.stats_order)
    except BleuvizError as exc:
        st.error(str(exc), icon=":material/error:")
        st.stop()
    return corpus, config


def _current_testset() -> tuple[TestSet, tuple[object, ...]]:
    """Load the test set the sidebar's data source points to."""
    source = st.session_state.get("data_source", "sample")
    if source == "upload":
        uploads = st.session_state.get("uploads")
        if uploads is None:
            raise BleuvizError("upload: choose hypothesis and reference files in the sidebar")
        key = ("upload", *uploads["key"])
        return load_uploads(
            key, uploads["hyp"], uploads["ref"], uploads["src"], uploads["docids"]
        ), key
    paths: PathSet = st.session_state["cli_paths"] if source == "cli" else sample_paths()
    key = ("paths", *paths.key())
    return read_testset(key, paths), key
