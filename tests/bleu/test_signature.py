"""Tests of the reproducibility signature (bleuviz.bleu.signature).

For the sacrebleu flavour the oracle is sacrebleu 2.6.0 itself:
``str(BLEU(...).get_signature())`` after a ``corpus_score`` (the number of
references is only known then). The literal strings in SACREBLEU_GOLDEN were
printed by that call. For the nltk and tf-nmt flavours there is no oracle; the
literals follow the format documented in ``bleuviz.bleu.signature``: a
``flavor:`` prefix, no ``eff:`` field, the flavour's own smoothing name,
``order:`` (when not 4), ``weights:`` (when not uniform) and ``reweigh:yes``
before the version, and the replicated implementation as the version. The
sacrebleu flavour adds ``ngram:N`` before the version when the order is not 4
(sacrebleu's own string has no order, so BLEU-2 and BLEU-4 would look alike).
"""

from __future__ import annotations

import pytest
import sacrebleu
from sacrebleu.metrics.bleu import BLEU

from bleuviz.bleu import BleuConfig, corpus_score
from bleuviz.bleu.flavors.nltk import NLTK_VERSION
from bleuviz.bleu.flavors.tfnmt import TF_NMT_COMMIT
from bleuviz.bleu.references import build_reference_index
from bleuviz.bleu.signature import signature
from bleuviz.bleu.stats import compute_stats
from bleuviz.bleu.tokenize import TokenizeConfig

V = sacrebleu.__version__  # 2.6.0 when the literals below were printed

# (id, sacrebleu BLEU kwargs, number of references, signature from sacrebleu 2.6.0)
SACREBLEU_GOLDEN = [
    ("default", {}, 1, "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"),
    ("lowercase", {"lowercase": True}, 1,
     "nrefs:1|case:lc|eff:no|tok:13a|smooth:exp|version:2.6.0"),
    ("tok_intl", {"tokenize": "intl"}, 1,
     "nrefs:1|case:mixed|eff:no|tok:intl|smooth:exp|version:2.6.0"),
    ("tok_zh", {"tokenize": "zh"}, 1,
     "nrefs:1|case:mixed|eff:no|tok:zh|smooth:exp|version:2.6.0"),
    ("tok_char", {"tokenize": "char"}, 1,
     "nrefs:1|case:mixed|eff:no|tok:char|smooth:exp|version:2.6.0"),
    ("tok_none", {"tokenize": "none"}, 1,
     "nrefs:1|case:mixed|eff:no|tok:none|smooth:exp|version:2.6.0"),
    ("floor_default", {"smooth_method": "floor"}, 1,
     "nrefs:1|case:mixed|eff:no|tok:13a|smooth:floor[0.10]|version:2.6.0"),
    ("floor_0.2", {"smooth_method": "floor", "smooth_value": 0.2}, 1,
     "nrefs:1|case:mixed|eff:no|tok:13a|smooth:floor[0.20]|version:2.6.0"),
    ("add_k", {"smooth_method": "add-k"}, 1,
     "nrefs:1|case:mixed|eff:no|tok:13a|smooth:add-k[1.00]|version:2.6.0"),
    ("add_k_0.5", {"smooth_method": "add-k", "smooth_value": 0.5}, 1,
     "nrefs:1|case:mixed|eff:no|tok:13a|smooth:add-k[0.50]|version:2.6.0"),
    ("none", {"smooth_method": "none"}, 1,
     "nrefs:1|case:mixed|eff:no|tok:13a|smooth:none|version:2.6.0"),
    ("effective_order", {"effective_order": True}, 1,
     "nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|version:2.6.0"),
    ("nrefs_3", {}, 3, "nrefs:3|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"),
    # sacrebleu does not record the maximum order (nor an unused value for exp).
    ("order_2", {"max_ngram_order": 2}, 1,
     "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"),
    ("exp_with_value", {"smooth_method": "exp", "smooth_value": 0.3}, 1,
     "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"),
]  # fmt: skip


def bleuviz_config(kwargs: dict[str, object]) -> tuple[BleuConfig, TokenizeConfig]:
    """Translate sacrebleu's BLEU keyword arguments into bleuviz's configurations."""
    tok = TokenizeConfig(str(kwargs.get("tokenize", "13a")), bool(kwargs.get("lowercase", False)))
    config = BleuConfig(
        max_order=int(kwargs.get("max_ngram_order", 4)),  # type: ignore[call-overload]
        smooth=str(kwargs.get("smooth_method", "exp")),
        smooth_value=kwargs.get("smooth_value"),  # type: ignore[arg-type]
        effective_order=bool(kwargs.get("effective_order", False)),
    )
    return config, tok


