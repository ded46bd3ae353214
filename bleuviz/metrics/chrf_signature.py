"""chrF's reproducibility signature in sacrebleu's format, without importing sacrebleu.

sacrebleu 2.6's ``CHRFSignature`` (``sacrebleu/metrics/chrf.py``) writes
``nrefs``, ``case``, ``eff``, ``nc``, ``nw``, ``space`` and ``version`` in that
order, ``key:value`` joined by ``|`` (``Signature.format``). Importing sacrebleu
for that string takes 0.1-0.2 s, a third of the one-file ``score -m chrf``
command; the string is written here and tested equal to sacrebleu's own.
"""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path

from bleuviz.metrics.chrf_score import ChrfConfig


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


def chrf_signature(config: ChrfConfig, n_refs: int) -> str:
    """Return sacrebleu's signature of ``CHRF`` with ``config`` for ``n_refs`` references.

    Epsilon smoothing and whitespace are off (``ChrfConfig`` offers neither), so
    ``eff`` is ``yes`` and ``space`` is ``no``, as sacrebleu writes them then.
    """
    fields = {
        "nrefs": n_refs,
        "case": "lc" if config.lowercase else "mixed",
        "eff": "yes",
        "nc": config.char_order,
        "nw": config.word_order,
        "space": "no",
        "version": sacrebleu_version(),
    }
    return "|".join(f"{key}:{value}" for key, value in fields.items())
