"""BLEU from sufficient statistics: flavours, smoothing, weights and signatures.

The maths never sees text: a corpus score is computed from the sum of its
segments' rows, a sentence score from one row, a bootstrap sample from a
resampled sum. Each flavour equals its reference implementation on the same
tokens (sacrebleu 2.x, nltk 3.10, tensorflow/nmt); all scores are 0-100.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
import sacrebleu

from bleuviz.bleu.flavors.nltk import NLTK_METHODS, nltk_rows
from bleuviz.bleu.flavors.sacrebleu import SMOOTH_DEFAULTS, sacrebleu_rows
from bleuviz.bleu.flavors.tfnmt import TF_NMT_SMOOTHING, tfnmt_rows
from bleuviz.bleu.result import BleuArrays, BleuScore, FloatArray
from bleuviz.bleu.stats import Index, SegmentStats
from bleuviz.bleu.tokenize import TokenizeConfig, tokenizer_signature
from bleuviz.errors import ConfigError

FLAVORS: tuple[str, ...] = ("sacrebleu", "nltk", "tf-nmt")
SMOOTHING: dict[str, tuple[str, ...]] = {
    "sacrebleu": tuple(SMOOTH_DEFAULTS),
    "nltk": NLTK_METHODS,
    "tf-nmt": TF_NMT_SMOOTHING,
}
DEFAULT_SMOOTHING = {"sacrebleu": "exp", "nltk": "method0", "tf-nmt": "none"}
# Versions whose behaviour each flavour replicates (and is tested against).
NLTK_VERSION = "3.10.4"
TF_NMT_COMMIT = "0be8642"


@dataclass(frozen=True, slots=True)
class BleuConfig:
    """How statistics become a score.

    Attributes:
        flavor: "sacrebleu", "nltk" or "tf-nmt".
        max_order: highest n-gram order (nltk: the length of ``weights`` when given).
        weights: per-order weights; None means uniform 1/max_order.
        smooth: smoothing name for the flavour (see SMOOTHING); None means its default.
        smooth_value: value for sacrebleu's floor / add-k (None: 0.1 / 1).
        effective_order: sacrebleu only: average only the orders that have n-grams.
        auto_reweigh: nltk only: reweigh uniformly for hypotheses shorter than 4.
    """

    flavor: str = "sacrebleu"
    max_order: int = 4
    weights: tuple[float, ...] | None = None
    smooth: str | None = None
    smooth_value: float | None = None
    effective_order: bool = False
    auto_reweigh: bool = False
    _resolved: tuple[str, tuple[float, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.flavor not in FLAVORS:
            raise ConfigError(
                f"flavor: unknown {self.flavor!r}; choose one of {', '.join(FLAVORS)}"
            )
        smooth = DEFAULT_SMOOTHING[self.flavor] if self.smooth is None else self.smooth
        if smooth not in SMOOTHING[self.flavor]:
            choices = ", ".join(SMOOTHING[self.flavor])
            raise ConfigError(
                f"smooth: {smooth!r} is not a {self.flavor} smoothing; choose {choices}"
            )
        order = len(self.weights) if self.weights else self.max_order
        if not 1 <= order <= 9:
            raise ConfigError(f"max_order: must be between 1 and 9, got {order}")
        if self.weights is not None and len(self.weights) != self.max_order:
            raise ConfigError(
                f"weights: {len(self.weights)} weights given for max_order {self.max_order}"
            )
        weights = self.weights or tuple(1.0 / order for _ in range(order))
        if any(w < 0 or not np.isfinite(w) for w in weights) or sum(weights) <= 0:
            raise ConfigError(f"weights: must be non-negative with a positive sum, got {weights}")
        object.__setattr__(self, "_resolved", (smooth, tuple(float(w) for w in weights)))

    @property
    def smoothing(self) -> str:
        """The smoothing name in effect."""
        return self._resolved[0]

    @property
    def weight_vector(self) -> FloatArray:
        """Per-order weights in effect."""
        return np.asarray(self._resolved[1], dtype=np.float64)

    @property
    def stats_order(self) -> int:
        """Orders the statistics must hold: nltk's method5/7 also read 5-gram precision."""
        if self.flavor == "nltk" and self.smoothing in ("method5", "method7"):
            return max(self.max_order, 5)
        return self.max_order

    def for_sentences(self) -> BleuConfig:
        """Return the configuration sacrebleu's ``sentence_bleu`` uses (effective order on)."""
        return replace(self, effective_order=True) if self.flavor == "sacrebleu" else self


