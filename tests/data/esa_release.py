"""WMT24's ESA release excerpt (tests/data/esa, see its README): paths, test set and oracle.

The oracle reads the Appraise CSV with plain Python, dropping rows by the very
tests of the release's ``humeval/merge_to_jsonl.py`` (``load_line``), and keeps
the en-cs rows (``eng``-``ces``) of the systems the tests load.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

from bleuviz.io.testset import TestSet
from tests.data import ROOT

ESA_DATA = ROOT / "tests" / "data" / "esa"
ESA_CSV = ESA_DATA / "esa_generalMT2024_wave2.excerpt.csv"
ESA_JSONL = ESA_DATA / "wmt24_esa_original.excerpt.jsonl"
ESA_UNIFIED = ESA_DATA / "wmt24-genmt-humeval.excerpt.jsonl"
ESA_LINES = ESA_DATA / "wmt24_en-cs_lines.tsv"
#: The unified layout's annotator of each Appraise user of the excerpt, as the release's
#: ``humeval/annotator_mapping.json`` gives it (``convert_to_unified_format`` maps them).
UNIFIED_RATERS = {
    "enghin7909": "Annotator24microsoft",
    "engces7901": "Annotator22ufal",
    "engces790b": "Annotator08ufal",
    "engces7907": "Annotator24ufal",
    "engces7905": "Annotator12ufal",
    "engces7920": "Annotator21ufal",
    "engces7927": "Annotator07ufal",
    "engces793c": "Annotator18ufal",
}
#: Lines of WMT24's en-cs test set (txt/sources/en-cs.txt).
N_LINES = 998
#: The systems the tests load (refA is the reference).
ESA_SYSTEMS = ("Aya23", "CUNI-MH", "IKUN-C", "Llama3-70B")

#: A judgement as the oracle sees it: (start, end, severity, omission) per span.
Spans = list[tuple[int, int, str, bool]]


def esa_streams() -> dict[str, list[str]]:
    """Each stream (source, refA, a system) as the test set's 998 lines, unexcerpted ones empty."""
    rows = ESA_LINES.read_text("utf-8").splitlines()
    names = rows[0].split("\t")[1:]
    streams = {name: [""] * N_LINES for name in names}
    for row in rows[1:]:
        line_id, *texts = row.split("\t")
        for name, text in zip(names, texts, strict=True):
            streams[name][int(line_id)] = text
    return streams


def esa_testset() -> TestSet:
    """The en-cs test set of the excerpt: four systems, refA as the reference, the source."""
    streams = esa_streams()
    return TestSet(
        {s: tuple(streams[s]) for s in ESA_SYSTEMS},
        (tuple(streams["refA"]),),
        source=tuple(streams["source"]),
    )


def write_esa_files(folder: Path) -> tuple[list[str], str, str]:
    """Write the test set as plain files: (hypothesis paths, reference path, source path)."""
    streams = esa_streams()
    paths = {}
    for name, lines in streams.items():
        path = folder / f"{name}.txt"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths[name] = str(path)
    return [paths[s] for s in ESA_SYSTEMS], paths["refA"], paths["source"]


def _kept(row: list[str]) -> bool:
    """``load_line``'s tests, as the release's script writes them."""
    (_, _, _, tgt_type, _, _, _, document_id, _, _, _, _) = row
    if tgt_type == "BAD":
        return False
    if document_id.endswith("#bad"):
        return False
    if document_id.endswith("#dup"):
        return False
    if document_id.endswith("#incomplete"):
        return False
    return "-tutorial" not in document_id


def _characters(system: str, line: int, first: int, last: int) -> tuple[int, int]:
    """Python's [start, end) of the characters whose UTF-16 units ``first``-``last`` cover.

    Appraise's ESA page cuts the line with JavaScript's ``split("")`` (UTF-16 code
    units) and draws unit ``i`` in a span when ``start_i <= i <= end_i``
    (AppraiseDev/Appraise, ``EvalView/static/EvalView/js/direct-assessment-document-mqm-esa.js``).
    """
    text = esa_streams()[system][line]
    unit, covered = 0, []
    for k, char in enumerate(text):
        width = len(char.encode("utf-16-le")) // 2
        if unit + width - 1 >= first and unit <= last:
            covered.append(k)
        unit += width
    return covered[0], covered[-1] + 1


def esa_oracle() -> tuple[dict[tuple[str, int], tuple[list[str], Spans, float]], list[str]]:
    """Per (system, 0-based line): raters, spans and mean score; and the skipped systems."""
    judged: dict[tuple[str, int], tuple[list[str], Spans, list[float]]] = {}
    skipped: list[str] = []
    with ESA_CSV.open(encoding="utf-8", newline="") as f:
        for row in csv.reader(f):
            if not _kept(row) or (row[4], row[5]) != ("eng", "ces"):
                continue
            if row[1] not in ESA_SYSTEMS:
                skipped += [row[1]] if row[1] not in skipped else []
                continue
            raters, spans, scores = judged.setdefault((row[1], int(row[2])), ([], [], []))
            raters += [row[0]] if row[0] not in raters else []
            scores.append(float(row[6]))
            for span in json.loads(row[9]):
                if span["start_i"] == "missing":
                    spans.append((0, 0, span["severity"], True))
                else:  # Appraise's first and last character, in UTF-16 code units
                    start, end = _characters(row[1], int(row[2]), span["start_i"], span["end_i"])
                    spans.append((start, end, span["severity"], False))
    oracle = {k: (r, s, sum(v) / len(v)) for k, (r, s, v) in judged.items()}
    return oracle, skipped
