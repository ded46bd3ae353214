"""Package re-exports that import their module on first use.

Each stage's ``__init__`` names its public API, but importing one module of a
stage (the command line imports a handful) must not import the whole stage:
ROUGE, pandas and plotly take a second to import between them.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping


def lazy_exports(
    package: str, exports: Mapping[str, str]
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """Return a package's ``__getattr__`` and ``__dir__`` for ``exports`` (name -> module).

    A name is imported from its module when first read, then kept in the
    package's namespace (PEP 562). ``"module:attribute"`` exports a value that
    its module defines under another name (the notebook's views of the core's
    functions, which keep one definition per name).
    """

    def __getattr__(name: str) -> object:
        if name not in exports:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, _, attribute = exports[name].partition(":")
        value = getattr(importlib.import_module(module), attribute or name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(exports)

    return __getattr__, __dir__