def score_rows(
    rows: SegmentStats, config: BleuConfig, last: SegmentStats | None = None
) -> BleuArrays:
    """Score every row of ``rows``; ``last`` is nltk's last-segment context (default: the rows)."""
    if rows.max_order < config.stats_order:
        raise ConfigError(
            f"max_order: statistics hold {rows.max_order} orders, {config.stats_order} needed"
        )
    weights = config.weight_vector
    if config.flavor == "sacrebleu":
        return sacrebleu_rows(
            rows.matches,
            rows.totals,
            rows.hyp_len,
            rows.closest_ref_len,
            weights,
            config.smoothing,
            config.smooth_value,
            config.effective_order,
        )
    if config.flavor == "nltk":
        context = rows if last is None else last
        return nltk_rows(rows, context, weights, config.smoothing, config.auto_reweigh)
    return tfnmt_rows(
        rows.matches, rows.totals, rows.hyp_len, rows.shortest_ref_len, weights, config.smoothing
    )


def sentence_scores(stats: SegmentStats, config: BleuConfig) -> BleuArrays:
    """Score every segment on its own (sacrebleu flavour: ``sentence_bleu`` semantics)."""
    return score_rows(stats, config.for_sentences())


def corpus_score(
    stats: SegmentStats,
    config: BleuConfig,
    tokenize: TokenizeConfig,
    n_refs: int,
    index: Index | None = None,
) -> BleuScore:
    """Return corpus BLEU of the segments at ``index`` (all by default) from their summed rows."""
    subset = stats if index is None else stats.select(index)
    if len(subset) == 0:
        raise ConfigError("index: the selection holds no segments")
    total = subset.total()
    arrays = score_rows(total, config, last=subset.select([len(subset) - 1]))
    return to_score(arrays, total, config, signature(config, tokenize, n_refs))


def to_score(
    arrays: BleuArrays, rows: SegmentStats, config: BleuConfig, sig: str, row: int = 0
) -> BleuScore:
    """Turn row ``row`` of a score array into a BleuScore."""
    k = config.max_order
    ref_len = rows.shortest_ref_len if config.flavor == "tf-nmt" else rows.closest_ref_len
    return BleuScore(
        score=float(arrays.score[row]),
        precisions=tuple(float(p) for p in arrays.precisions[row, :k]),
        counts=tuple(int(c) for c in rows.matches[row, :k]),
        totals=tuple(int(t) for t in rows.totals[row, :k]),
        bp=float(arrays.bp[row]),
        ratio=float(arrays.ratio[row]),
        hyp_len=int(rows.hyp_len[row]),
        ref_len=int(ref_len[row]),
        signature=sig,
    )


def signature(config: BleuConfig, tokenize: TokenizeConfig, n_refs: int) -> str:
    """Return the reproducibility signature; identical to sacrebleu's for its own settings.

    sacrebleu's own ``BLEUSignature`` builds the string, so field order and
    formatting are its own. Settings sacrebleu cannot express are added: a
    ``flavor:`` prefix for nltk and tf-nmt (whose ``version`` names the
    implementation replicated), and before ``version`` the order (other
    flavours), non-uniform weights and nltk's auto_reweigh.
    """
    from sacrebleu.metrics.bleu import BLEUSignature

    sacre_smooth = config.smoothing if config.flavor == "sacrebleu" else "none"
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
    if config.flavor != "sacrebleu":
        text = (
            text.replace("|eff:no", "")
            .replace("|eff:yes", "")
            .replace("|smooth:none", f"|smooth:{config.smoothing}")
        )
    if extra:
        text = text.replace(
            f"|version:{sacrebleu.__version__}", f"|{extra}|version:{sacrebleu.__version__}"
        )
    if config.flavor != "sacrebleu":
        text = f"flavor:{config.flavor}|" + text.replace(
            f"version:{sacrebleu.__version__}", _impl_version(config)
        )
    return text


def _extra_fields(config: BleuConfig) -> str:
    """Fields beyond sacrebleu's: max order (when not 4) and non-uniform weights."""
    fields = []
    if config.max_order != 4 and config.flavor != "sacrebleu":
        fields.append(f"order:{config.max_order}")
    uniform = np.allclose(config.weight_vector, 1.0 / config.max_order, rtol=0, atol=0)
    if not uniform:
        fields.append("weights:" + ",".join(f"{w:g}" for w in config.weight_vector))
    if config.auto_reweigh:
        fields.append("reweigh:yes")
    return "|".join(fields)


def _impl_version(config: BleuConfig) -> str:
    """The reference implementation a non-sacrebleu flavour replicates."""
    if config.flavor == "nltk":
        return f"version:nltk-{NLTK_VERSION}"
    return f"version:tf-nmt-{TF_NMT_COMMIT}"


def group_scores(
    stats: SegmentStats, config: BleuConfig, groups: Index, n_groups: int
) -> BleuArrays:
    """Return corpus BLEU of each group (document, bucket) from its summed statistics.

    ``groups`` labels every segment with 0..n_groups-1. nltk's last-segment
    context is each group's last segment.
    """
    labels = np.asarray(groups, dtype=np.int64)
    totals = stats.group_totals(labels, n_groups)
    last_index = np.zeros(n_groups, dtype=np.int64)
    last_index[labels] = np.arange(len(labels))  # later positions overwrite earlier ones
    return score_rows(totals, config, last=stats.select(last_index))
