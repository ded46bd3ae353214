"""``bleuviz report``: its numbers are the other commands' JSON, its bytes depend on the inputs.

Every number is checked twice: in the gathered report (``report_of``, full
precision) and in the HTML file's tables, as printed. The oracles are the
command line's own JSON (``score``, ``compare --all-pairs --holm``, ``correlate``,
``spans``) on the same files.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import re
import subprocess
import sys
from html import unescape
from pathlib import Path

import pytest

from bleuviz import __version__
from bleuviz.cli.main import build_parser, main
from bleuviz.cli.report import report_of
from bleuviz.cli.spans import analysis_dict
from bleuviz.render.json_stream import dumps
from bleuviz.report.build import Report
from bleuviz.report.segments import unpack_segments
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
from tests.report import MQM_DOCIDS, MQM_FILE, MQM_HYPS, MQM_REF, html_table

SAMPLE = ["--ref", *map(str, SAMPLE_REFS), "--hyp", *map(str, SAMPLE_HYPS)]
SAMPLE += ["--src", str(SAMPLE_SOURCE), "--docids", str(SAMPLE_DOCIDS)]
SCORES = ["--seg-scores", str(COMET_SCORES), str(METRICX_SCORES), str(HUMAN_SCORES)]
TED = ["--ref", str(MQM_REF), "--hyp", *map(str, MQM_HYPS), "--docids", str(MQM_DOCIDS)]
TED += ["--mqm", str(MQM_FILE)]
EPOCH = "1700000000"


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def built(*argv: str) -> Report:
    """The report ``bleuviz report ARGV -o x.html`` writes, gathered."""
    args: argparse.Namespace = build_parser(["report"]).parse_args(["report", *argv, "-o", "x"])
    return report_of(args)


@pytest.fixture
def written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Run ``bleuviz report ARGV`` into a file; return its text."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)

    def write(*argv: str, name: str = "report.html") -> str:
        out = tmp_path / name
        assert main(["report", *argv, "-o", str(out)]) == 0
        return out.read_text(encoding="utf-8")

    return write


def test_scores_are_those_of_score(written, capsys: pytest.CaptureFixture[str]) -> None:
    argv = [*SAMPLE, *SCORES, "-m", "bleu", "chrf", "ter"]
    score = run_json(capsys, "score", *argv, "-f", "json")
    report = built(*argv)
    html = written(*argv)
    anatomy = {a.system: a for a in report.anatomy}
    columns = {c.name: c for c in report.ranking.columns}
    parts = {row[0]: row for row in html_table(html, "BLEU by part")[1:]}
    systems = {row[1]: row for row in html_table(html, "Systems")[1:]}
    header = html_table(html, "Systems")[0]
    for system in score["systems"]:
        name, a = system["name"], anatomy[system["name"]]
        assert (a.score, list(a.precisions), a.bp, a.ratio) == pytest.approx(
            (system["bleu"], system["precisions"], system["bp"], system["ratio"])
        )
        assert (a.hyp_len, a.ref_len) == (system["hyp_len"], system["ref_len"])
        assert parts[name][1] == f"{system['bleu']:.2f}"
        assert parts[name][-2:] == [f"{system['hyp_len']:,}", f"{system['ref_len']:,}"]
        for metric in system["metrics"]:
            assert columns[metric["name"]].scores[name] == pytest.approx(metric["score"])
            assert columns[metric["name"]].signature == metric["signature"]
            cell = systems[name][header.index(metric["name"])]
            assert cell == f"{metric['score']:.2f}"
        for imported, summary in system["seg_scores"].items():
            assert columns[imported].scores[name] == pytest.approx(summary["mean"])
    assert columns["BLEU"].signature == score["systems"][0]["signature"]


def test_ranking_and_clusters_are_those_of_compare_all_pairs_holm(
    written, capsys: pytest.CaptureFixture[str]
) -> None:
    compare = run_json(capsys, "compare", *SAMPLE, "--all-pairs", "--holm", "-f", "json")
    capsys.readouterr()
    report = built(*SAMPLE)
    ranking = report.ranking
    assert ranking.tests.holm and ranking.signature == compare["signature"]
    assert [list(c) for c in ranking.clusters] == compare["clusters"]
    pairs = [(p.a, p.b, p.diff, p.p_value_bs, p.p_value_ar) for p in ranking.pairs]
    expected = [
        (p["a"], p["b"], p["diff"], p["p_value_bs"], p["p_value_ar"]) for p in compare["pairs"]
    ]
    assert pairs == pytest.approx(expected)
    bleu = ranking.columns[0]
    for row in [compare["baseline"], *compare["systems"]]:
        assert (bleu.means[row["name"]], bleu.cis[row["name"]]) == pytest.approx(
            (row["mean"], row["ci"])
        )
    html = written(*SAMPLE)
    shown = html_table(html, "Every pair on BLEU: diff = b − a, p-values Holm-adjusted")[1:]
    for cells, pair in zip(shown, compare["pairs"], strict=True):
        star = "*" if pair["p_value_bs"] < 0.05 else ""
        assert cells[:4] == [
            pair["a"],
            pair["b"],
            f"{pair['diff']:.4f}",
            f"{pair['p_value_bs']:.4f}{star}",
        ]
    clusters = html_table(html, "Rank clusters")[1:]
    assert [row[1] for row in clusters] == [", ".join(c) for c in compare["clusters"]]


def test_two_systems_are_tested_without_holm(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--ref", *map(str, SAMPLE_REFS), "--hyp", *map(str, SAMPLE_HYPS[:2])]
    compare = run_json(capsys, "compare", *argv, "--all-pairs", "-f", "json")
    ranking = built(*argv).ranking
    assert not ranking.tests.holm and ranking.signature == compare["signature"]
    assert ranking.pairs[0].p_value_bs == pytest.approx(compare["pairs"][0]["p_value_bs"])


def test_correlations_are_those_of_correlate(written, capsys: pytest.CaptureFixture[str]) -> None:
    argv = [*SAMPLE, *SCORES, "-m", "bleu", "chrf"]
    correlate = run_json(capsys, "correlate", *argv, "--human", "human", "-f", "json")
    report = built(*argv, "--human", "human")
    assert report.human is not None
    assert [c.as_dict() for c in report.human.correlations] == pytest.approx(correlate["metrics"])
    html = written(*argv, "--human", "human")
    rows = html_table(html, "Correlation with human")[1:]
    assert [row[0] for row in rows] == [m["name"] for m in correlate["metrics"]]
    for row, metric in zip(rows, correlate["metrics"], strict=True):
        assert (
            row[1] == f"{metric['system_pearson']:.4f}"
            and row[4] == f"{metric['segment_kendall']:.4f}"
        )


def test_disagreements_link_to_segments_the_report_holds(written) -> None:
    html = written(*SAMPLE, *SCORES, "--human", "human", "--max-segments", "60")
    links = [int(n) for n in re.findall(r'href="#seg-(\d+)"', html)]
    held = {s["n"] for s in packed(html)["segments"]}
    assert links and set(links) <= held
    assert len(held) == 60 // 3  # rows of three systems


def test_what_bleu_sees_is_that_of_spans(written, capsys: pytest.CaptureFixture[str]) -> None:
    spans = run_json(capsys, "spans", *TED, "-f", "json")
    capsys.readouterr()
    report = built(*TED)
    assert report.errors is not None and report.human is not None
    assert report.human.human == "MQM"  # the people's spans give the human score by default
    shown = analysis_dict(report.errors.analysis, report.errors.categories)
    assert json.loads(dumps(shown)) == spans
    assert report.errors.categories == tuple(spans["all"]["by_category"])
    html = written(*TED)
    rows = html_table(html, "What BLEU sees of MQM's errors (all systems)")
    first = spans["all"]["orders"][0]
    share = 100 * first["error_flagged"] / first["error_tokens"]
    assert rows[1][:3] == ["all errors", f"{first['error_tokens']:,}", f"{share:.1f}"]


def test_the_same_inputs_give_the_same_bytes(written) -> None:
    first = written(*TED, "-m", "chrf", name="a.html")
    again = written(*TED, "-m", "chrf", name="b.html")
    assert first == again
    assert "2023-11-14 22:13:20 UTC" in first


def test_another_date_changes_only_the_date(written, monkeypatch: pytest.MonkeyPatch) -> None:
    first = written(*SAMPLE, name="a.html")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    later = written(*SAMPLE, name="b.html")
    assert later.replace("1970-01-01 00:00:00 UTC", "2023-11-14 22:13:20 UTC") == first


def test_provenance_names_every_input_and_signature(written) -> None:
    html = written(*TED, "-m", "chrf")
    files = html_table(html, "Input files")[1:]
    paths = [MQM_REF, *MQM_HYPS, MQM_DOCIDS, MQM_FILE]
    assert [row[1:] for row in files] == [
        [p.name, hashlib.sha256(p.read_bytes()).hexdigest()] for p in paths
    ]
    about = dict(row for row in html_table(html, "How this report was made")[1:] if len(row) == 2)
    assert about["bleuviz"] == __version__
    assert (
        about["command"].startswith("bleuviz report --ref ")
        and "--metrics chrf" in about["command"]
    )
    assert about["BLEU signature"].startswith("nrefs:1|case:mixed|eff:no|tok:13a")
    assert about["chrF2 signature"].startswith("nrefs:1|case:mixed|eff:yes|nc:6|nw:0")


def packed(html: str) -> dict:
    found = re.search(
        r'<script type="application/octet-stream" id="bv-data">([^<]*)</script>', html
    )
    assert found is not None
    return unpack_segments(found.group(1))


def test_the_page_allows_only_its_own_script(written) -> None:
    html = written(*TED)
    scripts = re.findall(r"<script>(.*?)</script>", html, re.S)
    assert len(scripts) == 1
    digest = base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
    policy = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', html)
    assert policy is not None
    content = unescape(policy.group(1))
    assert content.startswith(f"default-src 'none'; script-src 'sha256-{digest}';")
    assert "unsafe" not in content.split("script-src")[1].split(";")[0]
    # Nothing to fetch: no src attribute, links only inside the page.
    assert not re.search(r"\ssrc=", html)
    assert set(re.findall(r'\shref="(.)', html)) == {"#"}


def test_every_segment_is_packed_with_its_evidence(written) -> None:
    data = packed(written(*TED))
    assert [s["n"] for s in data["segments"]] == list(range(1, 26))
    assert data["systems"] == ["Facebook-AI", "Nemo", "metricsystem2"]
    lines = MQM_HYPS[1].read_text(encoding="utf-8").splitlines()
    first = data["segments"][0]["hyps"][1]
    assert first["t"] == lines[0]
    assert len(first["k"]) == 4 * len(first["o"]) // 2  # four orders a token
    errors = [e for s in data["segments"] for h in s["hyps"] for e in h.get("e", [])]
    assert {e[3] for e in errors} >= {"minor", "major"}


def test_past_max_segments_the_browser_holds_a_sample_and_says_so(written) -> None:
    whole = built(*TED)
    html = written(*TED, "--max-segments", "30")
    data = packed(html)
    assert len(data["segments"]) == 10 and data["total"] == 25
    assert "This report holds 10 of the 25 segments" in html
    assert "It cannot be reopened whole." in html
    sampled = built(*TED, "--max-segments", "30")
    assert sampled.anatomy == whole.anatomy  # the summaries cover every segment
    assert sampled.held.telling + sampled.held.sampled == 10


def test_a_saved_sets_notes_are_in_the_report(tmp_path: Path, written, capsys) -> None:
    ws = str(tmp_path / "ws")
    assert main(["add", "--workspace", ws, *SAMPLE, "-f", "json"]) == 0
    set_id = json.loads(capsys.readouterr().out)["id"]
    workspace = Workspace.open(ws)
    workspace.save_note(set_id, "terse", 0, "<b>too</b> strong", "accuracy/mistranslation",
                        severity="major", span=(13, 19))  # fmt: skip
    html = written("--set", set_id, "--workspace", ws)
    notes = html_table(html, "Notes")[1:]
    assert notes == [
        ["1", "terse", "anonymous", "accuracy/mistranslation", "major", "<b>too</b> strong"]
    ]
    assert "&lt;b&gt;too&lt;/b&gt; strong" in html
    held = packed(html)["segments"][0]["hyps"][1]["notes"]
    note = {"author": "anonymous", "category": "accuracy/mistranslation", "severity": "major"}
    assert held == [{**note, "text": "<b>too</b> strong", "span": [13, 19]}]
    assert html_table(html, "Input files")[1:] == [["saved test set", set_id, "(workspace)"]]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--human", "nope"], "bleuviz: error: --human: no imported score 'nope' (MQM)"),
        (["--metric", "ROUGE-L"], "bleuviz: error: --metric: ROUGE-L has no paired test"),
        (["--metric", "nope"], "bleuviz: error: --metric: no metric 'nope'"),
    ],
)
def test_mistakes_are_one_line(
    extra: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", *TED, *extra, "-o", str(tmp_path / "r.html")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == err.count("bleuviz: note:") + 1  # the MQM file's own notes
    assert err.splitlines()[-1].startswith(message)
    assert not (tmp_path / "r.html").exists()


def test_an_unwritable_output_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "missing" / "r.html"
    assert main(["report", *SAMPLE, "-o", str(out)]) == 2
    assert capsys.readouterr().err == (
        f"bleuviz: error: --output: cannot write {out}: No such file or directory\n"
    )


def test_max_segments_below_one_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as leaving:
        main(["report", *SAMPLE, "--max-segments", "0", "-o", "x.html"])
    assert leaving.value.code == 2
    assert capsys.readouterr().err.endswith("argument --max-segments: must be at least 1, got 0\n")


def test_without_a_human_score_there_is_no_human_section(written) -> None:
    assert built(*SAMPLE, *SCORES).human is None
    html = written(*SAMPLE, *SCORES)
    assert 'id="human"' not in html and 'id="errors"' not in html
    assert 'id="ranking"' in html and 'id="buckets"' in html


def test_other_metrics_cis_are_those_of_compare_with_a_thousand_resamples(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = [*SAMPLE, *SCORES]
    chrf = run_json(
        capsys, "compare", *argv, "--metric", "chrF", "--paired-bs", "1000", "-f", "json"
    )
    comet = run_json(
        capsys, "compare", *argv, "--metric", "COMET-test", "--paired-bs", "1000", "-f", "json"
    )
    columns = {c.label: c for c in built(*argv, "-m", "chrf").ranking.columns}
    for label, compare in (("chrF", chrf), ("COMET-test", comet)):
        for row in [compare["baseline"], *compare["systems"]]:
            name = row["name"]
            got = (columns[label].means[name], columns[label].cis[name])
            assert got == pytest.approx((row["mean"], row["ci"]))


def test_two_processes_write_the_same_bytes(tmp_path: Path) -> None:
    """Another process (another string-hash seed) writes the same file."""
    root = Path(__file__).resolve().parents[2]
    outs = []
    for seed in ("1", "2"):
        out = tmp_path / f"r{seed}.html"
        env = {**os.environ, "PYTHONHASHSEED": seed, "SOURCE_DATE_EPOCH": EPOCH}
        env["PYTHONPATH"] = str(root)
        command = [sys.executable, "-m", "bleuviz", "report", *TED, "-m", "chrf", "-o", str(out)]
        subprocess.run(command, env=env, check=True, capture_output=True)
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
