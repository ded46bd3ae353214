"""The command line and the notebook views ask the metric, never about it (issue 45, item 3).

What a metric is reported as (its line, JSON fields, CI, heading, JSON alias) is
the metric's own answer (``MetricSpec.score_report``, ``json_alias``,
``heading``; the registry's ``SUMMED_METRICS`` and ``SCORE_CI_METRICS``). So in
bleuviz/cli/ and bleuviz/render/notebook.py no comparison names BLEU (``"bleu" in
args.metrics``, ``metric.name == BLEU``) and no capability flag is tested
(``spec.paired_tests``, ``spec.mean_of_sentences``...): a new metric is then
reported by every command without a branch of its own. Read from the source
with ``ast``: text and comments that name BLEU are not comparisons.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import ROOT

#: The protocol's capability flags: a metric answers for them, a caller does not test them.
FLAGS = {"imported", "paired_tests", "mean_of_sentences", "rouge_type", "always_on"}

FILES = [*sorted((ROOT / "bleuviz" / "cli").glob("*.py")), ROOT / "bleuviz/render/notebook.py"]


def _names_bleu(node: ast.expr) -> bool:
    """Whether an operand is BLEU: the string (any case), or holds a name such as ``BLEU.label``."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and node.value.casefold() == "bleu"
    names = [n.id for n in ast.walk(node) if isinstance(n, ast.Name)]
    names += [n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)]
    return any("BLEU" in name.upper() for name in names)


def _offences(path: Path) -> list[str]:
    """Each comparison naming BLEU and each capability flag read in ``path``, with its line."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Compare) and any(
            _names_bleu(operand) for operand in [node.left, *node.comparators]
        ):
            found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
        if isinstance(node, ast.Attribute) and node.attr in FLAGS:
            found.append(f"{path.name}:{node.lineno}: .{node.attr}")
    return found


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_no_comparison_names_bleu_and_no_capability_flag_is_tested(path: Path) -> None:
    assert _offences(path) == []


def test_the_guard_finds_what_it_forbids(tmp_path: Path) -> None:
    source = tmp_path / "score.py"
    source.write_text(
        'with_bleu = "bleu" in args.metrics\n'
        "same = metric.name == BLEU\n"
        "mean = spec.mean_of_sentences\n"
        'ok = "ter" in args.metrics\n',
        encoding="utf-8",
    )
    assert [line.split(":")[1] for line in _offences(source)] == ["1", "2", "3"]
