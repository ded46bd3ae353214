"""Human error spans drawn over BLEU's token highlight (``bleuviz.render.error_marks``).

The oracle is the markup read back by Python's HTML parser: every character
shown, with the elements open around it. An error's pieces (``data-span``) must
give back exactly its characters, the tokens their statuses, and nothing from
the annotations may become a tag or an attribute.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuviz.bleu.explain import explain_segment
from bleuviz.bleu.spans import align_tokens
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.io.error_spans import ErrorSpan
from bleuviz.render.error_marks import (
    error_legend,
    error_line_html,
    error_title,
    place_errors,
    tokens_with_errors,
)
from bleuviz.render.highlight import STYLE, hypothesis_html, hypothesis_with_errors

HOSTILE = '<img src=x onerror="alert(1)">'


@dataclass
class Shown:
    """The markup read back: tags, and each shown character with the attributes around it."""

    tags: list[str] = field(default_factory=list)
    chars: list[tuple[str, tuple[dict[str, str | None], ...]]] = field(default_factory=list)
    balanced: bool = True


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.shown = Shown()
        self.stack: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.shown.tags.append(tag)
        self.stack.append((tag, dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1][0] != tag:
            self.shown.balanced = False
            return
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        around = tuple(attrs for _, attrs in self.stack)
        self.shown.chars.extend((ch, around) for ch in data)


def read(markup: str) -> Shown:
    """Parse ``markup``; check every element closes where it should."""
    reader = _Reader()
    reader.feed(markup)
    reader.close()
    reader.shown.balanced &= not reader.stack
    return reader.shown


def line_chars(shown: Shown) -> list[tuple[str, tuple[dict[str, str | None], ...]]]:
    """The characters of the line itself (not the omission markers after it)."""
    return [
        (ch, around)
        for ch, around in shown.chars
        if not any("bv-omission" in (a.get("class") or "") for a in around)
    ]


def pieces_by_span(shown: Shown) -> dict[str, str]:
    """Each error's characters, gathered from its pieces (``data-span``) in order."""
    out: dict[str, str] = {}
    for ch, around in line_chars(shown):
        for attrs in around:
            if attrs.get("class") == "bv-err":
                number = str(attrs["data-span"])
                out[number] = out.get(number, "") + ch
    return out


def span(start: int, end: int, severity: str = "major", category: str = "Accuracy") -> ErrorSpan:
    """An error marked by rater r1."""
    return ErrorSpan(start, end, severity, category, "r1")


def test_hostile_annotations_stay_text() -> None:
    text = "Ein Test <b>fett</b> hier."
    errors = [
        ErrorSpan(0, 3, 'major" onclick="x', HOSTILE, '"><script>alert(1)</script>'),
        ErrorSpan(0, 0, "minor", HOSTILE, "r<i>", omission=True),
    ]
    markup = error_line_html(text, errors)
    shown = read(markup)
    assert set(shown.tags) == {"div", "span"}
    assert "<img" not in markup and "<script" not in markup and "<b>" not in markup
    assert shown.balanced
    pieces = [attrs for _, around in shown.chars for attrs in around if "data-category" in attrs]
    assert {a["data-category"] for a in pieces} == {HOSTILE}
    assert {a["data-severity"] for a in pieces} == {'major" onclick="x', "minor"}
    assert all("onclick" not in a and "onerror" not in a for a in pieces)
    assert "".join(ch for ch, _ in line_chars(shown)) == text


def test_major_error_over_the_ngram_highlight() -> None:
    expl = explain_segment("Das ist ein kleiner Test .", ["Das ist ein Test ."], TokenizeConfig())
    markup = hypothesis_with_errors(expl, 1, [span(12, 19, "major", "Accuracy/Addition")])
    shown = read(markup)
    assert "".join(ch for ch, _ in shown.chars[12:19]) == "kleiner"
    kleiner = [around for _, around in shown.chars[12:19]]
    for around in kleiner:  # the token's status outside, the error inside it
        assert [a.get("class") for a in around] == ["bv-line", "bv-tok", "bv-err"]
        assert around[1]["data-status"] == "miss"
        assert around[2]["data-severity"] == "major"
        assert around[2]["data-category"] == "Accuracy/Addition"
    tip = kleiner[0][2]["title"] or ""
    assert tip.startswith("Major · Accuracy/Addition · rater r1\n")
    assert "not in any reference" in tip  # the token's own hover text is kept below
    without = read(hypothesis_html(expl, 1))
    assert [a[-1].get("data-status") for _, a in without.chars if len(a) > 1] == [
        a[1].get("data-status") for _, a in shown.chars if len(a) > 1
    ]


def test_overlapping_errors_take_lanes_and_keep_their_characters() -> None:
    text = "one two three four five"
    errors = [span(4, 13, "major"), span(8, 18, "minor"), span(10, 12, "neutral")]
    shown = read(error_line_html(text, errors))
    assert shown.balanced
    assert pieces_by_span(shown) == {str(i): text[e.start : e.end] for i, e in enumerate(errors)}
    lanes: dict[str, set[str | None]] = {}
    for _, around in line_chars(shown):
        for attrs in around[1:]:
            lanes.setdefault(str(attrs["data-span"]), set()).add(attrs["data-lane"])
    assert all(len(found) == 1 for found in lanes.values())  # one lane along an error
    assert len({found.pop() for found in lanes.values()}) == 3  # all three overlap at 10-12


