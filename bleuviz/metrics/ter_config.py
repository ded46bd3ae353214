"""TER's options, as sacrebleu 2.6's ``TER`` takes them.

A module of its own, below both :mod:`bleuviz.metrics.ter_score` (the
statistics) and :mod:`bleuviz.metrics.sacrebleu_adapter` (which builds
sacrebleu's ``TER`` from them), so that neither imports the other's module for it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from bleuviz.errors import ConfigError


@dataclass(frozen=True, slots=True)
class TerConfig:
    """TER's options, as sacrebleu's ``TER`` takes them (``--ter-*`` on its command line).

    The default is sacrebleu's: case-insensitive, no normalization, punctuation kept.

    Raises:
        ConfigError: an option that is not True or False (a link's "no" or an
            API caller's 0 would otherwise read as a switch, the string as on).
    """

    normalized: bool = False
    no_punct: bool = False
    asian_support: bool = False
    case_sensitive: bool = False

    def __post_init__(self) -> None:
        for option in fields(self):
            value = getattr(self, option.name)
            if not isinstance(value, bool):
                raise ConfigError(f"TER {option.name}: must be true or false, got {value!r}")
