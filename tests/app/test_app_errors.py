"""AppTest of bad command-line files: a clear st.error, never an exception.

``streamlit run app.py -- --ref R --hyp H`` passes the files in ``sys.argv``;
each test writes its files to ``tmp_path`` and sets ``sys.argv`` before the
first run. The expected messages are bleuviz.io.load's: they name the file, and the
line or line counts where there are some. Scores of the good control set come
from sacrebleu 2.6 (``corpus_bleu``) on the same lines.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import sacrebleu
from streamlit.testing.v1 import AppTest

from bleuviz.app.ui.state.app_args import AppArgs, parse_argv
from bleuviz.render.labels import escape_markdown as md
from tests.app.markup import message_text
from tests.data import SAMPLE_REF_LINES, SAMPLE_SYSTEM_LINES

ROOT = Path(__file__).resolve().parents[2]
DATA_PAGES = ("bleuviz/app/page_scripts/overview.py", "bleuviz/app/page_scripts/sentences.py")
REF = ["The cat sat on the mat .", "It rained all day .", "We went home early ."]
HYP = ["The cat sat on a mat .", "It rained the whole day .", "We went home ."]


@pytest.fixture
def app(new_app: Callable[..., AppTest]) -> Iterator[Callable[..., AppTest]]:
    """Return a function that builds an AppTest of app.py with files on its command line."""

    def make(*argv: str, page: str = "bleuviz/app/page_scripts/overview.py") -> AppTest:
        at = new_app(*argv)
        at.switch_page(page)
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        return at

    yield make


def write(path: Path, lines: list[str] | bytes) -> str:
    """Write lines (LF, final newline) or raw bytes; return the path as a string."""
    data = lines if isinstance(lines, bytes) else ("\n".join(lines) + "\n").encode("utf-8")
    path.write_bytes(data)
    return str(path)


def good_files(folder: Path) -> list[str]:
    """Write a reference and two systems (alpha, beta); return their app arguments."""
    ref = write(folder / "ref.en", REF)
    hyp_a = write(folder / "hyp.alpha.en", HYP)
    hyp_b = write(folder / "hyp.beta.en", REF)
    return ["--ref", ref, "--hyp", hyp_a, hyp_b]


def assert_frame_works(at: AppTest, settings: bool = True, saved: bool = False) -> None:
    """The sidebar still renders and offers the command-line files, the sample and uploads.

    ``settings``: whether the page shows the sidebar's BLEU settings (Learn does not).
    ``saved``: the files could be read, so they were saved in the workspace and are
    offered as a saved test set; files that cannot be read stay command-line files.
    """
    source = at.sidebar.radio(key="data_source")
    first = "Saved test set" if saved else "Command-line files"
    assert source.value == ("saved" if saved else "cli")
    assert source.options == [first, "Bundled sample", "Upload files"]
    if not settings:
        assert not [s for s in at.sidebar.selectbox if s.key == "flavor"]
        return
    assert at.sidebar.selectbox(key="flavor").value == "sacrebleu"
    assert at.sidebar.number_input(key="max_order").value == 4


def switch_to_sample(at: AppTest) -> None:
    """Choose the bundled sample; the page then shows its numbers (sample_data/README)."""
    at.sidebar.radio(key="data_source").set_value("sample").run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    if [t.value for t in at.title] == ["Overview"]:
        # Cards follow the ranking by corpus BLEU, best first (sample_data/README).
        assert [m.value for m in at.metric] == ["61.67", "52.84", "27.99"]
    else:  # sentences: the table holds the sample's segments
        assert at.dataframe[0].value.shape[0] == 126


def only_error(at: AppTest) -> str:
    """The page's single st.error; nothing scored is shown."""
    assert len(at.error) == 1, [e.value for e in at.error]
    assert not at.metric
    assert not at.dataframe
    return message_text(at.error[0].value)


