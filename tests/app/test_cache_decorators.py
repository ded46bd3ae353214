"""Every cache of the app is declared with ``ui/cache/keys.py``'s decorators (as the README says).

Streamlit's own ``st.cache_data``/``st.cache_resource`` hash an ``Evaluation`` by
value, which they cannot; the app's decorators hash it by its content key. A
cached function declared with Streamlit's directly would need its evaluation
passed as an unhashed ``_`` twin beside a key built by hand: the pattern issue 45
removed. This reads the source, so it also holds for a function never run in a test.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT

APP = ROOT / "bleuviz" / "app"
KEYS = APP / "ui" / "cache" / "keys.py"
STREAMLIT_CACHES = {"cache_data", "cache_resource"}


def streamlit_caches(path: Path, root: Path = ROOT) -> list[str]:
    """Where ``path`` uses Streamlit's cache decorators (``st.cache_data``...) otherwise
    than to clear them."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    cleared = {
        id(node.func.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "clear"
    }
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and node.attr in STREAMLIT_CACHES
            and id(node) not in cleared
        ):
            found.append(f"{path.relative_to(root)}:{node.lineno}")
    return found


def test_only_the_apps_decorators_reach_streamlits_caches() -> None:
    found = [hit for path in APP.rglob("*.py") if path != KEYS for hit in streamlit_caches(path)]
    assert found == []


def test_the_check_finds_a_direct_decorator(tmp_path: Path) -> None:
    module = tmp_path / "module.py"
    module.write_text(
        "import streamlit as st\n\n"
        "@st.cache_data(max_entries=2)\n"
        "def cached(_evaluation, key):\n    return key\n\n"
        "st.cache_resource.clear()\n",
        encoding="utf-8",
    )
    hits = [hit.rsplit(":", 1)[1] for hit in streamlit_caches(module, tmp_path)]
    assert hits == ["3"]  # the decorator, not the clearing