def test_omission_and_outside_spans_are_markers_after_the_line() -> None:
    text = "short line"
    errors = [
        ErrorSpan(0, 0, "major", "Accuracy/Omission", "r2", omission=True),
        span(5, 40, "minor"),
    ]
    shown = read(error_line_html(text, errors))
    assert "".join(ch for ch, _ in line_chars(shown)) == text  # nothing underlined in the line
    markers = {
        (a.get("data-omission"), a.get("data-outside"), a["data-severity"])
        for _, around in shown.chars
        for a in around
        if "bv-omission" in (a.get("class") or "")
    }
    assert markers == {("true", None, "major"), (None, "true", "minor")}


def test_source_errors_are_left_to_the_source_line() -> None:
    expl = explain_segment("Ein Test .", ["Ein Test ."], TokenizeConfig())
    on_source = ErrorSpan(0, 3, "major", "Source issue", "r1", on_source=True)
    assert pieces_by_span(read(hypothesis_with_errors(expl, 1, [on_source]))) == {}
    assert pieces_by_span(read(error_line_html("The test.", [on_source]))) == {"0": "The"}


def test_unaligned_hypothesis_shows_tokens_then_errors_on_the_raw_text() -> None:
    text = "Er sagte &quot;nein&quot; laut."  # 13a turns &quot; into ": no alignment
    expl = explain_segment(text, ["Er sagte laut nein."], TokenizeConfig())
    assert expl.hyp_spans is None
    shown = read(hypothesis_with_errors(expl, 1, [span(9, 25, "minor", "Fluency/Punctuation")]))
    assert pieces_by_span(shown) == {"0": text[9:25]}
    statuses = {a.get("data-status") for _, around in shown.chars for a in around}
    assert {"match", "miss"} <= statuses  # the tokens, still highlighted
    assert "".join(ch for ch, around in shown.chars if around[0]["class"] == "bv-line").endswith(
        text
    )


def test_legend_and_style_cover_each_severity() -> None:
    legend = read(error_legend())
    shown = {a.get("data-severity") for _, around in legend.chars for a in around}
    assert {"major", "minor", "neutral"} <= shown
    legend = read(error_legend(["major", "critical", '<b x="1">']))
    extra = [a.get("data-severity") for _, around in legend.chars for a in around]
    assert "critical" in extra and '<b x="1">' in extra and "b" not in legend.tags
    samples = [ch for ch, around in legend.chars if around[-1].get("data-severity") == "major"]
    assert "".join(samples).startswith("major")  # one sample each, the usual first
    for severity in ("major", "minor", "neutral"):
        assert f'.bv-err[data-severity="{severity}"]' in STYLE


@pytest.mark.parametrize(
    ("error", "title"),
    [
        (span(0, 1, "major", "Accuracy"), "Major · Accuracy · rater r1"),
        (
            ErrorSpan(0, 0, "minor", "", "", omission=True),
            "Omission · Minor · no category · no rater",
        ),
        (
            ErrorSpan(0, 2, "major", "Fluency", "xCOMET", confidence=0.876),
            "Major · Fluency · rater xCOMET · confidence 0.88",
        ),
    ],
)
def test_titles(error: ErrorSpan, title: str) -> None:
    assert error_title(error) == title


WORDS = st.lists(st.sampled_from(["a", "b", "c", ",", ".", "<i>", "&amp;", "$x$"]), max_size=10)


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_any_errors_over_any_tokens_give_back_text_tokens_and_spans(data: st.DataObject) -> None:
    text = " ".join(data.draw(WORDS))
    tokens = text.split()
    spans = align_tokens(text, tokens)
    assert spans is not None
    bounds = st.integers(0, len(text))
    errors = []
    for _ in range(data.draw(st.integers(0, 5))):
        a, b = sorted((data.draw(bounds), data.draw(bounds)))
        errors.append(span(a, b, data.draw(st.sampled_from(["major", "minor", "neutral", "x"]))))
    statuses = [data.draw(st.sampled_from(["match", "clip", "miss"])) for _ in tokens]
    shown = read(tokens_with_errors(text, spans, statuses, [""] * len(tokens), errors))
    assert shown.balanced
    assert "".join(ch for ch, _ in line_chars(shown)) == text
    expected = {str(i): text[e.start : e.end] for i, e in enumerate(errors) if e.start < e.end}
    assert pieces_by_span(shown) == expected
    drawn, markers = place_errors(text, errors)
    assert len(drawn) + len(markers) == len(errors)
    for x in drawn:  # overlapping errors never share a lane
        overlapping = [y for y in drawn if y is not x and x.start < y.end and y.start < x.end]
        assert all(y.lane != x.lane for y in overlapping)
    token_statuses = []
    for ch, around in line_chars(shown):
        status = next((a["data-status"] for a in around if "data-status" in a), None)
        if status is not None and not ch.isspace():
            token_statuses.append(status)
    assert token_statuses == [s for s, t in zip(statuses, tokens, strict=True) for _ in t]
