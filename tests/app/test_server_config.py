"""The project's Streamlit configuration, read the way ``streamlit run`` reads it.

``bleuviz app`` passes the same settings as options (``bleuviz.cli.server_settings``),
so that they hold from any directory; the last tests keep the two equal.
"""

from __future__ import annotations

import ipaddress
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit import config

from bleuviz.cli.server_settings import PINNED_DEFAULTS, SERVER_SETTINGS

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def project_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Parse the configuration as a server started in the project root would.

    ``HOME`` points to an empty folder, so that only the project's
    ``.streamlit/config.toml`` (and Streamlit's defaults) count.
    """
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(ROOT)
    config.get_config_options(force_reparse=True)
    yield
    monkeypatch.undo()
    config.get_config_options(force_reparse=True)


@pytest.mark.usefixtures("project_config")
def test_the_server_listens_on_loopback_only() -> None:
    address = config.get_option("server.address")
    assert address is not None, "server.address unset: Streamlit would listen on every interface"
    assert ipaddress.ip_address(address).is_loopback


@pytest.mark.usefixtures("project_config")
def test_upload_limit_and_xsrf_protection_stay_as_documented() -> None:
    assert config.get_option("server.maxUploadSize") == 200
    assert config.get_option("server.enableXsrfProtection") is True


@pytest.mark.usefixtures("project_config")
def test_no_full_garbage_collection_after_every_run() -> None:
    # Streamlit's default collects every generation after each script run, which cost
    # every interaction on 100k segments (issue 11) for memory refcounting frees anyway.
    assert config.get_option("runner.postScriptGC") is False


@pytest.mark.usefixtures("project_config")
def test_source_files_are_not_watched() -> None:
    # The watcher resolves every imported module's path on script runs (issue 11).
    assert config.get_option("server.fileWatcherType") == "none"


def test_bleuviz_app_passes_exactly_the_checkouts_settings() -> None:
    toml = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    flat = {
        f"{section}.{key}": value for section, table in toml.items() for key, value in table.items()
    }
    assert flat == dict(SERVER_SETTINGS)


@pytest.mark.usefixtures("project_config")
def test_the_defaults_bleuviz_app_pins_are_the_checkouts_too() -> None:
    for name, value in {**SERVER_SETTINGS, **PINNED_DEFAULTS}.items():
        assert config.get_option(name) == value, name
