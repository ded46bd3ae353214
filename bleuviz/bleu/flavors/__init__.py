"""The BLEU flavours: sacrebleu, NLTK and tensorflow/nmt, each a replica in a registry.

Callers look a flavour up by name and ask it what they need; they never compare
flavour names.
"""

from __future__ import annotations

from collections.abc import Mapping

from bleuviz.bleu.flavors import nltk, sacrebleu, tfnmt
from bleuviz.bleu.flavors.base import Flavor, RowScorer, ScoringSettings
from bleuviz.errors import ConfigError

#: Every flavour by name, in the order menus list them.
FLAVORS: Mapping[str, Flavor] = {f.name: f for f in (sacrebleu.FLAVOR, nltk.FLAVOR, tfnmt.FLAVOR)}
DEFAULT_FLAVOR = sacrebleu.FLAVOR.name


def get_flavor(name: str) -> Flavor:
    """Return the flavour called ``name``.

    Raises:
        ConfigError: no flavour has that name.
    """
    try:
        return FLAVORS[name]
    except KeyError:
        raise ConfigError(f"flavor: unknown {name!r}; choose one of {', '.join(FLAVORS)}") from None


__all__ = [
    "DEFAULT_FLAVOR",
    "FLAVORS",
    "Flavor",
    "RowScorer",
    "ScoringSettings",
    "get_flavor",
]
