"""chrF's reproducibility signature in sacrebleu's format, without importing sacrebleu.

sacrebleu 2.6's ``CHRFSignature`` (``sacrebleu/metrics/chrf.py``) writes
``nrefs``, ``case``, ``eff``, ``nc``, ``nw``, ``space`` and ``version`` in that
order, in ``Signature.format``'s form (:func:`bleuviz.text.sacrebleu_signature.signature_text`).
Importing sacrebleu for that string takes 0.1-0.2 s, a third of the one-file
``score -m chrf`` command; the string is written here and tested equal to
sacrebleu's own.
"""

from __future__ import annotations

from bleuviz.metrics.chrf_score import ChrfConfig
from bleuviz.text.sacrebleu_signature import signature_text


def chrf_signature(config: ChrfConfig, n_refs: int) -> str:
    """Return sacrebleu's signature of ``CHRF`` with ``config`` for ``n_refs`` references.

    Epsilon smoothing and whitespace are off (``ChrfConfig`` offers neither), so
    ``eff`` is ``yes`` and ``space`` is ``no``, as sacrebleu writes them then.
    """
    return signature_text(
        {
            "nrefs": n_refs,
            "case": "lc" if config.lowercase else "mixed",
            "eff": "yes",
            "nc": config.char_order,
            "nw": config.word_order,
            "space": "no",
        }
    )
