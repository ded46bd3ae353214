"""The two files that serve the app build the same ``st.App``.

Streamlit finds the app by reading a file for ``app = st.App(...)`` and does not
follow imports, so the checkout's ``serve.py`` and the installed
``bleuviz/app/serve.py`` (what ``bleuviz app`` runs) each spell it out. A start-up
hook or route added to one alone would leave the other without it (the page routes
of ``bleuviz.app.page_html``, say).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def code_of(path: Path) -> str:
    """The module's code without its docstring, as ``ast.dump`` writes it."""
    body = ast.parse(path.read_text(encoding="utf-8")).body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return "\n".join(ast.dump(node) for node in body)


def test_the_checkout_and_the_installed_server_build_the_same_app() -> None:
    checkout, installed = ROOT / "serve.py", ROOT / "bleuviz" / "app" / "serve.py"
    assert code_of(checkout) == code_of(installed)
    assert "page_routes" in code_of(installed) and "lifespan" in code_of(installed)
