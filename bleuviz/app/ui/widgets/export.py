"""Download buttons that export a table as CSV, JSON and LaTeX (built on click)."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from bleuviz.render.export import EXPORTS


def export_buttons(
    frame: pd.DataFrame | Callable[[], pd.DataFrame],
    name: str,
    key: str,
    signature: str = "",
    narrow: bool = False,
) -> None:
    """Three small download buttons in a row; each builds its file only when clicked.

    ``frame`` may be a function, so that a large table (every system's segments)
    is only built for the download. ``narrow`` (a table in half a page) puts the
    three buttons in an "Export" popover, so their labels are never cut.
    """
    if narrow:
        with st.popover("Export", icon=":material/download:"):
            _buttons(frame, name, key, signature, [st.container() for _ in EXPORTS])
        return
    _buttons(frame, name, key, signature, list(st.columns([1, 1, 1, 5])))


def _buttons(
    frame: pd.DataFrame | Callable[[], pd.DataFrame],
    name: str,
    key: str,
    signature: str,
    columns: list[DeltaGenerator],
) -> None:
    """One download button per format, in ``columns``."""
    for column, (label, (exporter, extension, mime)) in zip(columns, EXPORTS.items(), strict=False):
        column.download_button(
            label,
            _on_click(exporter, frame, signature),
            file_name=f"bleuviz-{name}.{extension}",
            mime=mime,
            key=f"{key}_{extension}",
            icon=":material/download:",
        )


def _on_click(
    exporter: Callable[[pd.DataFrame, str], bytes],
    frame: pd.DataFrame | Callable[[], pd.DataFrame],
    signature: str,
) -> Callable[[], bytes]:
    """The download's data, built when the button is clicked."""

    def build() -> bytes:
        return exporter(frame() if callable(frame) else frame, signature)

    return build
