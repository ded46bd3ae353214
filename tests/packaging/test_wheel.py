"""The wheel, as a new user gets it: built, installed in a fresh virtual environment, used.

The checkout's files (``git ls-files``: what a clone holds, with this working
tree's edits) are copied to a temporary folder and built there with
``pip wheel`` (setuptools in pip's isolated build environment), so nothing is
written into the checkout. The wheel is installed with ``constraints.txt`` into
a virtual environment outside the checkout, without the system's site-packages,
so a dependency missing from ``pyproject.toml`` fails here (pip fetches the
others from the package index, or its cache). Then, from another folder, the
installed ``bleuviz`` scores the sample it ships and serves the app.

One module-scoped fixture builds and installs once (about a minute); every test
after it reads that environment.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import venv
import zipfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from email.parser import HeaderParser
from pathlib import Path

import pytest

import bleuviz
from tests.data import ROOT
from tests.packaging.test_commands import two_commands
from tests.serving import free_port, serving

pytestmark = pytest.mark.packaging
CONSTRAINTS = ROOT / "constraints.txt"


@dataclass(frozen=True)
class Installed:
    """The built wheel, and the environment it was installed in."""

    wheel: Path
    venv: Path
    elsewhere: Path  # an empty folder outside the checkout, where commands run

    def run(self, *argv: str) -> subprocess.CompletedProcess[str]:
        """Run an installed command (``bleuviz``, ``python``) from ``elsewhere``; check it."""
        done = subprocess.run(
            [str(self.venv / "bin" / argv[0]), *argv[1:]],
            cwd=self.elsewhere,
            env=clean_env(self.elsewhere),
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        return done


def clean_env(home: Path) -> dict[str, str]:
    """This environment without the checkout on the path, with a home and workspace of its own."""
    drop = ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    return env | {"HOME": str(home), "BLEUVIZ_WORKSPACE": str(home / "workspace")}


def tracked_files() -> list[str]:
    """The checkout's files as a clone has them, plus new ones not ignored (``git ls-files``)."""
    out = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [name for name in out.split("\0") if name and (ROOT / name).is_file()]


def copy_checkout(source: Path) -> Path:
    """Copy the checkout's files (``tracked_files``) to ``source``; return it."""
    for name in tracked_files():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, source / name)
    return source


