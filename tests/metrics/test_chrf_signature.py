"""Tests of bleuviz.metrics.chrf_signature: sacrebleu's own ``CHRF`` signature is the oracle.

sacrebleu sets the number of references while scoring, so the oracle scores a
corpus with that many reference streams first.
"""

from __future__ import annotations

import importlib.util

import pytest
import sacrebleu
from sacrebleu.metrics import CHRF

from bleuviz.metrics.chrf_score import ChrfConfig
from bleuviz.metrics.chrf_signature import chrf_signature
from bleuviz.text.sacrebleu_signature import sacrebleu_version

HYPS = ["The cat sat on the mat.", "A dog (barking) ran!"]
REFS = ["The cat is on the mat.", "The dog ran, barking."]


def sacrebleu_signature(config: ChrfConfig, n_refs: int) -> str:
    metric = CHRF(
        char_order=config.char_order,
        word_order=config.word_order,
        beta=config.beta,
        lowercase=config.lowercase,
    )
    metric.corpus_score(HYPS, [REFS] * n_refs)
    return str(metric.get_signature().format())


@pytest.mark.parametrize("n_refs", [1, 2, 4])
@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize(
    ("char_order", "word_order", "beta"), [(6, 0, 2), (6, 2, 2), (4, 1, 3), (0, 2, 1), (1, 0, 2)]
)
def test_the_signature_is_sacrebleus(
    char_order: int, word_order: int, beta: int, lowercase: bool, n_refs: int
) -> None:
    config = ChrfConfig(char_order, word_order, beta, lowercase)
    assert chrf_signature(config, n_refs) == sacrebleu_signature(config, n_refs)


def test_the_version_is_the_installed_sacrebleus() -> None:
    assert sacrebleu_version() == sacrebleu.__version__


def test_without_sacrebleus_version_file_the_package_gives_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    assert sacrebleu_version.__wrapped__() == sacrebleu.__version__