@pytest.mark.parametrize(
    ("kwargs", "n_refs", "golden"),
    [case[1:] for case in SACREBLEU_GOLDEN],
    ids=[case[0] for case in SACREBLEU_GOLDEN],
)
def test_sacrebleu_signature(kwargs: dict[str, object], n_refs: int, golden: str) -> None:
    hyps, refs = ["The cat sat on the mat.", "A b"], [["The cat is on the mat.", "a b"]] * n_refs
    metric = BLEU(**kwargs)  # type: ignore[arg-type]
    metric.corpus_score(hyps, refs)
    expected = str(metric.get_signature())
    assert expected == golden.replace("version:2.6.0", f"version:{V}")
    order = int(kwargs.get("max_ngram_order", 4))  # type: ignore[call-overload]
    if order != 4:  # sacrebleu's string has no order: bleuviz adds ngram:N before version
        expected = expected.replace("|version:", f"|ngram:{order}|version:")
    config, tok = bleuviz_config(kwargs)
    assert signature(config, tok, n_refs) == expected
    stats = compute_stats(hyps, build_reference_index(refs, tok, config.max_order))
    assert corpus_score(stats, config, tok, n_refs).signature == expected


# (id, BleuConfig kwargs, TokenizeConfig, number of references, documented signature)
OTHER_FLAVOURS = [
    ("nltk_default", {"flavor": "nltk"}, TokenizeConfig(), 1,
     "flavor:nltk|nrefs:1|case:mixed|tok:13a|smooth:method0|version:nltk-3.10.4"),
    ("nltk_method3_lc_intl", {"flavor": "nltk", "smooth": "method3"},
     TokenizeConfig("intl", True), 2,
     "flavor:nltk|nrefs:2|case:lc|tok:intl|smooth:method3|version:nltk-3.10.4"),
    ("nltk_bleu2", {"flavor": "nltk", "max_order": 2, "weights": (0.5, 0.5)}, TokenizeConfig(), 1,
     "flavor:nltk|nrefs:1|case:mixed|tok:13a|smooth:method0|order:2|version:nltk-3.10.4"),
    ("nltk_trigram_only", {"flavor": "nltk", "weights": (0, 0, 1, 0), "smooth": "method1"},
     TokenizeConfig(), 1,
     "flavor:nltk|nrefs:1|case:mixed|tok:13a|smooth:method1|weights:0,0,1,0|version:nltk-3.10.4"),
    ("nltk_reweigh", {"flavor": "nltk", "auto_reweigh": True, "smooth": "method7"},
     TokenizeConfig(), 1,
     "flavor:nltk|nrefs:1|case:mixed|tok:13a|smooth:method7|reweigh:yes|version:nltk-3.10.4"),
    ("nltk_order5_weights",
     {"flavor": "nltk", "max_order": 5, "weights": (0.1, 0.2, 0.3, 0.2, 0.2)},
     TokenizeConfig("none"), 3,
     "flavor:nltk|nrefs:3|case:mixed|tok:none|smooth:method0|order:5|weights:0.1,0.2,0.3,0.2,0.2"
     "|version:nltk-3.10.4"),
    ("tfnmt_default", {"flavor": "tf-nmt"}, TokenizeConfig(), 1,
     "flavor:tf-nmt|nrefs:1|case:mixed|tok:13a|smooth:none|version:tf-nmt-0be8642"),
    ("tfnmt_add_one_order2", {"flavor": "tf-nmt", "smooth": "add-one", "max_order": 2},
     TokenizeConfig("intl", True), 3,
     "flavor:tf-nmt|nrefs:3|case:lc|tok:intl|smooth:add-one|order:2|version:tf-nmt-0be8642"),
    # The sacrebleu flavour keeps sacrebleu's string and adds ngram:N (when not 4) and
    # non-uniform weights.
    ("sacrebleu_weights", {"weights": (1, 0, 0, 0)}, TokenizeConfig(), 1,
     f"nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|weights:1,0,0,0|version:{V}"),
    ("sacrebleu_order2_uniform", {"max_order": 2, "weights": (0.5, 0.5)}, TokenizeConfig(), 2,
     f"nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|ngram:2|version:{V}"),
    # An option the flavour does not have changes nothing, so it is not signed.
    ("sacrebleu_reweigh_ignored", {"auto_reweigh": True}, TokenizeConfig(), 1,
     f"nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:{V}"),
    ("tfnmt_options_ignored", {"flavor": "tf-nmt", "auto_reweigh": True, "effective_order": True},
     TokenizeConfig(), 1,
     "flavor:tf-nmt|nrefs:1|case:mixed|tok:13a|smooth:none|version:tf-nmt-0be8642"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("kwargs", "tok", "n_refs", "golden"),
    [case[1:] for case in OTHER_FLAVOURS],
    ids=[case[0] for case in OTHER_FLAVOURS],
)
def test_documented_signature(
    kwargs: dict[str, object], tok: TokenizeConfig, n_refs: int, golden: str
) -> None:
    config = BleuConfig(**kwargs)  # type: ignore[arg-type]
    assert signature(config, tok, n_refs) == golden
    refs = [["a b c d e", "f"]] * n_refs
    stats = compute_stats(["a b c d", "f g"], build_reference_index(refs, tok, config.stats_order))
    assert corpus_score(stats, config, tok, n_refs).signature == golden


def test_versions() -> None:
    assert NLTK_VERSION == "3.10.4"
    assert TF_NMT_COMMIT == "0be8642"
    import nltk

    assert nltk.__version__ == NLTK_VERSION  # the oracle the nltk tests run against
