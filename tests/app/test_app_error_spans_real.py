"""AppTest of error spans on real published annotations: Google's MQM for TED en-de.

The app runs with ``--mqm`` on the excerpt in tests/data/mqm (see its README):
Facebook-AI and metricsystem2 as systems, Nemo's output standing in as the
reference (its rows are skipped as a system not in the test set). The oracle is
the TSV read here with plain Python: each row's ``<v>`` marks give the characters
the page must underline, with the row's severity and category; a row locates its
line by ``doc`` and ``doc_id`` (the README says why not by ``seg_id``).
"""

from __future__ import annotations

import csv
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from tests.app.test_app_error_spans import SENTENCES, errors_drawn

DATA = Path(__file__).resolve().parents[1] / "data" / "mqm"
SYSTEMS = ("Facebook-AI", "metricsystem2")
MARK = re.compile(r"<v>(.*?)</v>")


def docids() -> list[str]:
    """The excerpt's document ids, one per line."""
    return (DATA / "docids.txt").read_text(encoding="utf-8").splitlines()


def line_of(doc: str, doc_id: int) -> int:
    """The 0-based line of the ``doc_id``-th segment (from 1) of document ``doc``."""
    lines = [i for i, d in enumerate(docids()) if d == doc]
    return lines[doc_id - 1]


def expected_errors(system: str) -> dict[int, list[tuple[str, str, str, bool]]]:
    """Line -> (severity, category, marked text, on source) of each marked stretch."""
    out: dict[int, list[tuple[str, str, str, bool]]] = {}
    with (DATA / "mqm_ted_ende.tsv").open(encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            if row["system"] != system:
                continue
            line = out.setdefault(line_of(row["doc"], int(row["doc_id"])), [])
            if row["severity"] == "No-error":
                continue
            for side, on_source in (("target", False), ("source", True)):
                for text in MARK.findall(row[side]):
                    line.append((row["severity"].lower(), row["category"], text, on_source))
    return out


def expected_counts(system: str) -> dict[int, tuple[int, int]]:
    """Line -> (Major rows, Minor rows): one error per row, however many stretches it marks."""
    counts: dict[int, Counter[str]] = {}
    with (DATA / "mqm_ted_ende.tsv").open(encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            if row["system"] == system:
                line = line_of(row["doc"], int(row["doc_id"]))
                counts.setdefault(line, Counter())[row["severity"]] += 1
    return {line: (c["Major"], c["Minor"]) for line, c in counts.items()}


@pytest.fixture
def real_app(new_app: Callable[..., AppTest]) -> AppTest:
    """The app on the excerpt with its MQM file, opened on Sentences."""
    argv = ["--ref", str(DATA / "Nemo.txt")]
    argv += ["--hyp", *(str(DATA / f"{name}.txt") for name in SYSTEMS)]
    argv += ["--src", str(DATA / "src.en.txt"), "--docids", str(DATA / "docids.txt")]
    at = new_app(*argv, "--mqm", str(DATA / "mqm_ted_ende.tsv"))
    at.switch_page(SENTENCES)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_marked_stretch_is_drawn_with_its_row(real_app: AppTest, system: str) -> None:
    at = real_app
    at.selectbox(key="sent_system").set_value(system).run()
    expected = expected_errors(system)
    assert len(expected) == len(docids())  # every line of the excerpt is rated
    for line, errors in expected.items():
        at.number_input(key="sent_seg").set_value(line + 1).run()
        assert not at.exception, [e.value for e in at.exception]
        drawn = [
            (p["data-severity"], p["data-category"], p["text"], False) for p in errors_drawn(at)
        ]
        source = [e for e in errors if e[3]]
        # Source-side stretches are drawn on the source line: compare them by text only.
        on_source = [d for d in drawn if (d[0], d[1], d[2], True) in source]
        target = [d for d in drawn if d not in on_source]
        assert sorted(target) == sorted(e for e in errors if not e[3]), line + 1
        assert len(on_source) == len(source), line + 1


def test_table_counts_every_rows_error_once(real_app: AppTest) -> None:
    at = real_app
    at.selectbox(key="sent_system").set_value("Facebook-AI").run()
    table = at.dataframe[0].value
    shown = {
        int(seg) - 1: (int(major), int(minor))
        for seg, major, minor in zip(table["seg"], table["major"], table["minor"], strict=True)
        if not pd.isna(major)
    }
    assert shown == expected_counts("Facebook-AI")
    assert sum(major for major, _ in shown.values()) >= 3  # the excerpt has Major errors
