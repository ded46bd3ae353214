"""The command line's outputs, byte for byte, against files recorded before a refactoring.

Issue 45 moved BLEU's numbers inside the evaluation object; nothing a user sees
was to change. These cases were run at 023247d (before that work) and their
stdout written to ``tests/data/golden/`` (gzip-compressed, the checkout's and the
shared data's folders written as ``<ROOT>`` and ``<SHARED>``). Any later change to
what ``score``, ``compare``, ``correlate`` or ``spans`` prints, in text, JSON or
LaTeX, fails here; a change meant to alter an output records it again with
``BLEUVIZ_RECORD_GOLDEN=1 python3 -m pytest tests/cli/test_golden_outputs.py``
and says why in its commit.

Data: the real WMT17 en-de and WMT20 ru-en outputs beside the project
(``../shared/data``, not copied into it; the cases skip where it is absent),
and the project's own files: the bundled sample with its synthetic scores
(tests/data/seg_scores) and the TED MQM excerpt (tests/data/mqm, see its README).
"""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import pytest

from bleuviz.cli.main import main
from tests.conftest import ROOT

GOLDEN = ROOT / "tests" / "data" / "golden"
SHARED = ROOT.parent / "shared" / "data"
WMT17 = SHARED / "wmt17-en-de"
WMT20 = SHARED / "newstest2020-ru-en"
SAMPLE = ROOT / "bleuviz" / "sample_data"
SCORES = ROOT / "tests" / "data" / "seg_scores"
MQM = ROOT / "tests" / "data" / "mqm"
RECORD = os.environ.get("BLEUVIZ_RECORD_GOLDEN") == "1"

W17_SYSTEMS = ["uedin-nmt.4722", "online-B.0", "KIT.4950", "PROMT-Rule-based.4735"]


def _w17(*systems: str) -> list[str]:
    return ["--ref", str(WMT17 / "ref.de.txt"), "--hyp"] + [
        str(WMT17 / f"hyp.{name}.de.txt") for name in systems
    ]


def _w17_all() -> list[str]:
    return ["--ref", str(WMT17 / "ref.de.txt"), "--hyp", *sorted(map(str, WMT17.glob("hyp.*")))]


def _w20() -> list[str]:
    return ["--ref", str(WMT20 / "ref.en.txt"), "--src", str(WMT20 / "src.ru.txt"), "--hyp"] + [
        str(WMT20 / name) for name in ("OnlineA.txt", "OnlineB.txt")
    ]


def _sample() -> list[str]:
    hyps = [str(SAMPLE / f"hyp.{name}.en") for name in ("literal", "terse", "repeat")]
    return [
        "--ref", str(SAMPLE / "ref.A.en"), str(SAMPLE / "ref.B.en"), "--hyp", *hyps,
        "--docids", str(SAMPLE / "docids.txt"), "--seg-scores",
        *(str(SCORES / f"{name}.seg.score") for name in ("COMET-test", "MetricX-test", "human")),
    ]  # fmt: skip


def _ted() -> list[str]:
    hyps = [str(MQM / "Facebook-AI.txt"), str(MQM / "metricsystem2.txt")]
    return ["--ref", str(MQM / "Nemo.txt"), "--hyp", *hyps, "--docids", str(MQM / "docids.txt")]


_TEXT_JSON = (("txt", []), ("json", ["-f", "json"]))