@pytest.mark.parametrize("page", DATA_PAGES)
def test_good_files_open_and_score_like_sacrebleu(
    app: Callable[..., AppTest], tmp_path: Path, page: str
) -> None:
    at = app(*good_files(tmp_path), page=page)
    assert not at.error
    assert_frame_works(at, saved=True)
    if page == "bleuviz/app/page_scripts/overview.py":
        expected = [sacrebleu.corpus_bleu(h, [REF]).score for h in (HYP, REF)]
        assert [(m.label, m.value) for m in at.metric] == [  # ranked: best first
            ("beta", f"{expected[1]:.2f}"),
            ("alpha", f"{expected[0]:.2f}"),
        ]
    else:
        assert at.dataframe[0].value.shape[0] == len(REF)
        assert at.selectbox(key="sent_system").options == ["alpha", "beta"]


@pytest.mark.parametrize("page", DATA_PAGES)
def test_mismatched_line_counts_name_both_files_and_counts(
    app: Callable[..., AppTest], tmp_path: Path, page: str
) -> None:
    ref = write(tmp_path / "ref.en", REF)
    hyp = write(tmp_path / "hyp.short.en", HYP[:2])
    at = app("--ref", ref, "--hyp", hyp, page=page)
    message = only_error(at)
    assert f"{ref} has 3 lines" in message
    assert f"{hyp} has 2 lines" in message
    assert_frame_works(at)
    switch_to_sample(at)


@pytest.mark.parametrize("option", ["--src", "--docids"])
def test_mismatched_source_or_docids_are_named(
    app: Callable[..., AppTest], tmp_path: Path, option: str
) -> None:
    ref = write(tmp_path / "ref.en", REF)
    hyp = write(tmp_path / "hyp.a.en", HYP)
    extra = write(tmp_path / "extra.txt", ["one", "two", "three", "four"])
    message = only_error(app("--ref", ref, "--hyp", hyp, option, extra))
    assert f"{extra} has 4 lines" in message
    assert f"{ref} has 3 lines" in message


@pytest.mark.parametrize("page", DATA_PAGES)
def test_invalid_utf8_names_file_and_line(
    app: Callable[..., AppTest], tmp_path: Path, page: str
) -> None:
    ref = write(tmp_path / "ref.en", REF)
    hyp = write(tmp_path / "hyp.latin1.en", "The cat\nIt rained all d\xe4y\nWe\n".encode("latin-1"))
    at = app("--ref", ref, "--hyp", hyp, page=page)
    message = only_error(at)
    assert hyp in message
    assert "UTF-8" in message
    assert "line 2" in message
    assert_frame_works(at)
    switch_to_sample(at)


@pytest.mark.parametrize("page", DATA_PAGES)
def test_missing_file_names_the_path(
    app: Callable[..., AppTest], tmp_path: Path, page: str
) -> None:
    ref = write(tmp_path / "ref.en", REF)
    missing = str(tmp_path / "no" / "such" / "hyp.en")
    at = app("--ref", ref, "--hyp", missing, page=page)
    assert missing in only_error(at)
    assert_frame_works(at)
    switch_to_sample(at)


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda d: write(d / "empty.en", b""), "empty"),
        (lambda d: write(d / "bom-only.en", b"\xef\xbb\xbf"), "empty"),
        (lambda d: str(d), "directory"),
    ],
    ids=["empty", "bom-only", "directory"],
)
def test_other_unreadable_references_are_named(
    app: Callable[..., AppTest], tmp_path: Path, make: Callable[[Path], str], words: str
) -> None:
    bad = make(tmp_path)
    hyp = write(tmp_path / "hyp.a.en", HYP)
    at = app("--ref", bad, "--hyp", hyp)
    message = only_error(at)
    assert bad in message and words in message
    assert_frame_works(at)
    switch_to_sample(at)


@pytest.mark.parametrize(
    "page", ("bleuviz/app/page_scripts/compare.py", "bleuviz/app/page_scripts/learn.py")
)
def test_pages_without_data_still_render(
    app: Callable[..., AppTest], tmp_path: Path, page: str
) -> None:
    ref = write(tmp_path / "ref.en", REF)
    at = app("--ref", ref, "--hyp", str(tmp_path / "missing.en"), page=page)
    assert at.title[0].value
    assert_frame_works(at, settings=page != "bleuviz/app/page_scripts/learn.py")


