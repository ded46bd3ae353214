"""Tests of the ``rouge`` subcommand; expected values come from bleuviz.rouge.score_corpus,
which tests/test_rouge.py checks against rouge-score 0.1.2."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pytest

from bleuviz.cli.rouge import add_rouge_parser, run_rouge
from bleuviz.errors import BleuvizError
from bleuviz.rouge.score import RougeConfig, score_corpus, score_segment

REFS = ["the cat sat on the mat", "a dog ran in the park.\\nIt was happy.", "hello world"]
REFS2 = ["a cat sat on a mat", "the dog ran", "hello there world"]
SYS_A = ["the cat sat on a mat", "a dog ran in a park\\nit was very happy", "hello"]
SYS_B = ["cat mat", "the dog was happy", "world hello"]
TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")


def _main(argv: list[str]) -> int:
    """Stand in for the ``python -m bleuviz`` dispatcher."""
    parser = argparse.ArgumentParser(prog="bleuviz")
    add_rouge_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    assert args.func is run_rouge
    try:
        status: int = run_rouge(args)
    except BleuvizError as e:
        print(f"bleuviz: error: {e}", file=sys.stderr)
        return 2
    return status


def _write(tmp_path: Path, name: str, lines: list[str]) -> str:
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


def _unescape(lines: list[str]) -> list[str]:
    return [line.replace("\\n", "\n") for line in lines]


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    return {
        "ref": _write(tmp_path, "ref.en", REFS),
        "ref2": _write(tmp_path, "ref2.en", REFS2),
        "a": _write(tmp_path, "hyp.sysA.txt", SYS_A),
        "b": _write(tmp_path, "hyp.sysB.txt", SYS_B),
    }


def test_json_equals_score_corpus(
    files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["rouge", "--ref", files["ref"], files["ref2"], "--hyp", files["a"], files["b"]]
    assert _main([*argv, "--stemmer", "--sentence-level", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [s["name"] for s in report["systems"]] == ["sysA", "sysB"]
    assert [s["path"] for s in report["systems"]] == [files["a"], files["b"]]
    refs = list(zip(_unescape(REFS), _unescape(REFS2), strict=True))
    config = RougeConfig(TYPES, use_stemmer=True)
    for system, lines in zip(report["systems"], [SYS_A, SYS_B], strict=True):
        assert set(system) == {"name", "path", "sentences", *TYPES}
        expected = score_corpus(_unescape(lines), refs, config)
        for rouge_type in TYPES:
            mean = expected.mean(rouge_type)
            assert system[rouge_type] == {
                "precision": pytest.approx(mean.precision, abs=1e-12),
                "recall": pytest.approx(mean.recall, abs=1e-12),
                "fmeasure": pytest.approx(mean.fmeasure, abs=1e-12),
            }
        assert len(system["sentences"]) == len(lines)
        for index, sentence in enumerate(system["sentences"]):
            assert set(sentence) == set(TYPES)
            for rouge_type, score in expected.segment(index).items():
                assert sentence[rouge_type]["fmeasure"] == pytest.approx(score.fmeasure, abs=1e-12)


def test_escaped_newline_is_a_sentence_break(
    files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["rouge", "--ref", files["ref"], "--hyp", files["a"], "--sentence-level"]
    assert _main([*argv, "--rouge-types", "rougeLsum", "rouge1", "--format", "json"]) == 0
    second = json.loads(capsys.readouterr().out)["systems"][0]["sentences"][1]
    expected = score_segment(
        "a dog ran in a park\nit was very happy",
        ["a dog ran in the park.\nIt was happy."],
        RougeConfig(("rougeLsum", "rouge1")),
    )
    assert second["rougeLsum"]["fmeasure"] == pytest.approx(expected["rougeLsum"].fmeasure)
    assert second["rouge1"]["recall"] == pytest.approx(expected["rouge1"].recall)


def test_json_without_sentence_level(
    files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["rouge", "--ref", files["ref"], "--hyp", files["a"], "--rouge-types", "rouge3"]
    assert _main([*argv, "--format", "json"]) == 0
    (system,) = json.loads(capsys.readouterr().out)["systems"]
    assert set(system) == {"name", "path", "rouge3"}


def test_text_format(files: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    assert _main(["rouge", "--ref", files["ref"], "--hyp", files["a"], files["b"]]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[:2] for line in lines] == [
        [name, rouge_type] for name in ("sysA", "sysB") for rouge_type in TYPES
    ]
    mean = score_corpus(SYS_B, [(r,) for r in _unescape(REFS)], RougeConfig()).mean("rougeL")
    expected = f"sysB rougeL P={mean.precision:.4f} R={mean.recall:.4f} F={mean.fmeasure:.4f}"
    assert expected in lines


def test_text_sentence_level(files: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["rouge", "--ref", files["ref"], "--hyp", files["a"], "--rouge-types", "rougeL"]
    assert _main([*argv, "--sentence-level"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[:3] for line in lines[1:]] == [
        ["sysA", f"seg={i}", "rougeL"] for i in (1, 2, 3)
    ]


def test_mismatched_line_counts(
    files: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    short = _write(tmp_path, "hyp.short.txt", SYS_A[:2])
    assert _main(["rouge", "--ref", files["ref"], "--hyp", files["a"], short]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert f"{files['ref']} has 3 lines" in captured.err
    assert f"{files['a']} has 3 lines" in captured.err
    assert f"{short} has 2 lines" in captured.err


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--rouge-types", "rouge0"], "rouge0"),
        (["--rouge-types", "rouge1", "rouge1"], "duplicate"),
    ],
)
def test_bad_rouge_types(
    files: dict[str, str], capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    assert _main(["rouge", "--ref", files["ref"], "--hyp", files["a"], *extra]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert message in err


def test_missing_file(
    files: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = str(tmp_path / "nope.txt")
    assert _main(["rouge", "--ref", missing, "--hyp", files["a"]]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert missing in err


def test_help_documents_sentence_break() -> None:
    parser = argparse.ArgumentParser(prog="bleuviz")
    rouge = add_rouge_parser(parser.add_subparsers())
    assert "backslash" in rouge.format_help()
