"""Paired significance tests over summed statistics, as sacrebleu runs them.

``paired`` is the one driver (bootstrap, approximate randomization, CIs); each
metric family has a small resampler: ``bleu`` for BLEU, ``sacrebleu_metrics``
for chrF, chrF++ and TER.
"""

from typing import TYPE_CHECKING

from bleuviz.lazy import lazy_exports

if TYPE_CHECKING:
    from bleuviz.bleu.resampler import BleuResampler
    from bleuviz.metrics.sacrebleu_resampler import SacrebleuResampler
    from bleuviz.metrics.spec import Resampler
    from bleuviz.significance.bleu import (
        bootstrap_ci,
        compare_systems,
        paired_approximate_randomization,
        paired_bootstrap,
    )
    from bleuviz.significance.paired import paired_tests
    from bleuviz.significance.resampling import DEFAULT_SEED, BootstrapCI, PairedResult
    from bleuviz.significance.sacrebleu_metrics import compare_systems_metric

_EXPORTS = {
    "BleuResampler": "bleuviz.bleu.resampler",
    "bootstrap_ci": "bleuviz.significance.bleu",
    "compare_systems": "bleuviz.significance.bleu",
    "paired_approximate_randomization": "bleuviz.significance.bleu",
    "paired_bootstrap": "bleuviz.significance.bleu",
    "Resampler": "bleuviz.metrics.spec",
    "paired_tests": "bleuviz.significance.paired",
    "DEFAULT_SEED": "bleuviz.significance.resampling",
    "BootstrapCI": "bleuviz.significance.resampling",
    "PairedResult": "bleuviz.significance.resampling",
    "SacrebleuResampler": "bleuviz.metrics.sacrebleu_resampler",
    "compare_systems_metric": "bleuviz.significance.sacrebleu_metrics",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
__all__ = [
    "DEFAULT_SEED",
    "BleuResampler",
    "BootstrapCI",
    "PairedResult",
    "Resampler",
    "SacrebleuResampler",
    "bootstrap_ci",
    "compare_systems",
    "compare_systems_metric",
    "paired_approximate_randomization",
    "paired_bootstrap",
    "paired_tests",
]
