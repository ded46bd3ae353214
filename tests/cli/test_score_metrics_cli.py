"""``python -m bleuviz score -m bleu chrf ter`` against sacrebleu 2.6's command line and API.

Oracles, run live on the bundled sample (sample_data/): sacrebleu's command line
``sacrebleu REF... -i HYP -m chrf ter [options]`` in JSON for the names and
signatures, and ``CHRF(...)``/``TER(...)`` ``corpus_score`` and ``sentence_score``
for the numbers (compared to 1e-9, as every bleuviz score).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from sacrebleu.metrics import BLEU, CHRF, TER

from bleuviz.cli.main import main
from tests.data import SAMPLE_HYPS, SAMPLE_REFS

ROOT = Path(__file__).resolve().parents[2]
REFS = [str(p) for p in SAMPLE_REFS]
HYPS = [str(p) for p in SAMPLE_HYPS]

# (bleuviz/sacrebleu options, the sacrebleu objects they describe)
OPTIONS = [
    ([], [CHRF(), TER()]),
    (["--chrf-word-order", "2"], [CHRF(word_order=2), TER()]),
    (
        ["--chrf-beta", "3", "--chrf-char-order", "4", "--chrf-lowercase", "--ter-case-sensitive"],
        [CHRF(beta=3, char_order=4, lowercase=True), TER(case_sensitive=True)],
    ),
    (
        ["--ter-normalized", "--ter-no-punct", "--ter-asian-support"],
        [CHRF(), TER(normalized=True, no_punct=True, asian_support=True)],
    ),
]


def lines(path: str) -> list[str]:
    return Path(path).read_text("utf-8").splitlines()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["score", "--ref", *REFS, *argv]) == 0
    return capsys.readouterr().out


def sacrebleu_cli(*argv: str) -> list[dict[str, str]]:
    out = subprocess.run(
        [sys.executable, "-m", "sacrebleu", *REFS, "-i", HYPS[0], *argv, "-f", "json"],
        capture_output=True,
        check=True,
    ).stdout
    parsed = json.loads(out)
    return parsed if isinstance(parsed, list) else [parsed]


@pytest.mark.parametrize(("options", "oracles"), OPTIONS)
def test_json_metrics_equal_sacrebleu(
    capsys: pytest.CaptureFixture[str], options: list[str], oracles: list[CHRF | TER]
) -> None:
    out = json.loads(run(capsys, "--hyp", *HYPS, "-m", "chrf", "ter", *options, "-f", "json"))
    refs = [lines(r) for r in REFS]
    cli = sacrebleu_cli("-m", "chrf", "ter", *options)
    for system, path in zip(out["systems"], HYPS, strict=True):
        assert "bleu" not in system  # -m without bleu
        assert [m["name"] for m in system["metrics"]] == [c["name"] for c in cli]
        assert [m["signature"] for m in system["metrics"]] == [c["signature"] for c in cli]
        for metric, oracle in zip(system["metrics"], oracles, strict=True):
            want = oracle.corpus_score(lines(path), refs)
            assert metric["name"] == want.name
            assert metric["score"] == pytest.approx(want.score, abs=1e-9)


def test_text_has_a_line_per_system_and_metric_then_the_signatures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = run(capsys, "--hyp", *HYPS, "-m", "bleu", "chrf", "ter", "--chrf-word-order", "2")
    refs = [lines(r) for r in REFS]
    expected = []
    for path in HYPS:
        name = Path(path).name.split(".")[1]
        bleu = BLEU().corpus_score(lines(path), refs).format()
        expected.append(f"{name}: {bleu}")
        for oracle in (CHRF(word_order=2), TER()):
            expected.append(f"{name}: {oracle.corpus_score(lines(path), refs).format()}")
    sigs = [f"{c['name']}|{c['signature']}" for c in sacrebleu_cli("-m", "chrf", "ter", "-cw", "2")]
    bleu_sig = sacrebleu_cli("-m", "bleu")[0]["signature"]
    assert out.splitlines() == [*expected, bleu_sig, *sigs]


def test_sentence_level_scores_equal_sentence_score(capsys: pytest.CaptureFixture[str]) -> None:
    out = json.loads(
        run(capsys, "--hyp", HYPS[1], "-m", "bleu", "chrf", "ter", "--sentence-level", "-f", "json")
    )
    system = out["systems"][0]
    refs = [lines(r) for r in REFS]
    for metric, oracle in zip(system["metrics"], (CHRF(), TER()), strict=True):
        want = [
            oracle.sentence_score(hyp, [r[i] for r in refs]).score
            for i, hyp in enumerate(lines(HYPS[1]))
        ]
        assert metric["sentences"] == pytest.approx(want, abs=1e-9)
    text = run(capsys, "--hyp", HYPS[1], "-m", "bleu", "chrf", "--sentence-level").splitlines()
    first = text[2]  # after the BLEU and chrF lines
    assert first == (
        f"  1\tBLEU = {system['sentences'][0]['bleu']:.2f}"
        f"\tchrF2 = {system['metrics'][0]['sentences'][0]:.2f}"
    )


def test_each_sentence_cell_is_its_own_metrics(capsys: pytest.CaptureFixture[str]) -> None:
    """With two metrics beside BLEU, each text column keeps its metric's name, decimals
    and scores (they once all took the last metric's name and decimals)."""
    argv = ["--hyp", HYPS[1], "-m", "bleu", "ter", "rouge-lsum", "--sentence-level"]
    system = json.loads(run(capsys, *argv, "-f", "json"))["systems"][0]
    ter, rouge = system["metrics"]
    text = run(capsys, *argv).splitlines()
    cells = [line.split("\t")[1:] for line in text if line.startswith("  ")]
    assert cells == [
        [f"BLEU = {s['bleu']:.2f}", f"TER = {t:.2f}", f"ROUGE-Lsum = {r:.4f}"]
        for s, t, r in zip(system["sentences"], ter["sentences"], rouge["sentences"], strict=True)
    ]


def test_latex_has_a_column_per_metric(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "--hyp", *HYPS, "-m", "bleu", "chrf", "ter", "-f", "latex")
    assert "System & BLEU & BP & Ratio & Hyp len & Ref len & chrF2 & TER \\\\" in out
    assert "% chrF2|nrefs:2|" in out and "% TER|nrefs:2|" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["-m", "chrf", "--chrf-beta", "0"], "argument --chrf-beta: must be at least 1, got 0"),
        (["-m", "chrf", "--chrf-char-order", "0"], "chrF orders: the character and word orders"),
        (["-m", "chrf", "--confidence"], "--confidence: bootstrap intervals are for BLEU"),
        (["-m", "meteor"], "invalid choice: 'meteor'"),
    ],
)
def test_bad_metric_options_exit_2_with_one_line(argv: list[str], message: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "bleuviz", "score", "--ref", *REFS, "--hyp", HYPS[0], *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert message in proc.stderr


def test_mismatched_files_are_still_refused_with_metrics(tmp_path: Path) -> None:
    short = tmp_path / "hyp.short.txt"
    short.write_text("one line\n", encoding="utf-8")
    argv = ["score", "--ref", REFS[0], "--hyp", str(short), "-m", "chrf", "ter"]
    proc = subprocess.run(
        [sys.executable, "-m", "bleuviz", *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert "hyp.short.txt has 1 line" in proc.stderr and "ref.A.en has 126 lines" in proc.stderr


def test_chrf_plus_plus_is_sacrebleus_beside_chrf(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 44, item 20: ``-m chrf++`` (as ``correlate -m`` takes it), in any case."""
    out = json.loads(run(capsys, "--hyp", *HYPS, "-m", "chrF", "CHRF++", "-f", "json"))
    refs = [lines(r) for r in REFS]
    cli = sacrebleu_cli("-m", "chrf", "--chrf-word-order", "2")[0]
    for system, path in zip(out["systems"], HYPS, strict=True):
        chrf, plus = system["metrics"]
        for metric, oracle in ((chrf, CHRF()), (plus, CHRF(word_order=2))):
            want = oracle.corpus_score(lines(path), refs)
            assert metric["name"] == want.name
            assert metric["score"] == pytest.approx(want.score, abs=1e-9)
        assert plus["signature"] == cli["signature"]


def rouge_oracle(path: str, rouge_type: str, stemmer: bool) -> float:
    """rouge-score 0.1.2's mean F-measure over the segments, every reference (score_multi)."""
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer([rouge_type], use_stemmer=stemmer)
    refs = list(zip(*(lines(r) for r in REFS), strict=True))
    scores = [
        scorer.score_multi(list(seg_refs), hyp)[rouge_type].fmeasure
        for hyp, seg_refs in zip(lines(path), refs, strict=True)
    ]
    return sum(scores) / len(scores)


@pytest.mark.parametrize("stemmer", [False, True])
def test_rouge_is_rouge_scores_mean_f_measure(
    capsys: pytest.CaptureFixture[str], stemmer: bool
) -> None:
    """``-m rouge-1 rouge-l``: the registry's ROUGE, to rouge-score's four decimals in text."""
    stem = ["--rouge-stemmer"] if stemmer else []
    out = json.loads(run(capsys, "--hyp", HYPS[0], "-m", "rouge-1", "rouge-l", *stem, "-f", "json"))
    metrics = out["systems"][0]["metrics"]
    assert [m["name"] for m in metrics] == ["ROUGE-1", "ROUGE-L"]
    for metric, rouge_type in zip(metrics, ("rouge1", "rougeL"), strict=True):
        assert metric["score"] == pytest.approx(
            rouge_oracle(HYPS[0], rouge_type, stemmer), abs=1e-9
        )
        assert f"stem:{'porter' if stemmer else 'no'}|" in metric["signature"]
    text = run(capsys, "--hyp", HYPS[0], "-m", "rouge-1", *stem).splitlines()
    assert text[0] == f"ROUGE-1 = {metrics[0]['score']:.4f}"


def test_chrf_plus_plus_keeps_its_word_order(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["score", "--ref", *REFS, "--hyp", HYPS[0], "-m", "chrf++", "-cw", "3"]
    assert main(argv) == 2
    assert capsys.readouterr().err == (
        "bleuviz: error: --chrf-word-order: chrf++ counts word n-grams to order 2, got 3; "
        "use -m chrf --chrf-word-order 3\n"
    )
