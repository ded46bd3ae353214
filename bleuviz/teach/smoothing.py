"""Each flavour's smoothing methods explained: formula, reason, and what one did to an order.

The explanations are data, so the Learn page only lays them out, the
walkthrough (``bleuviz.teach.walkthrough``) fills in ``smoothing_note`` for every
order, and the tests can check that every method of every flavour has one.
The methods themselves are implemented once, in the flavour modules.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bleuviz.bleu import BleuConfig
from bleuviz.bleu.flavors.nltk import EPSILON


@dataclass(frozen=True, slots=True)
class Smoothing:
    """A smoothing method: its formula (static LaTeX) and why it exists."""

    latex: str
    why: str
    rule: str  # what it did to an order it changed; {m}, {den}, {k}, {v} are filled in


_ZERO = r"\quad \text{if } m_n = 0"
SMOOTHINGS: dict[tuple[str, str], Smoothing] = {
    ("sacrebleu", "none"): Smoothing(
        r"p_n = \frac{m_n}{t_n}",
        "No smoothing, as in the original BLEU for whole corpora: one order without a "
        "match gives log p_n = −∞ and a score of 0.",
        "",
    ),
    ("sacrebleu", "exp"): Smoothing(
        r"p_n = \frac{1}{2^{k}\, t_n} \quad \text{for the } k\text{-th order with } m_n = 0",
        "sacrebleu's default, from NIST's mteval-v13a: a sentence often has no 4-gram "
        "match, which would make its score 0, so each order without a match gets a "
        "pseudo-count, halved for every further such order.",
        "no match, zero order number {k}: 1/(2^{k}·{den})",
    ),
    ("sacrebleu", "floor"): Smoothing(
        r"p_n = \frac{\varepsilon}{t_n}" + _ZERO,
        "Replaces a zero count by a small constant ε (the smoothing value, 0.1 by default).",
        "no match: {v}/{den}",
    ),
    ("sacrebleu", "add-k"): Smoothing(
        r"p_n = \frac{m_n + k}{t_n + k} \quad (n \ge 2)",
        "Adds k (the smoothing value, 1 by default) to both counts of orders 2 and up, "
        "as Lin and Och (2004) do; unigrams stay as they are.",
        "add-k on orders 2+: ({m}+{v})/({den}+{v})",
    ),
    ("nltk", "method0"): Smoothing(
        r"p_n = \frac{m_n}{\max(1, t_n)}, \quad 0 \mapsto 2.2 \times 10^{-308}",
        "No smoothing. nltk replaces a zero precision by the smallest positive float so "
        "that its log is defined: the score is then close to 0, and nltk warns.",
        "no match: the smallest float",
    ),
    ("nltk", "method1"): Smoothing(
        r"p_n = \frac{\epsilon}{t_n}" + _ZERO + r", \ \epsilon = 0.1",
        "Adds ε = 0.1 to a zero count (Chen and Cherry, 2014, method 1).",
        "no match: 0.1/{den}",
    ),
    ("nltk", "method2"): Smoothing(
        r"p_n = \frac{m_n + 1}{t_n + 1} \quad (n \ge 2)",
        "Adds 1 to both counts of orders 2 and up, even where there are matches "
        "(Lin and Och, 2004).",
        "add-one on orders 2+: ({m}+1)/({den}+1)",
    ),
    ("nltk", "method3"): Smoothing(
        r"p_n = \frac{1}{2^{k}\, t_n} \quad \text{for the } k\text{-th order with } m_n = 0",
        "NIST's geometric sequence, the same rule as sacrebleu's exp (Chen and Cherry, method 3).",
        "no match, zero order number {k}: 1/(2^{k}·{den})",
    ),
    ("nltk", "method4"): Smoothing(
        r"p_n = \frac{\ln c}{2^{k} K\, t_n} \quad \text{for the } k\text{-th zero}, \ K = 5",
        "Like method 3, with a pseudo-count that grows with the candidate length c "
        "(Chen and Cherry, method 4).",
        "no match, zero order number {k}: ln c/(2^{k}·5·{den})",
    ),
    ("nltk", "method5"): Smoothing(
        r"p'_n = \frac{p'_{n-1} + p_n + p_{n+1}}{3}, \quad p'_0 = p_1 + 1",
        "Averages each precision with its neighbours; after the last order comes the "
        "5-gram precision (Chen and Cherry, method 5).",
        "averaged with its neighbours",
    ),
    ("nltk", "method6"): Smoothing(
        r"p_n = \frac{m_n + \alpha\, p_{n-1}^2 / p_{n-2}}{c - n + 1 + \alpha} "
        r"\quad (n \ge 3), \ \alpha = 5",
        "Interpolates orders 3 and up with a prior from the two lower orders (Gao and He, "
        "2013); nltk requires a non-zero trigram precision.",
        "interpolated with the prior p_(n−1)²/p_(n−2)",
    ),
    ("nltk", "method7"): Smoothing(
        r"\text{method4, then method5}",
        "Combines methods 4 and 5 (Chen and Cherry, method 7).",
        "method4 for a zero count, then averaged with its neighbours",
    ),
    ("tf-nmt", "none"): Smoothing(
        r"p_n = \frac{m_n}{t_n}",
        "No smoothing: any order without a match makes the geometric mean, and the score, 0.",
        "",
    ),
    ("tf-nmt", "add-one"): Smoothing(
        r"p_n = \frac{m_n + 1}{t_n + 1}",
        "Adds 1 to both counts of every order, unigrams included (Lin and Och, 2004).",
        "add-one: ({m}+1)/({den}+1)",
    ),
}


def smoothing_note(
    config: BleuConfig, m: int, den: int, raw: float | None, p: float, k: int
) -> str:
    """Say what smoothing did to an order: m matches over den, raw → p, k zero orders so far."""
    if raw is not None and math.isclose(p, raw, rel_tol=1e-12, abs_tol=0.0):
        return "unchanged" if p > 0 else "no match, not smoothed: p = 0"
    if raw is None and p == 0:
        if config.flavor_spec.effective_order and config.effective_order:
            return "no n-grams of this order: effective order leaves it out"
        return "no n-grams of this order: p = 0"
    value = config.smooth_value
    if value is None:
        # The flavour's default for a smoothing that takes a value (sacrebleu's floor
        # and add-k); nltk's method1 adds its fixed epsilon.
        value = config.flavor_spec.smoothing_values.get(config.smoothing, EPSILON)
    rule = SMOOTHINGS[(config.flavor, config.smoothing)].rule
    return rule.format(m=m, den=den, k=k, v=f"{value:g}") + f" = {p:.4g}"
