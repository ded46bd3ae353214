"""Paired significance tests over summed statistics, as sacrebleu runs them.

``paired`` is the one driver (bootstrap, approximate randomization, CIs); each
metric family has a small resampler: ``bleu`` for BLEU, ``sacrebleu_metrics``
for chrF, chrF++ and TER.
"""

from bleuviz.significance.bleu import (
    BleuResampler,
    bootstrap_ci,
    compare_systems,
    paired_approximate_randomization,
    paired_bootstrap,
)
from bleuviz.significance.paired import Resampler, paired_tests
from bleuviz.significance.resampling import DEFAULT_SEED, BootstrapCI, PairedResult
from bleuviz.significance.sacrebleu_metrics import SacrebleuResampler, compare_systems_metric

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
