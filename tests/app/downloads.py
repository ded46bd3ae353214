"""Download buttons' builders, captured as the server keeps them for a click.

``export_buttons`` hands Streamlit a function per file, which the server calls on
a thread of its own when the button is clicked, without the session. AppTest has
no server to call it: ``capture_downloads`` records each builder by its key, and
a test calls it the same way, outside the script run.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
import streamlit
from streamlit.delta_generator import DeltaGenerator


def capture_downloads(monkeypatch: pytest.MonkeyPatch) -> dict[str, Callable[[], bytes]]:
    """Record every download button's builder by key (the latest run's wins)."""
    seen: dict[str, Callable[[], bytes]] = {}
    original = DeltaGenerator.download_button

    def capture(self: DeltaGenerator, label: str, data: Any, *args: Any, **kwargs: Any) -> Any:
        if callable(data):
            seen[kwargs["key"]] = data
        return original(self, label, data, *args, **kwargs)

    monkeypatch.setattr(DeltaGenerator, "download_button", capture)
    # ``st.download_button`` is the main area's method, bound when Streamlit was imported.
    main = streamlit.download_button.__self__
    monkeypatch.setattr(streamlit, "download_button", partial(capture, main))
    return seen
