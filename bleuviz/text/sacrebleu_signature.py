"""Signatures in sacrebleu's format, and the installed sacrebleu's version, without importing it.

sacrebleu 2.6's ``Signature.format`` (``sacrebleu/metrics/base.py``) writes a
metric's fields as ``key:value`` joined by ``|``, ``version`` (its
``__version__``) last. BLEU's and chrF's signatures are written here in that
format; importing sacrebleu for those strings takes 0.1-0.2 s, a third of a
small command.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping
from functools import cache
from pathlib import Path


def signature_text(fields: Mapping[str, object]) -> str:
    """Return ``fields`` as sacrebleu writes a signature, with its ``version`` last."""
    return "|".join(
        f"{key}:{value}" for key, value in {**fields, "version": sacrebleu_version()}.items()
    )


@cache
def sacrebleu_version() -> str:
    """The installed sacrebleu's ``__version__``, without importing sacrebleu.

    sacrebleu 2.x keeps it in ``sacrebleu/version.py``, a file setuptools-scm
    writes with no imports; that file alone is run. (``importlib.metadata`` reads
    it from the package's metadata instead, but imports the email parser, 25 ms.)
    Without that file, sacrebleu itself is imported.
    """
    package = importlib.util.find_spec("sacrebleu")
    origin = package.origin if package is not None else None
    path = Path(origin).with_name("version.py") if origin else None
    spec = importlib.util.spec_from_file_location("_sacrebleu_version", path) if path else None
    if path is None or not path.is_file() or spec is None or spec.loader is None:
        import sacrebleu

        return str(sacrebleu.__version__)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return str(module.__version__)
