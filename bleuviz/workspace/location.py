"""Where the workspace lives: ``--workspace DIR``, ``$BLEUVIZ_WORKSPACE`` or a per-user folder."""

from __future__ import annotations

import os
from pathlib import Path

#: The environment variable naming the workspace folder.
WORKSPACE_ENV = "BLEUVIZ_WORKSPACE"
#: The application name the per-user data folder is named after.
APP_NAME = "bleuviz"


def default_folder() -> Path:
    """Return ``$BLEUVIZ_WORKSPACE``, else the per-user data folder for bleuviz.

    The per-user folder is platformdirs' ``user_data_dir("bleuviz")`` when
    platformdirs is installed; otherwise the XDG base-directory rule:
    ``$XDG_DATA_HOME/bleuviz`` (an absolute ``XDG_DATA_HOME`` only, as the
    specification says), else ``~/.local/share/bleuviz``.
    """
    env = os.environ.get(WORKSPACE_ENV, "")
    if env:
        return Path(env).expanduser().absolute()
    try:
        import platformdirs
    except ImportError:
        xdg = os.environ.get("XDG_DATA_HOME", "")
        base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".local" / "share"
        return base / APP_NAME
    return Path(platformdirs.user_data_dir(APP_NAME)).absolute()


def resolve_folder(folder: str | Path | None) -> Path:
    """Return ``folder`` as an absolute path (``~`` expanded), or ``default_folder()`` if unset."""
    if folder is None or str(folder) == "":
        return default_folder()
    return Path(folder).expanduser().absolute()
