"""The reproducibility signature of a BLEU score: sacrebleu's own, extended for other flavours.

sacrebleu 2.6's ``BLEUSignature`` (``sacrebleu/metrics/bleu.py``, formatted by
``Signature.format`` in ``metrics/base.py``, :func:`signature_text` here) writes
``nrefs``, ``case``, ``eff``, ``tok``, ``smooth`` and ``version``; a
smoothing that takes a value shows it in brackets with two decimals, its
default when none is given (``floor[0.10]``). The string is written here, so a
BLEU command with a columnar tokenizer never imports sacrebleu (0.1-0.2 s), and
tested equal to sacrebleu's own.
"""

from __future__ import annotations

import numpy as np

from bleuviz.bleu.config import BleuConfig
from bleuviz.bleu.flavors.sacrebleu import SMOOTH_DEFAULTS
from bleuviz.bleu.orders import DEFAULT_ORDER
from bleuviz.bleu.tokenize import TokenizeConfig, tokenizer_signature
from bleuviz.text.sacrebleu_signature import sacrebleu_version, signature_text


def signature(config: BleuConfig, tokenize: TokenizeConfig, n_refs: int) -> str:
    """Return the reproducibility signature; identical to sacrebleu's for its own settings.

    Settings sacrebleu cannot express are added: a ``flavor:`` prefix for nltk
    and tf-nmt (whose ``version`` names the implementation replicated), and
    before ``version`` the order (other flavours; ``ngram:N`` for sacrebleu's),
    non-uniform weights and nltk's auto_reweigh.
    """
    implementation = config.flavor_spec.implementation
    smooth = config.smoothing if implementation is None else "none"
    value = SMOOTH_DEFAULTS[smooth] if config.smooth_value is None else config.smooth_value
    text = signature_text(
        {
            "nrefs": n_refs,
            "case": "lc" if tokenize.lowercase else "mixed",
            "eff": "yes" if config.effective_order else "no",
            "tok": tokenizer_signature(tokenize.name),
            "smooth": smooth if SMOOTH_DEFAULTS[smooth] is None else f"{smooth}[{value:.2f}]",
        }
    )
    version = sacrebleu_version()
    extra = _extra_fields(config)
    if implementation is not None:
        text = (
            text.replace("|eff:no", "")
            .replace("|eff:yes", "")
            .replace("|smooth:none", f"|smooth:{config.smoothing}")
        )
    if extra:
        text = text.replace(f"|version:{version}", f"|{extra}|version:{version}")
    if implementation is not None:
        text = f"flavor:{config.flavor}|" + text.replace(
            f"version:{version}", f"version:{implementation}"
        )
    return text


def _extra_fields(config: BleuConfig) -> str:
    """Fields beyond sacrebleu's: max order (when not 4), non-uniform weights, auto_reweigh."""
    fields = []
    if config.max_order != DEFAULT_ORDER:
        # sacrebleu's own signature has no order field (BLEU-2 and BLEU-4 would look
        # alike): the sacrebleu flavour adds ngram:N, the others keep order:N.
        name = "order" if config.flavor_spec.implementation is not None else "ngram"
        fields.append(f"{name}:{config.max_order}")
    uniform = np.allclose(config.weight_vector, 1.0 / config.max_order, rtol=0, atol=0)
    if not uniform:
        fields.append("weights:" + ",".join(f"{w:g}" for w in config.weight_vector))
    if config.auto_reweigh and config.flavor_spec.auto_reweigh:  # others ignore it, as eff
        fields.append("reweigh:yes")
    return "|".join(fields)
