"""The README's two commands: installing and starting the app, and CI's, run verbatim by .ci/run."""

from __future__ import annotations

import re

from tests.data import ROOT


def two_commands() -> list[str]:
    """The code blocks of the README's "Two commands" section."""
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Two commands", 1)[1].split("\n## ", 1)[0]
    return [block.strip() for block in re.findall(r"```\n(.*?)```", section, flags=re.DOTALL)]


def test_the_first_command_installs_in_a_virtual_environment_and_starts_the_app() -> None:
    """Debian's and Ubuntu's Python refuses ``pip install`` outside one (PEP 668).

    A stock Debian's ``python3 -m venv`` needs ``python3-venv``, installed first.

    ``tests/packaging/test_wheel.py`` runs this command with such a Python.
    """
    first, _ = two_commands()
    assert "\n" not in first
    assert first == (
        "apt-get update && apt-get install -y python3-venv && "
        "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/bleuviz app"
    )


def test_ci_runs_the_second_command_verbatim() -> None:
    _, second = two_commands()
    assert "\n" not in second
    assert "-c constraints.txt -e '.[dev,dask]'" in second
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert ci[-1] == second
