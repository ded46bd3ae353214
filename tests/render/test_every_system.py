"""The one-block HTML of a segment in every system: order, roles and escaping."""

from __future__ import annotations

from html.parser import HTMLParser

from hypothesis import given
from hypothesis import strategies as st

from bleuviz.render.every_system import SystemLine, every_system_html


class _Text(HTMLParser):
    """Collects the text of each ``bv-system-head`` and every tag name seen."""

    def __init__(self) -> None:
        super().__init__()
        self.heads: list[str] = []
        self.tags: list[str] = []
        self._in_head = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if self._in_head:
            self._in_head += 1
        elif ("class", "bv-system-head") in attrs:
            self._in_head = 1
            self.heads.append("")

    def handle_endtag(self, tag: str) -> None:
        if self._in_head:
            self._in_head -= 1

    def handle_data(self, data: str) -> None:
        if self._in_head:
            self.heads[-1] += data


def parse(markup: str) -> _Text:
    parser = _Text()
    parser.feed(markup)
    parser.close()
    return parser


def test_rows_keep_their_order_role_scores_and_lines() -> None:
    rows = [
        SystemLine("b", False, [("BLEU", "40.00"), ("chrF", "61.2")], "<p>L1</p>", "<p>D1</p>"),
        SystemLine("a", True, [("BLEU", "12.50")], "<p>L2</p>", None),
    ]
    markup = every_system_html(rows)
    assert parse(markup).heads == ["b · BLEU 40.00 · chrF 61.2", "a (baseline) · BLEU 12.50"]
    assert markup.index("L1") < markup.index("D1") < markup.index("L2")
    assert markup.count('class="bv-system"') == 2


@given(
    name=st.text(min_size=1),
    label=st.text(min_size=1),
)
def test_names_and_labels_from_the_data_show_literally(name: str, label: str) -> None:
    markup = every_system_html([SystemLine(name, False, [(label, "1.00")], "", None)])
    parsed = parse(markup)
    # Parsing the HTML gives back exactly the text given, and no tag came from the data.
    assert parsed.heads == [f"{name} · {label} 1.00"]
    assert parsed.tags == ["div", "div", "span"]  # the CSS is drawn apart, once a page
