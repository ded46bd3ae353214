"""A new server imports what its scripts import on a thread, before the first page asks.

The first page run of a cold server spent 0.7 s of its 0.96 s importing and in
Streamlit's REPL check (``bleuviz.app.lifespan``); with the imports done ahead it
takes about 0.25 s on WMT17 en-de.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bleuviz.app.lifespan import MAIN_SCRIPT, script_imports
from bleuviz.app.routes import PAGE_SCRIPTS


def test_script_imports_lists_absolute_imports_once(tmp_path: Path) -> None:
    script = tmp_path / "page.py"
    script.write_text(
        "import os, json as j\n"
        "from collections.abc import Callable\n"
        "from . import sibling\n"
        "from .near import thing\n"
        "import os\n"
        "def later():\n"
        "    from textwrap import dedent\n",
        encoding="utf-8",
    )
    assert script_imports(script) == ["os", "json", "collections.abc", "textwrap"]


def test_import_ahead_imports_every_scripts_modules_in_a_new_process() -> None:
    """In a fresh interpreter (this one has imported everything already)."""
    wanted = sorted(
        {name for s in [MAIN_SCRIPT, *PAGE_SCRIPTS.glob("*.py")] for name in script_imports(s)}
    )
    assert "bleuviz.app.frame" in wanted and "pandas" not in wanted  # pandas comes with them
    probe = (
        "import json, sys\n"
        "from bleuviz.app.lifespan import import_ahead\n"
        f"wanted = {wanted!r}\n"
        "before = [n for n in wanted if n in sys.modules]\n"
        "import_ahead()\n"
        "import streamlit.delta_generator as dg\n"
        "print(json.dumps({'before': before, 'missing': [n for n in wanted if n not in "
        "sys.modules], 'pandas': 'pandas' in sys.modules, "
        "'repl_checked': dg._use_warning_has_been_displayed}))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert "bleuviz.app.frame" not in result["before"]  # the probe starts cold
    assert result["missing"] == []
    assert result["pandas"] and result["repl_checked"]