#: name -> (needs ../shared/data, argv without the format); each runs in text and JSON.
CASES: dict[str, tuple[bool, list[str]]] = {
    "score-w17-all": (True, ["score", *_w17_all()]),
    "score-w17-metrics": (
        True,
        ["score", *_w17(*W17_SYSTEMS), "-m", "bleu", "chrf", "chrf++", "ter"],
    ),
    "score-w17-confidence": (True, ["score", *_w17(*W17_SYSTEMS[:3]), "--confidence"]),
    "score-w17-sentence": (
        True,
        ["score", *_w17(*W17_SYSTEMS[:2]), "--sentence-level", "-m", "bleu", "chrf"],
    ),
    "score-w17-nltk": (
        True,
        [
            "score",
            *_w17(*W17_SYSTEMS[:2]),
            "--flavor",
            "nltk",
            "--smooth",
            "method3",
            "-m",
            "bleu",
            "rouge-l",
        ],
    ),
    "score-w17-tfnmt-sentence": (
        True,
        ["score", *_w17(W17_SYSTEMS[0]), "--flavor", "tf-nmt", "--sentence-level"],
    ),
    "score-w20": (True, ["score", *_w20(), "-m", "bleu", "chrf", "ter", "-lc"]),
    "score-w20-sentence-ter": (True, ["score", *_w20(), "-m", "ter", "--sentence-level"]),
    "compare-w17": (True, ["compare", *_w17(*W17_SYSTEMS), "--paired-ar", "1000"]),
    "compare-w17-chrf": (
        True,
        ["compare", *_w17(*W17_SYSTEMS[:3]), "--metric", "chrF", "--paired-ar", "500"],
    ),
    "compare-w17-all-pairs": (
        True,
        ["compare", *_w17(*W17_SYSTEMS), "--all-pairs", "--paired-ar", "0"],
    ),
    "compare-w17-all-pairs-holm": (
        True,
        ["compare", *_w17(*W17_SYSTEMS[:3]), "--all-pairs", "--holm", "--paired-ar", "0"],
    ),
    "compare-w20-ter": (
        True,
        ["compare", *_w20(), "--metric", "TER", "--paired-bs", "300", "--paired-ar", "300"],
    ),
    "score-sample": (False, ["score", *_sample(), "-m", "bleu", "chrf", "rouge-1"]),
    "score-sample-sentence": (
        False,
        ["score", *_sample(), "--sentence-level", "-m", "bleu", "ter"],
    ),
    "compare-sample-comet": (
        False,
        ["compare", *_sample(), "--metric", "COMET-test", "--paired-ar", "500"],
    ),
    "compare-sample-all-pairs-human": (
        False,
        ["compare", *_sample(), "--metric", "human", "--all-pairs", "--paired-ar", "0"],
    ),
    "compare-sample-all-pairs": (
        False,
        ["compare", *_sample(), "--all-pairs", "--paired-ar", "200"],
    ),
    "correlate-sample": (
        False,
        ["correlate", *_sample(), "--human", "human", "-m", "bleu", "chrf", "ter"],
    ),
    "score-ted-mqm": (False, ["score", *_ted(), "--mqm", str(MQM / "mqm_ted_ende.tsv")]),
    "correlate-ted-mqm": (
        False,
        ["correlate", *_ted(), "--mqm", str(MQM / "mqm_ted_ende.tsv"), "--human", "MQM"],
    ),
    "spans-ted-mqm": (False, ["spans", *_ted(), "--mqm", str(MQM / "mqm_ted_ende.tsv")]),
}

LATEX = ("score-w17-metrics", "score-sample", "correlate-sample")


def _params() -> list[object]:
    params = []
    for name, (shared, argv) in CASES.items():
        formats = [*_TEXT_JSON, *((("tex", ["-f", "latex"]),) if name in LATEX else ())]
        for suffix, extra in formats:
            marks = [pytest.mark.skipif(shared and not WMT17.is_dir(), reason="no ../shared/data")]
            params.append(pytest.param(f"{name}.{suffix}", [*argv, *extra], marks=marks))
    return params


@pytest.mark.parametrize(("golden", "argv"), _params())
def test_output_is_byte_identical_to_its_recording(
    golden: str, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(argv)
    # The files' folders are the checkout's: recorded as placeholders, to pass in any clone.
    out = capsys.readouterr().out.replace(str(SHARED), "<SHARED>").replace(str(ROOT), "<ROOT>")
    assert status == 0
    path = GOLDEN / f"{golden}.gz"
    if RECORD:
        GOLDEN.mkdir(parents=True, exist_ok=True)
        path.write_bytes(gzip.compress(out.encode(), mtime=0))
    recorded = gzip.decompress(path.read_bytes()).decode()
    assert out == recorded, f"{golden}: output differs from its recording"


def test_every_recording_has_its_case() -> None:
    """A recording left behind by a removed case would pass unnoticed: none is."""
    names = {Path(p.values[0]).name for p in _params()}  # type: ignore[attr-defined]
    assert {p.name.removesuffix(".gz") for p in GOLDEN.glob("*.gz")} == names
