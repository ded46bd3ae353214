"""No cached function, nor anything a worker thread runs, reads Streamlit's session state.

Off the script thread (``with_progress``'s worker), ``st.session_state`` reads
as empty, and a cached function that reads it is keyed on less than it depends
on. The check reads the source: from every function decorated with
``st.cache_data`` / ``st.cache_resource`` and every function (or lambda) passed
to ``with_progress`` or ``shared_progress`` (the worker's ``compute``) in
``bleuviz/app``, it follows every reference to another
function of the app (a call, or a function handed on as a value) and reports
each path that reaches ``session_state``. Methods called on objects are not
followed (their class is not known from the source alone).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: What runs work on a worker thread, by dotted name: where its ``compute`` is passed
#: (position, keyword).
WORKERS = {
    "bleuviz.app.ui.cache.background.with_progress": (1, "compute"),
    "bleuviz.app.ui.cache.background.shared_progress": (2, "compute"),
}
CACHES = {"cache_data", "cache_resource"}
#: The app's own decorators (``ui/cache/keys.py``): Streamlit's, keying an evaluation by content.
APP_CACHES = {"cached_data", "cached_resource"}


class _Module:
    """One module's top-level functions and the names it imports."""

    def __init__(self, name: str, tree: ast.Module) -> None:
        self.name = name
        self.functions = {
            node.name: node
            for node in tree.body
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        }
        self.imports: dict[str, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    self.imports[alias.asname or alias.name] = f"{node.module}.{alias.name}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    self.imports[alias.asname or alias.name.split(".")[0]] = (
                        alias.name if alias.asname else alias.name.split(".")[0]
                    )

    def resolve(self, node: ast.expr) -> str | None:
        """The dotted name ``node`` refers to, if it is a name or ``module.name``."""
        if isinstance(node, ast.Name):
            if node.id in self.functions:
                return f"{self.name}.{node.id}"
            return self.imports.get(node.id)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            base = self.imports.get(node.value.id)
            return None if base is None else f"{base}.{node.attr}"
        return None


def _modules(package_dir: Path, package: str) -> dict[str, _Module]:
    """Every module under ``package_dir`` (the package ``package``) by dotted name."""
    found = {}
    for path in sorted(package_dir.rglob("*.py")):
        parts = path.relative_to(package_dir).with_suffix("").parts
        inner = parts[:-1] if parts[-1] == "__init__" else parts
        name = ".".join((package, *inner))
        found[name] = _Module(name, ast.parse(path.read_text("utf-8"), str(path)))
    return found


def _functions(modules: dict[str, _Module]) -> dict[str, tuple[_Module, ast.AST]]:
    """Every top-level function, by dotted name, with its module."""
    return {
        f"{m.name}.{fn}": (m, node) for m in modules.values() for fn, node in m.functions.items()
    }


def _canonical(name: str, modules: dict[str, _Module]) -> str:
    """Follow re-exports (``from a import f`` in module b, then ``b.f``) to the definition."""
    for _ in range(10):
        module, _, attr = name.rpartition(".")
        held = modules.get(module)
        if held is None or attr in held.functions or attr not in held.imports:
            return name
        name = held.imports[attr]
    return name


def _locals(node: ast.AST) -> set[str]:
    """Names bound inside ``node``: parameters (its own and nested ones) and assignments."""
    bound = {
        a.arg
        for child in ast.walk(node)
        if isinstance(child, ast.arguments)
        for a in (*child.posonlyargs, *child.args, *child.kwonlyargs, child.vararg, child.kwarg)
        if a is not None
    }
    stored = {
        n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }
    return bound | stored


def _references(module: _Module, node: ast.AST, modules: dict[str, _Module]) -> Iterator[str]:
    """The functions ``node``'s body names (called or passed on), canonical."""
    local = _locals(node)
    for child in ast.walk(node):
        if isinstance(child, ast.Name) and child.id in local:
            continue
        if isinstance(child, ast.Name | ast.Attribute):
            target = module.resolve(child)
            if target is not None:
                yield _canonical(target, modules)


def _reads_state(node: ast.AST) -> bool:
    """Whether ``node``'s body touches ``session_state`` itself."""
    return any(
        (isinstance(n, ast.Attribute) and n.attr == "session_state")
        or (isinstance(n, ast.Name) and n.id == "session_state")
        for n in ast.walk(node)
    )


def _is_cached(node: ast.AST) -> bool:
    """Whether a function is decorated with ``st.cache_data`` or ``st.cache_resource``, or
    with the app's ``cached_data`` or ``cached_resource``."""
    decorators = getattr(node, "decorator_list", [])
    for decorator in decorators:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(target, ast.Attribute) and target.attr in CACHES:
            return True
        if isinstance(target, ast.Name) and target.id in APP_CACHES:
            return True
    return False


def _compute(call: ast.Call, where: tuple[int, str]) -> ast.expr | None:
    """The work a call to a worker hands on, by position or keyword (None if absent)."""
    position, keyword = where
    if len(call.args) > position:
        return call.args[position]
    return next((k.value for k in call.keywords if k.arg == keyword), None)


