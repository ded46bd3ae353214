"""Shared fixtures for the test suite.

Keep this file small and generic: fixtures here are used by several test modules.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import NamedTuple

import pytest
import streamlit
from hypothesis import strategies as st
from streamlit.components.v2.component_manager import BidiComponentManager
from streamlit.testing.v1 import AppTest, app_test

from bleuviz.app.ui.sections.deferred import EVERY_PART
from bleuviz.bleu.references import build_reference_index
from bleuviz.bleu.stats import SegmentStats, compute_stats
from bleuviz.bleu.tokenize import TokenizeConfig

ROOT = Path(__file__).resolve().parent.parent

#: A tiny vocabulary, so that matches, clipping and case differences are frequent.
TINY_VOCABULARY = ("a", "b", "c", "the", ",", ".", "A")


class Corpus(NamedTuple):
    """A hypothesis stream and its reference streams (each as long as ``hyps``)."""

    hyps: list[str]
    refs: list[list[str]]


@st.composite
def _corpora(draw: st.DrawFn, min_segments: int = 1, max_segments: int = 8) -> Corpus:
    n = draw(st.integers(min_segments, max_segments))
    n_refs = draw(st.integers(1, 3))
    line = st.lists(st.sampled_from(TINY_VOCABULARY), max_size=15).map(" ".join)
    hyps = draw(st.lists(line, min_size=n, max_size=n))
    refs = [draw(st.lists(line, min_size=n, max_size=n)) for _ in range(n_refs)]
    return Corpus(hyps, refs)


@pytest.fixture(scope="session")
def corpora() -> st.SearchStrategy[Corpus]:
    """Strategy for random corpora: 1-8 segments, 1-3 reference streams, 0-15 tokens a line.

    Use it inside ``@given(data=st.data())`` as ``data.draw(corpora)``.
    """
    return _corpora()


@pytest.fixture(scope="session")
def make_stats() -> Callable[..., SegmentStats]:
    """Return a function that runs the bleuviz pipeline: reference index, then statistics."""

    def make(
        hyps: Sequence[str],
        refs: Sequence[Sequence[str]],
        tokenize: TokenizeConfig | None = None,
        max_order: int = 4,
    ) -> SegmentStats:
        index = build_reference_index(refs, tokenize or TokenizeConfig(), max_order)
        return compute_stats(hyps, index)

    return make


@pytest.fixture(scope="session", autouse=True)
def components_scanned_once() -> Iterator[None]:
    """Scan the installed packages for Streamlit components once per test process.

    Each AppTest's first run scans every installed package's metadata for
    custom components (``discover_and_register_components``, 0.35 s here),
    which a server does once at its start. The installed packages do not change
    during the suite, so every AppTest shares one manager scanned at the start.
    """
    manager = BidiComponentManager()
    manager.discover_and_register_components(start_file_watching=False)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(manager, "discover_and_register_components", lambda **_: None)
        patch.setattr(app_test, "BidiComponentManager", lambda: manager)
        yield


@pytest.fixture(autouse=True)
def isolated_workspace(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Give every test a workspace of its own ($BLEUVIZ_WORKSPACE), never the user's."""
    folder = tmp_path_factory.mktemp("workspace")
    monkeypatch.setenv("BLEUVIZ_WORKSPACE", str(folder))
    return folder


@pytest.fixture(autouse=True)
def main_module_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """Put pytest's ``__main__`` back after every test.

    Streamlit's script runner (AppTest's too) installs the page script as
    ``sys.modules["__main__"]`` and leaves it there: a later test's worker processes
    (Dask's LocalCluster, multiprocessing's spawn and forkserver) would run the app script
    again as ``__mp_main__`` and log Streamlit's warnings onto the test's stderr.
    """
    monkeypatch.setitem(sys.modules, "__main__", sys.modules["__main__"])


@pytest.fixture
def new_app(monkeypatch: pytest.MonkeyPatch) -> Callable[..., AppTest]:
    """Return a function building an AppTest of app.py (command-line files as ``argv``).

    Caches are emptied once, so that every test starts as a fresh server would.
    """
    streamlit.cache_data.clear()
    streamlit.cache_resource.clear()

    def make(*argv: str) -> AppTest:
        monkeypatch.setattr("sys.argv", ["app.py", *argv])
        app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
        # No browser runs the script that draws a page's charts after its answer: draw them
        # with the page (tests/app/test_deferred_parts.py tests the deferral itself).
        app.session_state[EVERY_PART] = True
        return app

    return make
