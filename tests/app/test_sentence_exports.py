"""The Sentences page's downloads hold every column the table shows (issue 33, item 1).

A download is built when clicked, on a server thread without the session; the
captured builders are called here the same way, outside the script run.
Oracles: sacrebleu 2.6's ``sentence_bleu`` and ``sentence_chrf`` on the sample's
files, and the synthetic score files read with plain Python.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import sacrebleu
from streamlit.testing.v1 import AppTest

from bleuviz.app.ui.state.selection import OPEN_COLUMN
from bleuviz.io.load import load_paths
from bleuviz.workspace import Workspace
from tests.app.downloads import capture_downloads
from tests.app.error_span_data import sample_annotations, with_spans
from tests.data import (
    COMET_SCORES,
    HUMAN_SCORES,
    METRICX_SCORES,
    SAMPLE_HYPS,
    SAMPLE_REF_LINES,
    SAMPLE_REFS,
    SAMPLE_SYSTEM_LINES,
    file_scores,
)

FILES = [str(p) for p in (COMET_SCORES, METRICX_SCORES, HUMAN_SCORES)]
IMPORTED = ["COMET-test", "MetricX-test", "human"]


@pytest.fixture
def downloads(monkeypatch: pytest.MonkeyPatch) -> dict[str, Callable[[], bytes]]:
    return capture_downloads(monkeypatch)


@pytest.fixture
def page(new_app: Callable[..., AppTest], downloads: dict[str, Callable[[], bytes]]) -> AppTest:
    argv = ["--ref", *map(str, SAMPLE_REFS), "--hyp", *map(str, SAMPLE_HYPS)]
    at = new_app(*argv, "--seg-scores", *FILES)
    at.switch_page("bleuviz/app/page_scripts/sentences.py")
    at.session_state["metrics"] = ["chrF"]
    at.session_state["sent_bleu"] = (10.0, 100.0)  # some segments hidden
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def chrf(system: str) -> list[float]:
    refs = SAMPLE_REF_LINES
    return [
        sacrebleu.sentence_chrf(h, [r[i] for r in refs]).score
        for i, h in enumerate(SAMPLE_SYSTEM_LINES[system])
    ]


def check_rows(rows: pd.DataFrame, system: str) -> None:
    """Every metric of the table, equal to the oracles, on the segments in ``rows``."""
    index = rows["seg"].to_numpy() - 1
    refs = SAMPLE_REF_LINES
    hyps = SAMPLE_SYSTEM_LINES[system]
    bleu = [sacrebleu.sentence_bleu(hyps[i], [r[i] for r in refs]).score for i in index]
    assert rows["BLEU"].to_numpy() == pytest.approx(bleu)
    assert rows["chrF"].to_numpy() == pytest.approx(np.asarray(chrf(system))[index])
    for name, path in zip(IMPORTED, (COMET_SCORES, METRICX_SCORES, HUMAN_SCORES), strict=True):
        expected = file_scores(path)[system][index]
        assert rows[name].to_numpy(dtype=float) == pytest.approx(expected, nan_ok=True)


def test_segments_shown_carry_every_column(
    page: AppTest, downloads: dict[str, Callable[[], bytes]]
) -> None:
    table = page.dataframe[0].value
    system = page.selectbox(key="sent_system").value
    data = downloads["sent_export_csv"]()
    text = data.decode() if isinstance(data, bytes) else data
    frame = pd.read_csv(io.StringIO(text))  # only the table: no option needed
    assert frame["seg"].tolist() == table["seg"].tolist()
    # The open mark is the page's, not the data's (ui/state/selection.py).
    shown = {"BLEU" if c == "bleu" else c for c in table.columns} - {"hypothesis", OPEN_COLUMN}
    assert shown <= set(frame.columns)
    check_rows(frame, system)
    assert frame["signature chrF"].str.startswith("nrefs:2").all()
    assert frame["signature COMET-test"].str.startswith("imported").all()


def test_long_form_carries_every_metric_of_every_system(
    page: AppTest, downloads: dict[str, Callable[[], bytes]]
) -> None:
    document = json.loads(downloads["sent_export_all_json"]())
    frame = pd.DataFrame(document["rows"])
    assert set(document["signatures"]) >= {"BLEU", "chrF", *IMPORTED}
    for system in SAMPLE_SYSTEM_LINES:
        rows = frame[frame["system"] == system]
        assert len(rows) == len(SAMPLE_REF_LINES[0])
        check_rows(rows, system)


def test_long_form_latex_is_a_longtable_to_the_pages_decimals(
    page: AppTest, downloads: dict[str, Callable[[], bytes]]
) -> None:
    latex = downloads["sent_export_all_tex"]().decode()
    assert "\\begin{longtable}" in latex and "\\usepackage{booktabs, longtable}" in latex
    lines = [line for line in latex.splitlines() if line.endswith("\\\\")]
    header = [c.strip() for c in lines[0].removesuffix("\\\\").split("&")]
    first = [c.strip() for c in lines[1].removesuffix("\\\\").split("&")]
    system = next(iter(SAMPLE_SYSTEM_LINES))
    hyp = SAMPLE_SYSTEM_LINES[system][0]
    bleu = sacrebleu.sentence_bleu(hyp, [r[0] for r in SAMPLE_REF_LINES]).score
    assert first[header.index("BLEU")] == f"{bleu:.2f}"
    assert first[header.index("chrF")] == f"{chrf(system)[0]:.2f}"
    assert first[header.index("hyp\\_len")].isdigit()


def test_notes_come_after_the_hypothesis_and_travel_with_the_export(
    new_app: Callable[..., AppTest],
    downloads: dict[str, Callable[[], bytes]],
    isolated_workspace: Path,
) -> None:
    """The note column is mostly empty: it follows the text instead of pushing it away."""
    workspace = Workspace.open(isolated_workspace)
    saved = workspace.save_testset(load_paths(SAMPLE_HYPS, SAMPLE_REFS), "sample")
    workspace.save_note(saved.id, "literal", 3, "odd word", "terminology")
    at = new_app()
    at.switch_page("bleuviz/app/page_scripts/sentences.py")
    at.query_params["set"] = saved.id
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    columns = list(at.dataframe[0].value.columns)
    assert columns.index("note") > columns.index("hypothesis")
    frame = pd.DataFrame(json.loads(downloads["sent_export_json"]())["rows"])
    assert frame.loc[frame["seg"] == 4, "note"].item() == "terminology: odd word"
    every = pd.DataFrame(json.loads(downloads["sent_export_all_json"]())["rows"])
    noted = every[every["note"].fillna("") != ""]
    assert noted[["system", "seg"]].values.tolist() == [["literal", 4]]


def test_long_form_carries_every_systems_error_counts(
    new_app: Callable[..., AppTest],
    monkeypatch: pytest.MonkeyPatch,
    downloads: dict[str, Callable[[], bytes]],
) -> None:
    with_spans(monkeypatch, sample_annotations)
    at = new_app()
    at.switch_page("bleuviz/app/page_scripts/sentences.py")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert {"major", "minor"} <= set(at.dataframe[0].value.columns)  # as the page shows
    frame = pd.read_csv(io.BytesIO(downloads["sent_export_all_csv"]()))
    annotations = sample_annotations()
    for system in SAMPLE_SYSTEM_LINES:
        rows = frame[frame["system"] == system]
        for severity in ("major", "minor"):
            expected = [  # counted here: every rater's errors, blank where nobody rated
                np.nan if a is None else sum(s.severity == severity for s in a.spans)
                for a in annotations.segments.get(system, (None,) * len(rows))
            ]
            assert rows[severity].tolist() == pytest.approx(expected, nan_ok=True)