def test_a_file_fixed_on_disk_is_read_again(app: Callable[..., AppTest], tmp_path: Path) -> None:
    """The cache is keyed on size and mtime: repairing the file clears the error on rerun."""
    ref = write(tmp_path / "ref.en", REF)
    hyp_path = tmp_path / "hyp.a.en"
    hyp = write(hyp_path, HYP[:2])
    at = app("--ref", ref, "--hyp", hyp)
    assert "has 2 lines" in only_error(at)
    write(hyp_path, HYP)
    os.utime(hyp_path, ns=(hyp_path.stat().st_atime_ns, hyp_path.stat().st_mtime_ns + 10**9))
    at.run()
    assert not at.exception
    assert not at.error, [e.value for e in at.error]
    assert at.metric[0].value == f"{sacrebleu.corpus_bleu(HYP, [REF]).score:.2f}"


def test_invalid_settings_show_an_error_on_the_sentences_page(
    app: Callable[..., AppTest],
) -> None:
    at = app(page="bleuviz/app/page_scripts/sentences.py")
    at.sidebar.text_input(key="weights_text").set_value("1 2 three").run()
    assert not at.exception
    assert "weights" in only_error(at)
    assert at.sidebar.selectbox(key="flavor").value == "sacrebleu"


@pytest.mark.parametrize(
    "page",
    [*DATA_PAGES, "bleuviz/app/page_scripts/compare.py", "bleuviz/app/page_scripts/learn.py"],
)
def test_an_unknown_argument_is_named_on_every_page_and_the_rest_opens(
    app: Callable[..., AppTest], tmp_path: Path, page: str
) -> None:
    at = app(*good_files(tmp_path), "--source", "src.*de*", page=page)
    [error] = [e.value for e in at.error]
    assert error.startswith(md("app arguments after --: --source src.*de* not understood"))
    assert md("--src,") in error  # the option meant, among those the app reads
    if (
        page == "bleuviz/app/page_scripts/overview.py"
    ):  # the files the other arguments name are open
        assert [m.label for m in at.metric] == ["beta", "alpha"]


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (("--ref", "R"), "--ref without --hyp; both are needed to open files"),
        (("--hyp", "H"), "--hyp without --ref; both are needed to open files"),
        (("--ref",), "argument --ref: expected at least one argument"),
    ],
)
def test_incomplete_arguments_are_named(
    app: Callable[..., AppTest], argv: tuple[str, ...], expected: str
) -> None:
    at = app(*argv)
    [error] = [e.value for e in at.error]
    assert md(expected) in error
    assert at.sidebar.radio(key="data_source").value == "sample"  # nothing else to open


def test_arguments_of_another_program_are_not_the_apps() -> None:
    # Embedded (a test runner's sys.argv), nothing is the app's to complain about.
    assert parse_argv(("pytest", "-q", "--source", "x")).problem is None
    assert parse_argv(("pytest", "--hyp")).problem is None
    assert parse_argv(("/srv/app.py", "--ref", "r", "--hyp", "h", "--src", "s")) == AppArgs(
        ("r",), ("h",), "s", None, (), (), None, None
    )


def test_a_table_given_alone_opens_without_ref(
    new_app: Callable[..., AppTest], tmp_path: Path
) -> None:
    """``score --hyp table.tsv`` needs no ``--ref``; neither does the app (its references
    are columns). A plain file alone is still refused (the test above)."""
    table = tmp_path / "set.tsv"
    rows = zip(*SAMPLE_REF_LINES, *SAMPLE_SYSTEM_LINES.values(), strict=True)
    head = ["ref1", "ref2", *SAMPLE_SYSTEM_LINES]
    table.write_text("\n".join("\t".join(r) for r in [head, *rows]) + "\n", encoding="utf-8")
    at = new_app("--hyp", str(table))
    at.run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    expected = {name: sacrebleu.corpus_bleu(lines, SAMPLE_REF_LINES).score for name, lines in
                SAMPLE_SYSTEM_LINES.items()}  # fmt: skip
    assert {m.label: m.value for m in at.metric} == {n: f"{v:.2f}" for n, v in expected.items()}
