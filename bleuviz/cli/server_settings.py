"""The app server's settings, for ``bleuviz app`` from any directory.

``streamlit run`` reads ``.streamlit/config.toml`` from the current directory
only, so an installed bleuviz started elsewhere would listen on every interface
with Streamlit's defaults. ``bleuviz app`` passes these as command-line options
instead, which also win over a stray ``config.toml`` in the directory it is
started from. A checkout's ``.streamlit/config.toml`` (which explains each value)
holds the same settings; a test keeps the two equal.
"""

from __future__ import annotations

from collections.abc import Mapping

#: Streamlit's option name -> value, as ``.streamlit/config.toml`` sets them.
SERVER_SETTINGS: Mapping[str, str | int | bool] = {
    "server.address": "127.0.0.1",  # this machine only: outputs and references are unpublished
    "server.maxUploadSize": 200,
    "server.headless": True,
    "server.fileWatcherType": "none",
    "browser.gatherUsageStats": False,
    "client.toolbarMode": "minimal",
    "theme.base": "light",
    "runner.postScriptGC": False,
}

#: Settings the checkout leaves at Streamlit's default, stated here so that a user's own
#: ``~/.streamlit/config.toml`` cannot turn them off for bleuviz (XSRF protects uploads).
PINNED_DEFAULTS: Mapping[str, str | int | bool] = {"server.enableXsrfProtection": True}


def option_flags(settings: Mapping[str, str | int | bool]) -> list[str]:
    """Return ``settings`` as ``streamlit run`` options: ``--server.port 8502 ...``."""
    flags: list[str] = []
    for name, value in settings.items():
        text = ("true" if value else "false") if isinstance(value, bool) else str(value)
        flags += [f"--{name}", text]
    return flags
