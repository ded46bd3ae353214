"""One name per concept: names that once meant two or three things are defined once.

``explain_segment`` is BLEU's explanation of a segment (``bleuviz.bleu.explain``):
ROUGE's is ``explain_rouge_types``, and the notebook's view of BLEU's is
``explained_segment``, which ``bleuviz/__init__.py`` exports as the public
``bleuviz.explain_segment``. ``PairTest`` is a tested pair of systems
(``bleuviz.significance.all_pairs``); what the Compare page's bucket test runs
with is ``BucketTest``. The check reads the source: a module defines a name by
a top-level ``def``, ``class`` or assignment; an import (``import x as name``)
only refers to it.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Each name and the one module that defines it.
DEFINED_ONCE = {
    "explain_segment": "bleuviz.bleu.explain",
    "PairTest": "bleuviz.significance.all_pairs",
}


def _bound(node: ast.stmt) -> list[str]:
    """The names a top-level statement defines (not imports)."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name]
    targets = node.targets if isinstance(node, ast.Assign) else []
    if isinstance(node, ast.AnnAssign):
        targets = [node.target]
    return [t.id for t in targets if isinstance(t, ast.Name)]


def definitions(package_dir: Path, package: str) -> dict[str, list[str]]:
    """Every top-level name defined under ``package_dir``, with the modules defining it."""
    found: dict[str, list[str]] = defaultdict(list)
    for path in sorted(package_dir.rglob("*.py")):
        parts = path.relative_to(package_dir).with_suffix("").parts
        module = ".".join((package, *(parts[:-1] if parts[-1] == "__init__" else parts)))
        for node in ast.parse(path.read_text("utf-8"), str(path)).body:
            for name in _bound(node):
                found[name].append(module)
    return found


def test_each_name_is_defined_once_where_it_belongs() -> None:
    found = definitions(ROOT / "bleuviz", "bleuviz")
    assert {name: found[name] for name in DEFINED_ONCE} == {
        name: [module] for name, module in DEFINED_ONCE.items()
    }


def test_the_check_counts_definitions_not_imports(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("from pkg.view import shown as explain\n")
    (package / "core.py").write_text("def explain():\n    pass\n\nclass Pair:\n    pass\n")
    (package / "view.py").write_text(
        "from pkg.core import explain\n\nshown = wrap(explain)\nexplain = wrap(explain)\n"
        "Pair: type = object\n"
    )
    found = definitions(package, "pkg")
    assert found["explain"] == ["pkg.core", "pkg.view"]
    assert found["Pair"] == ["pkg.core", "pkg.view"]
    assert found["shown"] == ["pkg.view"]
