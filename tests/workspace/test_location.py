"""Where the workspace lives: a given folder, then $BLEUVIZ_WORKSPACE, then a per-user folder."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bleuviz.workspace import WORKSPACE_ENV, default_folder, resolve_folder


def test_an_explicit_folder_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(WORKSPACE_ENV, str(tmp_path / "env"))
    assert resolve_folder(tmp_path / "given") == tmp_path / "given"
    assert resolve_folder("~/ws") == Path.home() / "ws"


def test_the_environment_comes_next(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(WORKSPACE_ENV, str(tmp_path / "env"))
    assert resolve_folder(None) == resolve_folder("") == tmp_path / "env"


def test_without_platformdirs_xdg_data_home_then_local_share(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(WORKSPACE_ENV, raising=False)
    monkeypatch.setitem(sys.modules, "platformdirs", None)  # import platformdirs fails
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_folder() == tmp_path / "bleuviz"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")  # the XDG spec: absolute only
    assert default_folder() == Path.home() / ".local" / "share" / "bleuviz"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_folder() == Path.home() / ".local" / "share" / "bleuviz"
