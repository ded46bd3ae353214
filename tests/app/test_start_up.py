"""The server's start-up work: the command line's files counted ahead are what the first page uses.

``serve.py`` runs ``count_ahead`` on a thread when the server starts; these tests run
it in the test's process, then open a session as the browser would. Oracle:
sacrebleu 2.6's ``corpus_bleu`` on the sample's files.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
import sacrebleu
from streamlit.testing.v1 import AppTest

import bleuviz.app.ui.cache.counting
from bleuviz.app.ui.cache.workspace import SAVED_SET_KEY
from bleuviz.app.ui.frame.start_up import count_ahead
from bleuviz.app.ui.state.app_args import parse_argv
from bleuviz.bleu.tokenize import DEFAULT_TOKENIZER, TokenizeConfig
from bleuviz.workspace import Workspace
from tests.data import SAMPLE_HYPS, SAMPLE_REF_LINES, SAMPLE_REFS, SAMPLE_SYSTEM_LINES

ARGV = ("--ref", *map(str, SAMPLE_REFS), "--hyp", *map(str, SAMPLE_HYPS))


def test_the_first_session_takes_the_files_counted_ahead(
    new_app: Callable[..., AppTest], monkeypatch: pytest.MonkeyPatch
) -> None:
    app = new_app(*ARGV)
    monkeypatch.setattr("sys.argv", ["serve.py", *ARGV])
    set_id = count_ahead()
    assert set_id is not None
    assert [s.id for s in Workspace.open().testsets()] == [set_id]
    # Counting started, with the settings a new session has.
    ((_, tokenize, order),) = bleuviz.app.ui.cache.counting._EARLY
    assert (tokenize, order) == (TokenizeConfig(DEFAULT_TOKENIZER, lowercase=False), 4)
    app.run()
    assert not app.exception and not app.error
    assert app.session_state[SAVED_SET_KEY] == set_id
    assert not bleuviz.app.ui.cache.counting._EARLY  # the page took the statistics counted ahead
    expected = {
        name: f"{sacrebleu.corpus_bleu(lines, SAMPLE_REF_LINES).score:.2f}"
        for name, lines in SAMPLE_SYSTEM_LINES.items()
    }
    assert {m.label.split(" · ")[-1]: m.value for m in app.metric} == expected


@pytest.mark.parametrize(
    "argv",
    [
        (),  # the bundled sample: nothing to count ahead
        ("--source", "src.txt", *ARGV),  # a mistake, which every page names
        ("--ref", str(SAMPLE_REFS[0])),  # references without systems
    ],
)
def test_nothing_is_counted_ahead_without_usable_files(
    monkeypatch: pytest.MonkeyPatch, argv: tuple[str, ...]
) -> None:
    monkeypatch.setattr("sys.argv", ["serve.py", *argv])
    bleuviz.app.ui.cache.counting._EARLY.clear()
    assert count_ahead() is None
    assert not bleuviz.app.ui.cache.counting._EARLY
    assert not Workspace.open().testsets()


def test_serve_py_reads_its_arguments_as_the_apps() -> None:
    assert parse_argv(("serve.py", "--source", "s.txt")).problem is not None
    assert parse_argv(("serve.py", *ARGV)).hyp == tuple(map(str, SAMPLE_HYPS))
