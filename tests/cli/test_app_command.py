"""``bleuviz app``: the server starts from any directory with bleuviz's settings, or says no.

Each run is ``python -m bleuviz app`` in a fresh interpreter whose current
directory is a temporary one (not the checkout, whose ``.streamlit/config.toml``
Streamlit would otherwise read). The tests of the installed wheel
(``tests/packaging``) run the same command from a fresh virtual environment.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bleuviz.cli.app import serve_script, streamlit_command
from bleuviz.cli.main import build_parser
from bleuviz.cli.server_settings import PINNED_DEFAULTS, SERVER_SETTINGS
from bleuviz.errors import BleuvizError
from bleuviz.workspace import SavedSet, Workspace
from tests.data import ROOT, SAMPLE_DOCIDS, SAMPLE_HYPS, SAMPLE_REFS, SAMPLE_SOURCE
from tests.serving import STARTUP_TIMEOUT, free_port, serving

REF, HYP = str(SAMPLE_REFS[0]), str(SAMPLE_HYPS[0])


def checkout_env(home: Path) -> dict[str, str]:
    """The environment with the checkout importable from anywhere, and a home of its own."""
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    return {**os.environ, "PYTHONPATH": path, "HOME": str(home)}


def command(*argv: str) -> list[str]:
    """The ``bleuviz app ...`` a parser would build, as ``python -m streamlit run`` argv."""
    return streamlit_command(build_parser(["app", *argv]).parse_args(["app", *argv]))


def option(argv: list[str], name: str) -> str:
    """The value given to a streamlit option before ``--``."""
    head = argv[: argv.index("--")] if "--" in argv else argv
    return head[head.index(f"--{name}") + 1]


def test_the_command_runs_the_packaged_server_with_every_setting() -> None:
    argv = command("--port", "8600")
    assert argv[:5] == [sys.executable, "-m", "streamlit", "run", str(serve_script())]
    assert serve_script() == ROOT / "bleuviz" / "app" / "serve.py"
    assert serve_script().is_file()
    for name, value in {**SERVER_SETTINGS, **PINNED_DEFAULTS}.items():
        expected = str(value).lower() if isinstance(value, bool) else str(value)
        assert option(argv, name) == expected, name
    assert option(argv, "server.port") == "8600"
    assert option(argv, "server.enableXsrfProtection") == "true"
    assert "--" not in argv  # nothing for the app to read: the bundled sample


def test_the_port_is_left_to_streamlit_unless_given() -> None:
    # Streamlit moves to the next free port from 8501 only when none was given.
    assert "--server.port" not in command()


def test_the_address_and_the_app_arguments_are_passed_on() -> None:
    argv = command(
        "--address", "0.0.0.0", "--ref", *map(str, SAMPLE_REFS), "--hyp", HYP,
        "--src", str(SAMPLE_SOURCE), "--docids", str(SAMPLE_DOCIDS),
        "--lower-is-better", "MetricX", "--workspace", "ws",
    )  # fmt: skip
    assert option(argv, "server.address") == "0.0.0.0"
    assert argv[argv.index("--") + 1 :] == [
        "--ref", *map(str, SAMPLE_REFS), "--hyp", HYP, "--src", str(SAMPLE_SOURCE),
        "--docids", str(SAMPLE_DOCIDS), "--lower-is-better", "MetricX", "--workspace", "ws",
    ]  # fmt: skip


def test_the_command_imports_neither_the_app_nor_streamlit() -> None:
    """Everything before the exec: parsing, checking files, building the command line."""
    code = (
        "import json, sys\n"
        "from bleuviz.cli.main import build_parser\n"
        "from bleuviz.cli.app import streamlit_command\n"
        f"argv = ['app', '--ref', {REF!r}, '--hyp', {HYP!r}]\n"
        "streamlit_command(build_parser(argv).parse_args(argv))\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    modules = {name.split(".")[0] for name in json.loads(out.stdout)}
    # numpy comes with the parser's shared options (bleuviz.cli.options), as for every command.
    assert modules & {"streamlit", "pandas", "pyarrow", "sacrebleu", "plotly"} == set()
    assert not any(name.startswith("bleuviz.app") for name in json.loads(out.stdout))


def bleuviz_app(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``python -m bleuviz app ARGV`` in ``cwd`` (each case here fails before serving)."""
    return subprocess.run(
        [sys.executable, "-m", "bleuviz", "app", *argv],
        cwd=cwd,
        env=checkout_env(cwd),
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_table_alone_needs_no_ref(tmp_path: Path) -> None:
    """As ``score --hyp table.tsv``: a table, XML or SGML file holds its references."""
    table = tmp_path / "set.tsv"
    table.write_text("ref\tsysA\nA cat .\tA cat .\n", encoding="utf-8")
    argv = command("--hyp", str(table))
    assert argv[argv.index("--") + 1 :] == ["--hyp", str(table)]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--port", "0"], "bleuviz app: error: argument --port: '0' is not a port number"),
        (["--port", "http"], "bleuviz app: error: argument --port: 'http' is not a port number"),
        (["--port", "65536"], "bleuviz app: error: argument --port: '65536' is not a port"),
        (["--address", "my host"], "bleuviz app: error: argument --address: 'my host' is not"),
        (["--address", "x..org"], "bleuviz app: error: argument --address: 'x..org' is not"),
        (["--source", "s.de"], "bleuviz: error: unrecognized arguments: --source s.de"),
        (["--ref", REF], "bleuviz: error: --ref without --hyp: both are needed to open files"),
        (["--hyp", HYP], "bleuviz: error: --hyp without --ref: both are needed to open files"),
        (["--ref", REF, "--hyp", "no.en"], "bleuviz: error: --hyp: no such file: no.en"),
        (["--ref", REF, "--hyp", HYP, "--src", "."], "bleuviz: error: --src: no such file: ."),
        (["--seg-scores", "x.seg.score"], "bleuviz: error: --seg-scores: no such file"),
    ],
)
def test_bad_arguments_are_one_line_and_status_2(
    argv: list[str], message: str, tmp_path: Path
) -> None:
    done = bleuviz_app(*argv, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith(message)
    assert len(done.stderr.splitlines()) == 1


def test_the_app_serves_from_another_directory_with_its_own_settings(tmp_path: Path) -> None:
    """From a folder whose own Streamlit config says otherwise, the files named are served.

    The folder's ``.streamlit/config.toml`` asks for every interface and the file
    watcher; the server still listens on loopback (its printed URL), and the start-up
    work (``serve.py``'s) saves the files named before any page is opened.
    """
    (tmp_path / ".streamlit").mkdir()
    (tmp_path / ".streamlit" / "config.toml").write_text(
        '[server]\naddress = "0.0.0.0"\nfileWatcherType = "auto"\nmaxUploadSize = 1\n'
    )
    workspace, port, log = tmp_path / "ws", free_port(), tmp_path / "server.log"
    argv = ["--port", str(port), "--ref", REF, "--hyp", HYP, "--workspace", str(workspace)]
    app = [sys.executable, "-m", "bleuviz", "app", *argv]
    with serving(app, port, tmp_path, checkout_env(tmp_path), log) as url:
        saved = saved_sets(workspace, log)
        assert f"URL: {url}" in log.read_text()
    assert [s.n_segments for s in saved] == [126], log.read_text()
    assert "0.0.0.0" not in log.read_text()


def saved_sets(workspace: Path, log: Path) -> tuple[SavedSet, ...]:
    """The test sets the server saved, once it has saved one (none if its start-up work failed)."""
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while time.monotonic() < deadline and "Traceback" not in log.read_text():
        try:  # the server may be creating the database right now
            saved = Workspace.open(workspace, read_only=True).testsets()
        except BleuvizError:
            saved = ()
        if saved:
            return saved
        time.sleep(0.25)
    return ()