def _roots(
    modules: dict[str, _Module], workers: Mapping[str, tuple[int, str]]
) -> Iterator[tuple[str, _Module, ast.AST]]:
    """Cached functions, and what is handed to a worker (a lambda or a function)."""
    for name, (module, node) in _functions(modules).items():
        if _is_cached(node):
            yield name, module, node
        for call in ast.walk(node):
            if not isinstance(call, ast.Call):
                continue
            worker = _canonical(module.resolve(call.func) or "", modules)
            work = _compute(call, workers[worker]) if worker in workers else None
            if work is not None:
                yield f"{worker.rpartition('.')[2]} work in {name}", module, work


def state_reads(
    package_dir: Path, package: str, workers: Mapping[str, tuple[int, str]] = WORKERS
) -> list[str]:
    """Every path from a cached function or worker work to a function that reads state."""
    modules = _modules(package_dir, package)
    functions = _functions(modules)
    found = []
    for root, module, node in _roots(modules, workers):
        seen: set[str] = set()
        todo: list[tuple[list[str], _Module, ast.AST]] = [([root], module, node)]
        while todo:
            path, where, body = todo.pop()
            if _reads_state(body):
                found.append(" -> ".join(path))
                continue
            for target in _references(where, body, modules):
                if target in functions and target not in seen:
                    seen.add(target)
                    todo.append(([*path, target], *functions[target]))
    return sorted(set(found))


def test_no_cached_function_or_worker_reads_session_state() -> None:
    assert state_reads(ROOT / "bleuviz" / "app", "bleuviz.app") == []


def test_the_check_finds_a_read_through_calls_and_workers(tmp_path: Path) -> None:
    """The check itself: it finds reads two calls deep, via a cache and via either worker.

    ``shared_progress`` takes its work third (after the key), by position or keyword.
    """
    package = tmp_path / "pkg"
    (package / "ui" / "cache").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "ui" / "__init__.py").write_text("")
    (package / "ui" / "cache" / "__init__.py").write_text("")
    (package / "ui" / "cache" / "background.py").write_text(
        "def with_progress(title, compute):\n    return compute(None)\n\n"
        "def shared_progress(key, title, compute):\n    return compute(None)\n"
    )
    (package / "ui" / "state.py").write_text(
        "import streamlit as st\n\n"
        "def lowercase():\n    return st.session_state.get('lowercase')\n\n"
        "def passed(lowercase):\n    return lowercase\n"
    )
    (package / "ui" / "work.py").write_text(
        "import streamlit as st\n"
        "from pkg.ui import state\n"
        "from pkg.ui.cache import background\n"
        "from pkg.ui.cache.background import shared_progress, with_progress\n"
        "from pkg.ui.state import lowercase, passed\n\n"
        "def helper():\n    return lowercase()\n\n"
        "@st.cache_data(max_entries=2)\n"
        "def cached(key):\n    return helper()\n\n"
        "@st.cache_resource\n"
        "def pure(key, flag):\n    return passed(flag)\n\n"
        "def page():\n"
        "    flag = lowercase()\n"
        "    with_progress('t', lambda report: state.lowercase())\n"
        "    shared_progress(('k', flag), 't', lambda report: passed(flag))\n"
        "    return pure(1, flag)\n\n"
        "def shared():\n"
        "    return shared_progress('k', 't', lambda report: helper())\n\n"
        "def by_keyword():\n"
        "    return background.shared_progress(key='k', title='t', compute=helper)\n"
    )
    workers = {name.replace("bleuviz.app.", "pkg."): where for name, where in WORKERS.items()}
    found = state_reads(package, "pkg", workers)
    assert found == [
        "pkg.ui.work.cached -> pkg.ui.work.helper -> pkg.ui.state.lowercase",
        "shared_progress work in pkg.ui.work.by_keyword -> pkg.ui.work.helper"
        " -> pkg.ui.state.lowercase",
        "shared_progress work in pkg.ui.work.shared -> pkg.ui.work.helper"
        " -> pkg.ui.state.lowercase",
        "with_progress work in pkg.ui.work.page -> pkg.ui.state.lowercase",
    ]


def test_the_check_follows_the_apps_own_cache_decorators(tmp_path: Path) -> None:
    """A function cached with ``cached_data`` (``ui/cache/keys.py``) is checked as well."""
    package = tmp_path / "pkg"
    (package / "ui" / "cache").mkdir(parents=True)
    for folder in (package, package / "ui", package / "ui" / "cache"):
        (folder / "__init__.py").write_text("")
    (package / "ui" / "cache" / "background.py").write_text(
        "def with_progress(title, compute):\n    return compute(None)\n"
    )
    (package / "ui" / "cache" / "keys.py").write_text(
        "def cached_data(**options):\n    return lambda f: f\n"
    )
    (package / "ui" / "work.py").write_text(
        "import streamlit as st\n"
        "from pkg.ui.cache.keys import cached_data\n\n"
        "@cached_data(max_entries=2)\n"
        "def cached(evaluation):\n    return st.session_state.get('lowercase')\n"
    )
    found = state_reads(package, "pkg", {"pkg.ui.cache.background.with_progress": (1, "compute")})
    assert found == ["pkg.ui.work.cached"]
