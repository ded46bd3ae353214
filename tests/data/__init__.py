"""Test data several test modules share: the bundled sample's files and small texts.

The bundled sample (sample_data/, written for this project) is what a fresh
checkout has; its golden numbers are listed in sample_data/README.md.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "bleuviz" / "sample_data"
SAMPLE_HYPS = [SAMPLE / "hyp.literal.en", SAMPLE / "hyp.terse.en", SAMPLE / "hyp.repeat.en"]
SAMPLE_REFS = [SAMPLE / "ref.A.en", SAMPLE / "ref.B.en"]
SAMPLE_SOURCE = SAMPLE / "source.de"
SAMPLE_DOCIDS = SAMPLE / "docids.txt"

# Papineni et al. (2002) and sacrebleu's documentation: clipping and a sentence pair.
CAT = ["The cat is on the mat."]
CAT2 = ["There is a cat on the mat."]
SEVEN_THE = ["the the the the the the the"]

# Random texts for ROUGE over a small vocabulary, so that overlaps, repeats, stems,
# empty and punctuation-only lines are common.
ROUGE_VOCAB = ["the", "The", "cat", "cats", "sat", "on", "a", "mat", "running", "runs", "run",
               "dog", "42", ".", ",", "!?", "--"]  # fmt: skip
ROUGE_SEPARATORS = [" ", " ", " ", "  ", "\n", " \n ", "\n\n", "\n.\n"]
rouge_texts = st.lists(
    st.tuples(st.sampled_from(ROUGE_VOCAB), st.sampled_from(ROUGE_SEPARATORS)), max_size=18
).map(lambda pairs: "".join(word + sep for word, sep in pairs))

# Lines of at least four tokens over a tiny vocabulary: every order has n-grams.
words = st.sampled_from(["a", "b", "c", "the", ",", ".", "A"])
long_lines = st.lists(
    st.lists(words, min_size=4, max_size=15).map(" ".join), min_size=1, max_size=8
)

# Synthetic segment scores for the sample (tests/data/seg_scores/README.md).
SEG_SCORES = Path(__file__).resolve().parent / "seg_scores"
COMET_SCORES = SEG_SCORES / "COMET-test.seg.score"
METRICX_SCORES = SEG_SCORES / "MetricX-test.seg.score"
HUMAN_SCORES = SEG_SCORES / "human.seg.score"


def file_scores(path: Path) -> dict[str, np.ndarray]:
    """Read a NAME.seg.score file with plain Python (the tests' oracle): system -> scores.

    ``None`` becomes NaN.
    """
    out: dict[str, list[float]] = {}
    for line in path.read_text().splitlines():
        system, value = line.split("\t")
        out.setdefault(system, []).append(math.nan if value == "None" else float(value))
    return {k: np.array(v) for k, v in out.items()}


# The sample's lines: system name -> hypotheses, and the reference streams.
SAMPLE_SYSTEM_LINES = {p.name.split(".")[1]: p.read_text("utf-8").splitlines() for p in SAMPLE_HYPS}
SAMPLE_REF_LINES = [p.read_text("utf-8").splitlines() for p in SAMPLE_REFS]
