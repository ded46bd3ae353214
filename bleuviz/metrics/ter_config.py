"""TER's options, as sacrebleu 2.6's ``TER`` takes them.

A module of its own, below both :mod:`bleuviz.metrics.ter_score` (the
statistics) and :mod:`bleuviz.metrics.sacrebleu_adapter` (which builds
sacrebleu's ``TER`` from them), so that neither imports the other's module for it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TerConfig:
    """TER's options, as sacrebleu's ``TER`` takes them (``--ter-*`` on its command line).

    The default is sacrebleu's: case-insensitive, no normalization, punctuation kept.
    """

    normalized: bool = False
    no_punct: bool = False
    asian_support: bool = False
    case_sensitive: bool = False
