"""Fixtures of the workspace tests: the bundled sample as a TestSet, with imported scores."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bleuviz.io.decode import read_path
from bleuviz.io.load import load_paths
from bleuviz.io.seg_scores import attach_seg_scores, set_directions
from bleuviz.io.testset import TestSet
from bleuviz.workspace import Workspace
from tests.data import (
    COMET_SCORES,
    HUMAN_SCORES,
    METRICX_SCORES,
    SAMPLE_DOCIDS,
    SAMPLE_HYPS,
    SAMPLE_REFS,
    SAMPLE_SOURCE,
)


def sample_testset(hyps: list[Path] = SAMPLE_HYPS, scores: bool = True) -> TestSet:
    """The bundled sample (source, document ids) with the synthetic imported scores."""
    testset = load_paths(hyps, SAMPLE_REFS, SAMPLE_SOURCE, SAMPLE_DOCIDS)
    if not scores:
        return testset
    files = [read_path(p) for p in (COMET_SCORES, METRICX_SCORES, HUMAN_SCORES)]
    testset = attach_seg_scores(testset, files)
    return set_directions(testset, lower_is_better=["human"])


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    return Workspace.open(tmp_path / "ws")


def assert_same_testset(got: TestSet, expected: TestSet) -> None:
    """Every field equal, system order and imported scores (values, NaN, direction) included."""
    assert list(got.systems.items()) == list(expected.systems.items())
    for field in ("references", "source", "doc_ids", "seg_ids"):
        assert getattr(got, field) == getattr(expected, field), field
    assert len(got.seg_scores) == len(expected.seg_scores)
    for a, b in zip(got.seg_scores, expected.seg_scores, strict=True):
        assert (a.name, a.origin, a.lower_is_better) == (b.name, b.origin, b.lower_is_better)
        assert list(a.values) == list(b.values)
        for system in b.values:
            np.testing.assert_array_equal(a.values[system], b.values[system])
            assert a.values[system].dtype == np.float64
            assert not a.values[system].flags.writeable
