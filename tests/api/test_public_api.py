"""The public Python API in bleuviz/__init__.py, used as its docstring and the README show it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import sacrebleu

import bleuviz

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "bleuviz" / "sample_data"


def test_the_documented_walk_from_files_to_an_explained_segment() -> None:
    hyps = [SAMPLE / "hyp.literal.en", SAMPLE / "hyp.terse.en"]
    testset = bleuviz.load_paths(hyps, [SAMPLE / "ref.A.en"])
    corpus = bleuviz.compute_corpus_stats(testset, bleuviz.TokenizeConfig("13a"))
    config = bleuviz.BleuConfig()
    stats = corpus.systems["literal"]
    score = bleuviz.corpus_score(stats, config, corpus.tokenize, corpus.n_refs)
    lines = [list(testset.systems["literal"]), list(testset.references[0])]
    oracle = sacrebleu.corpus_bleu(lines[0], [lines[1]])
    assert score.score == pytest.approx(oracle.score, abs=1e-9)
    assert (
        score.signature
        == f"nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:{sacrebleu.__version__}"
    )
    first_ten = bleuviz.corpus_score(stats, config, corpus.tokenize, 1, index=range(10))
    oracle_ten = sacrebleu.corpus_bleu(lines[0][:10], [lines[1][:10]])
    assert first_ten.score == pytest.approx(oracle_ten.score, abs=1e-9)
    rows = bleuviz.compare_systems(
        "literal", stats, {"terse": corpus.systems["terse"]}, config, 100, 100
    )
    assert [r.name for r in rows] == ["literal", "terse"]
    detail = bleuviz.explain_segment(lines[0][0], [lines[1][0]], corpus.tokenize)
    assert [detail.matches(n) for n in (1, 2, 3, 4)] == list(stats.matches[0])


def test_errors_are_part_of_the_api() -> None:
    with pytest.raises(bleuviz.InputError, match="no such file"):
        bleuviz.load_paths([SAMPLE / "missing.txt"], [SAMPLE / "ref.A.en"])
    with pytest.raises(bleuviz.ConfigError, match="flavor"):
        bleuviz.BleuConfig("bleurt")


def test_every_exported_name_resolves() -> None:
    for name in bleuviz.__all__:
        assert getattr(bleuviz, name) is not None
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = bleuviz.nothing  # type: ignore[attr-defined]


def test_importing_the_package_imports_no_stage() -> None:
    code = "import sys, bleuviz; print(sorted(m for m in sys.modules if m.startswith('bleuviz.')))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.stdout.strip() == "['bleuviz.lazy']"


def test_a_workspace_keeps_a_test_set(tmp_path: Path) -> None:
    testset = bleuviz.load_paths([SAMPLE / "hyp.terse.en"], [SAMPLE / "ref.A.en"])
    saved = bleuviz.Workspace.open(tmp_path).save_testset(testset, "newstest")
    assert bleuviz.Workspace.open(tmp_path).load(saved.id) == testset
    with pytest.raises(bleuviz.WorkspaceError, match="no such test set"):
        bleuviz.Workspace.open(tmp_path).load("nope")
