"""BLEU as tensorflow/nmt computes it (nmt/scripts/bleu.py, ``compute_bleu``).

This is also Hugging Face evaluate's ``bleu`` metric, which loads that file.
It differs from sacrebleu in three ways: the brevity penalty uses the *shortest*
reference of each segment, the optional smoothing adds 1 to the matches and
the possible matches of every order (Lin and Och, 2004), and any zero
precision makes the score 0.

The original divides by zero when the hypotheses are empty (``1 / ratio``) or
the references are empty (``ratio``). Hugging Face evaluate's copy
(metrics/bleu/nmt_bleu.py, at 4c312af) sets the ratio and BP to 0 when either
length is 0, so BLEU is 0; bleuviz does the same.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from bleuviz.arrays import FloatArray, IntArray
from bleuviz.bleu.flavors.base import Flavor, ScoringSettings
from bleuviz.bleu.result import BleuArrays

if TYPE_CHECKING:
    from bleuviz.bleu.stats import SegmentStats

TF_NMT_SMOOTHING: tuple[str, ...] = ("none", "add-one")
#: The tensorflow/nmt commit whose nmt/scripts/bleu.py is replicated.
TF_NMT_COMMIT = "0be8642"


def tfnmt_rows(
    matches: IntArray,
    totals: IntArray,
    hyp_len: IntArray,
    shortest_ref_len: IntArray,
    weights: FloatArray,
    smooth: str = "none",
) -> BleuArrays:
    """Score M rows with tensorflow/nmt's ``compute_bleu``; weights default to 1/max_order."""
    k = len(weights)
    m = matches[:, :k].astype(np.float64)
    t = totals[:, :k].astype(np.float64)
    if smooth == "add-one":
        precisions = (m + 1.0) / (t + 1.0)
    else:
        precisions = np.divide(m, t, out=np.zeros_like(m), where=t > 0)
    positive = precisions.min(axis=1) > 0
    with np.errstate(divide="ignore"):
        logs = np.log(np.where(precisions > 0, precisions, 1.0))
    geo_mean = np.where(positive, np.exp((weights[None, :] * logs).sum(axis=1)), 0.0)
    ratio = np.divide(
        hyp_len.astype(np.float64),
        shortest_ref_len,
        out=np.full(len(hyp_len), np.inf),
        where=shortest_ref_len > 0,
    )
    # evaluate's nmt_bleu.py: "if reference_length == 0 or translation_length == 0",
    # ratio and BP are 0.
    bp = np.where(shortest_ref_len == 0, 0.0, _brevity_penalty(ratio, hyp_len))
    ratio = np.where(np.isinf(ratio), 0.0, ratio)
    return BleuArrays(100.0 * geo_mean * bp, 100.0 * precisions, bp, ratio)


def _brevity_penalty(ratio: FloatArray, hyp_len: IntArray) -> FloatArray:
    """Return 1 if ratio > 1, else exp(1 - 1/ratio); 0 for an empty hypothesis side."""
    with np.errstate(divide="ignore"):
        inverse = np.divide(1.0, ratio, out=np.zeros_like(ratio), where=ratio > 0)
    bp = np.where(ratio > 1.0, 1.0, np.exp(1.0 - inverse))
    return np.where(hyp_len == 0, 0.0, bp)


def _score(
    rows: SegmentStats, last: SegmentStats, weights: FloatArray, config: ScoringSettings
) -> BleuArrays:
    """Score rows as ``compute_bleu`` (``last`` is not used)."""
    return tfnmt_rows(
        rows.matches, rows.totals, rows.hyp_len, rows.shortest_ref_len, weights, config.smoothing
    )


FLAVOR = Flavor(
    name="tf-nmt",
    replicates=f"tensorflow/nmt {TF_NMT_COMMIT}, nmt/scripts/bleu.py compute_bleu "
    "(Hugging Face evaluate's bleu)",
    implementation=f"tf-nmt-{TF_NMT_COMMIT}",
    smoothing=TF_NMT_SMOOTHING,
    default_smoothing="none",
    brevity_reference="shortest",
    score=_score,
)