def build_wheel(into: Path) -> Path:
    """Copy the checkout's files to ``into/src`` and build the wheel there; return its path."""
    source, dist = copy_checkout(into / "src"), into / "dist"
    pip = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--wheel-dir", str(dist)]
    done = subprocess.run([*pip, str(source)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = dist.glob("bleuviz-*.whl")
    return wheel


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    """Build the wheel, install it in a fresh virtual environment; yield both."""
    root = tmp_path_factory.mktemp("packaging")
    assert not root.resolve().is_relative_to(ROOT), "the environment must be outside the checkout"
    wheel = build_wheel(root)
    env_dir = root / "venv"
    venv.EnvBuilder(with_pip=True, system_site_packages=False, clear=True).create(env_dir)
    python = env_dir / "bin" / "python"
    install = [str(python), "-m", "pip", "install", "-c", str(CONSTRAINTS)]
    done = subprocess.run(
        [*install, str(wheel)], capture_output=True, text=True, timeout=900, env=clean_env(root)
    )
    assert done.returncode == 0, done.stdout + done.stderr
    elsewhere = root / "elsewhere"
    elsewhere.mkdir()
    yield Installed(wheel, env_dir, elsewhere)


def test_the_wheel_holds_only_the_bleuviz_namespace(installed: Installed) -> None:
    with zipfile.ZipFile(installed.wheel) as archive:
        names = archive.namelist()
    tops = {name.split("/")[0] for name in names}
    assert tops == {"bleuviz", f"bleuviz-{bleuviz.__version__}.dist-info"}


def test_the_wheel_holds_every_package_file(installed: Installed) -> None:
    """Every file under bleuviz/ in the checkout is in the wheel: modules, sample, py.typed."""
    with zipfile.ZipFile(installed.wheel) as archive:
        names = set(archive.namelist())
    wanted = {
        name
        for name in tracked_files()
        if name.startswith("bleuviz/") and "__pycache__" not in name
    }
    assert wanted - names == set()
    assert "bleuviz/app/serve.py" in wanted
    assert "bleuviz/sample_data/hyp.terse.en" in wanted
    assert f"bleuviz-{bleuviz.__version__}.dist-info/licenses/LICENSE" in names


def test_the_metadata_declares_the_version_command_and_dependencies(installed: Installed) -> None:
    with zipfile.ZipFile(installed.wheel) as archive:
        info = f"bleuviz-{bleuviz.__version__}.dist-info"
        metadata = HeaderParser().parsestr(archive.read(f"{info}/METADATA").decode())
        entry_points = archive.read(f"{info}/entry_points.txt").decode()
    assert metadata["Version"] == bleuviz.__version__ == "0.2.0"
    assert metadata["License-Expression"] == "Apache-2.0"
    assert "bleuviz = bleuviz.cli.main:run" in entry_points
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    required = {r.split(";")[0] for r in metadata.get_all("Requires-Dist", [])}
    assert set(project["dependencies"]) <= required
    assert all(">=" in dependency for dependency in project["dependencies"])


def test_every_dependency_has_one_pin_for_ci() -> None:
    """constraints.txt pins what pyproject.toml declares (runtime and every extra), nothing else."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"].values()
    declared = [*project["dependencies"], *(d for extra in extras for d in extra)]
    pins = pinned(CONSTRAINTS)
    assert sorted(pins) == sorted(normal(d.split(">=")[0]) for d in declared)
    assert not list(ROOT.glob("requirements*.txt")), "dependencies are listed once"


def pinned(path: Path) -> Mapping[str, str]:
    """The package -> version pins of a constraints file."""
    lines = [line.split("#")[0].strip() for line in path.read_text().splitlines()]
    return dict(normal_pin(line) for line in lines if line)


def normal_pin(line: str) -> tuple[str, str]:
    """A ``name==version`` line as (normalized name, version)."""
    name, version = line.split("==")
    return normal(name), version


def normal(name: str) -> str:
    """A distribution name as PEP 503 compares them."""
    return name.strip().lower().replace("_", "-").replace(".", "-")


def test_the_installed_package_is_the_wheel_not_the_checkout(installed: Installed) -> None:
    code = "import bleuviz, streamlit; print(bleuviz.__file__); print(streamlit.__file__)"
    where = installed.run("python", "-c", code).stdout.split()
    assert all(Path(p).is_relative_to(installed.venv) for p in where), where
    assert installed.run("bleuviz", "--version").stdout == f"bleuviz {bleuviz.__version__}\n"


#: Imported only where present (a ``try: import ... except ImportError``), declared nowhere.
OPTIONAL_IMPORTS = {"platformdirs"}
#: The ``dask`` extra's modules (``pip install bleuviz[dask]``), imported only by
#: ``bleuviz.distributed``: a plain install lacks them, and says so when --dask is asked for.
DASK_EXTRA_IMPORTS = {"dask", "distributed", "fsspec"}

#: Run in the installed environment: each third-party module any installed bleuviz module
#: imports (at its top or inside a function), and whether it can be found there.
FIND_IMPORTS = """
import ast, importlib.util, json, pathlib, sys
import bleuviz
names = set()
for path in pathlib.Path(bleuviz.__file__).parent.rglob("*.py"):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
names -= {*sys.stdlib_module_names, "bleuviz"}
print(json.dumps({name: importlib.util.find_spec(name) is not None for name in sorted(names)}))
"""


def test_every_module_the_package_imports_is_installed_with_it(installed: Installed) -> None:
    """A dependency missing from pyproject.toml is missing here (scipy: only ``correlate``)."""
    found = json.loads(installed.run("python", "-c", FIND_IMPORTS).stdout)
    assert {"numpy", "pyarrow", "sacrebleu", "scipy", "streamlit"} <= set(found)
    assert {name for name, ok in found.items() if not ok} - OPTIONAL_IMPORTS == DASK_EXTRA_IMPORTS


def test_the_dask_extra_declares_every_module_it_stands_for() -> None:
    """The modules a plain install may lack are exactly those the ``dask`` extra installs."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extra = {
        re.split(r"[\[<>=~! ]", d, maxsplit=1)[0] for d in project["optional-dependencies"]["dask"]
    }
    assert extra == DASK_EXTRA_IMPORTS


def test_the_installed_command_scores_the_shipped_sample(installed: Installed) -> None:
    """Golden numbers: sacrebleu 2.6.0's corpus_bleu, as bleuviz/sample_data/README.md lists."""
    code = (
        "from bleuviz.sample_data import SAMPLE_HYPS, SAMPLE_REFS\n"
        "print(' '.join(map(str, SAMPLE_REFS))); print(' '.join(map(str, SAMPLE_HYPS)))"
    )
    refs, hyps = (line.split() for line in installed.run("python", "-c", code).stdout.splitlines())
    assert all(Path(p).is_relative_to(installed.venv) for p in refs + hyps)
    out = installed.run("bleuviz", "score", "--ref", *refs, "--hyp", *hyps).stdout.splitlines()
    assert out == [
        "literal: BLEU = 27.99 69.1/35.5/20.2/12.4 (BP = 1.000 ratio = 1.005 hyp_len = 1943 "
        "ref_len = 1934)",
        "terse: BLEU = 52.84 94.5/76.8/62.1/49.9 (BP = 0.767 ratio = 0.790 hyp_len = 1482 "
        "ref_len = 1875)",
        "repeat: BLEU = 61.67 85.4/69.6/55.7/43.7 (BP = 1.000 ratio = 1.012 hyp_len = 2018 "
        "ref_len = 1995)",
        f"nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:{pinned(CONSTRAINTS)['sacrebleu']}",
    ]


def test_the_installed_command_writes_a_report(installed: Installed) -> None:
    """``bleuviz report`` reads its template, style and script from the installed package."""
    code = (
        "from bleuviz.sample_data import SAMPLE_HYPS, SAMPLE_REFS\n"
        "print(' '.join(map(str, SAMPLE_REFS))); print(' '.join(map(str, SAMPLE_HYPS)))"
    )
    refs, hyps = (line.split() for line in installed.run("python", "-c", code).stdout.splitlines())
    out = installed.elsewhere / "sample.html"
    installed.run("bleuviz", "report", "--ref", *refs, "--hyp", *hyps, "-o", str(out))
    html = out.read_text(encoding="utf-8")
    script = (ROOT / "bleuviz" / "report" / "templates" / "report.js").read_text(encoding="utf-8")
    assert f"<script>{script}</script>" in html
    assert '<meta http-equiv="Content-Security-Policy"' in html
    assert html.count("<svg") >= 3 and 'id="bv-data"' in html


def test_the_installed_app_answers_from_another_directory(installed: Installed) -> None:
    port, log = free_port(), installed.elsewhere / "server.log"
    app = [str(installed.venv / "bin" / "bleuviz"), "app", "--port", str(port)]
    env = clean_env(installed.elsewhere)
    with serving(app, port, installed.elsewhere, env, log) as url:
        assert f"URL: {url}" in log.read_text()


def externally_managed_python() -> Path | None:
    """A ``python3`` on this machine that refuses ``pip install`` outside a venv (PEP 668).

    The marker is ``EXTERNALLY-MANAGED`` in the interpreter's stdlib folder
    (Debian's and Ubuntu's ``/usr/bin/python3``).
    """
    where = "import sysconfig; print(sysconfig.get_path('stdlib'))"
    for found in (shutil.which("python3"), "/usr/bin/python3"):
        if found is None or not Path(found).exists():
            continue
        stdlib = subprocess.run([found, "-c", where], capture_output=True, text=True, check=True)
        if (Path(stdlib.stdout.strip()) / "EXTERNALLY-MANAGED").exists():
            return Path(found)
    return None


def test_the_readmes_first_command_installs_and_serves_where_pip_is_refused(
    tmp_path: Path,
) -> None:
    """The README's first command, verbatim, in a copy of the checkout.

    ``python3`` is an externally managed Python where this machine has one (Debian's
    ``/usr/bin/python3``, which refuses ``python3 -m pip install .``), else the one
    on the ``PATH``. The command is run in two parts: the install, then the
    server (on a free port) until it answers.
    """
    first, _ = two_commands()
    *install, serve = first.split(" && ")
    source = copy_checkout(tmp_path / "src")
    python = externally_managed_python() or Path(shutil.which("python3") or sys.executable)
    shims = tmp_path / "bin"
    shims.mkdir()
    (shims / "python3").write_text(f'#!/bin/sh\nexec "{python}" "$@"\n')
    (shims / "python3").chmod(0o755)
    env = clean_env(tmp_path) | {"PATH": f"{shims}{os.pathsep}{os.environ['PATH']}"}
    if externally_managed_python() is not None:  # the old command fails there
        old = subprocess.run(
            [str(shims / "python3"), "-m", "pip", "install", "--dry-run", "."],
            cwd=source,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert old.returncode != 0, old.stdout
    done = subprocess.run(
        ["bash", "-c", " && ".join(install)],
        cwd=source,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    port, log = free_port(), tmp_path / "server.log"
    command = ["bash", "-c", f"exec {serve} --port {port}"]
    with serving(command, port, source, env, log) as url:
        assert f"URL: {url}" in log.read_text()
