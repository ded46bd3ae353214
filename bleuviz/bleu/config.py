"""How statistics become a BLEU score: flavour, smoothing, order and weights."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from bleuviz.arrays import FloatArray
from bleuviz.bleu.flavors import DEFAULT_FLAVOR, get_flavor
from bleuviz.bleu.flavors.base import Flavor
from bleuviz.bleu.orders import DEFAULT_ORDER, MAX_ORDER
from bleuviz.errors import ConfigError
from bleuviz.limits import MAX_SMOOTH_VALUE, MAX_WEIGHT


@dataclass(frozen=True, slots=True)
class BleuConfig:
    """How statistics become a score.

    Attributes:
        flavor: a name in the flavour registry (``bleuviz.bleu.flavors.FLAVORS``).
        max_order: highest n-gram order (nltk: the length of ``weights`` when given).
        weights: per-order weights; None means uniform 1/max_order.
        smooth: smoothing name for the flavour (see ``Flavor.smoothing``); None means its
            default.
        smooth_value: value for a smoothing that takes one (None: the flavour's default,
            e.g. sacrebleu's floor 0.1 / add-k 1).
        effective_order: sacrebleu only: average only the orders that have n-grams.
        auto_reweigh: nltk only: reweigh uniformly for hypotheses shorter than 4.
        sentence_like_corpus: sentence scores use exactly these settings (sacrebleu's
            ``BLEU(...).sentence_score``) instead of the flavour's sentence-level call
            (sacrebleu's ``sentence_bleu``, which turns effective order on).
    """

    flavor: str = DEFAULT_FLAVOR
    max_order: int = DEFAULT_ORDER
    weights: tuple[float, ...] | None = None
    smooth: str | None = None
    smooth_value: float | None = None
    effective_order: bool = False
    auto_reweigh: bool = False
    sentence_like_corpus: bool = False
    _resolved: tuple[str, tuple[float, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        flavor = get_flavor(self.flavor)
        smooth = flavor.default_smoothing if self.smooth is None else self.smooth
        if smooth not in flavor.smoothing:
            choices = ", ".join(flavor.smoothing)
            raise ConfigError(
                f"smooth: {smooth!r} is not a {self.flavor} smoothing; choose {choices}"
            )
        if isinstance(self.max_order, bool) or not isinstance(self.max_order, int):
            raise ConfigError(f"max_order: must be a whole number, got {self.max_order!r}")
        order = len(self.weights) if self.weights else self.max_order
        if not 1 <= order <= MAX_ORDER:
            raise ConfigError(f"max_order: must be between 1 and {MAX_ORDER}, got {order}")
        if self.weights is not None and len(self.weights) != self.max_order:
            raise ConfigError(
                f"weights: {len(self.weights)} weights given for max_order {self.max_order}"
            )
        _check_smooth_value(self.smooth_value, smooth, flavor)
        weights = self.weights or tuple(1.0 / order for _ in range(order))
        _check_weights(weights)
        object.__setattr__(self, "_resolved", (smooth, tuple(float(w) for w in weights)))

    @property
    def flavor_spec(self) -> Flavor:
        """The flavour in effect, from the registry.

        Looked up, not stored: a config holds plain values only, so that caches
        can hash it.
        """
        return get_flavor(self.flavor)

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
        """Orders the statistics must hold (nltk's method5/7 also read 5-gram precision)."""
        return self.flavor_spec.stats_order(self.max_order, self.smoothing)

    def for_sentences(self) -> BleuConfig:
        """Return the configuration the flavour's sentence-level call uses.

        sacrebleu's ``sentence_bleu`` turns effective order on (unless
        ``sentence_like_corpus``: ``BLEU(...).sentence_score`` keeps the settings);
        nltk's and tf-nmt's sentence scores are one-segment corpora.
        """
        if self.flavor_spec.sentence_effective_order and not self.sentence_like_corpus:
            return replace(self, effective_order=True)
        return self


def _check_smooth_value(value: float | None, smooth: str, flavor: Flavor) -> None:
    """Refuse a smoothing value outside the range its method is defined on.

    sacrebleu's ``floor`` replaces a zero count by the value ("requires small
    positive value (0.1 in the paper)", ``BLEU.compute_bleu``) and ``add-k`` adds it
    to every count of order 2 and up (Chen and Cherry, 2014, methods 1 and 2); a
    negative value makes a precision negative (sacrebleu's ``my_log`` then raises),
    NaN or infinity makes the score NaN, so the range is a finite value of at least
    0 (0 is no smoothing, which sacrebleu accepts), and at most ``MAX_SMOOTH_VALUE``
    (``bleuviz.limits``: add-k 1e308 made sacrebleu's ``100 * correct`` infinite).
    Smoothings without a value (``exp``, ``none``, nltk's and tf-nmt's) ignore it, as
    sacrebleu does, but a value given must still be a finite number in that range.
    """
    if value is None:
        return
    if not _is_number(value) or not np.isfinite(value):
        raise ConfigError(f"smooth_value: must be a finite number, got {value!r}")
    if smooth in flavor.smoothing_values and value < 0:
        raise ConfigError(f"smooth_value: {smooth} takes a value of at least 0, got {value!r}")
    if value > MAX_SMOOTH_VALUE:
        raise ConfigError(f"smooth_value: at most {MAX_SMOOTH_VALUE:,}, got {float(value)!r}")


def _check_weights(weights: tuple[float, ...]) -> None:
    """Refuse weights that are not finite numbers from 0 to ``MAX_WEIGHT`` with a positive sum.

    The maximum keeps every flavour's weighted mean of log precisions finite
    (``bleuviz.limits``): four weights of 1e308 summed to infinity, and BLEU was NaN.
    """
    if any(not _is_number(w) or w < 0 or not np.isfinite(w) for w in weights) or not (
        sum(weights) > 0
    ):
        raise ConfigError(f"weights: must be non-negative with a positive sum, got {weights}")
    if max(weights) > MAX_WEIGHT:
        raise ConfigError(f"weights: each at most {MAX_WEIGHT}, got {float(max(weights))!r}")


def _is_number(value: object) -> bool:
    """Return whether ``value`` is an int or float (a bool is not a number here)."""
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)
