"""The reproducibility signature of a BLEU score: sacrebleu's own, extended for other flavours."""

from __future__ import annotations

import numpy as np
import sacrebleu

from bleuviz.bleu.config import BleuConfig
from bleuviz.bleu.orders import DEFAULT_ORDER
from bleuviz.bleu.tokenize import TokenizeConfig, tokenizer_signature


def signature(config: BleuConfig, tokenize: TokenizeConfig, n_refs: int) -> str:
    """Return the reproducibility signature; identical to sacrebleu's for its own settings.

    sacrebleu's own ``BLEUSignature`` builds the string, so field order and
    formatting are its own. Settings sacrebleu cannot express are added: a
    ``flavor:`` prefix for nltk and tf-nmt (whose ``version`` names the
    implementation replicated), and before ``version`` the order (other
    flavours; ``ngram:N`` for sacrebleu's), non-uniform weights and nltk's auto_reweigh.
    """
    from sacrebleu.metrics.bleu import BLEUSignature

    implementation = config.flavor_spec.implementation
    sacre_smooth = config.smoothing if implementation is None else "none"
    args = {
        "num_refs": n_refs,
        "lowercase": tokenize.lowercase,
        "effective_order": config.effective_order,
        "tokenizer_signature": tokenizer_signature(tokenize.name),
        "smooth_method": sacre_smooth,
        "smooth_value": config.smooth_value,
    }
    sig = BLEUSignature(args)
    text = sig.format()
    extra = _extra_fields(config)
    if implementation is not None:
        text = (
            text.replace("|eff:no", "")
            .replace("|eff:yes", "")
            .replace("|smooth:none", f"|smooth:{config.smoothing}")
        )
    if extra:
        text = text.replace(
            f"|version:{sacrebleu.__version__}", f"|{extra}|version:{sacrebleu.__version__}"
        )
    if implementation is not None:
        text = f"flavor:{config.flavor}|" + text.replace(
            f"version:{sacrebleu.__version__}", f"version:{implementation}"
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
