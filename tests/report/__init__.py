"""Tests of bleuviz.report: the TED MQM excerpt's files, shared by its modules."""

from __future__ import annotations

from tests.data import ROOT

MQM_DATA = ROOT / "tests" / "data" / "mqm"
MQM_HYPS = [MQM_DATA / f"{name}.txt" for name in ("Facebook-AI", "Nemo", "metricsystem2")]
#: The excerpt has no German reference: the English source stands in (as tests/cli/test_mqm_cli.py).
MQM_REF = MQM_DATA / "src.en.txt"
MQM_DOCIDS = MQM_DATA / "docids.txt"
MQM_FILE = MQM_DATA / "mqm_ted_ende.tsv"


def html_table(html: str, caption: str) -> list[list[str]]:
    """The rows (header first) of the table of ``html`` captioned ``caption``, as cell texts."""
    from lxml import html as lxml_html

    tree = lxml_html.fromstring(html)
    for table in tree.iter("table"):
        found = table.find("caption")
        if found is not None and found.text_content().strip() == caption:
            return [
                [cell.text_content().strip() for cell in row.iter("th", "td")]
                for row in table.iter("tr")
            ]
    raise AssertionError(f"no table captioned {caption!r}")
