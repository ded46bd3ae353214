"""AppTest of the sentences page: deep links, filters and the highlighted drill-down.

Golden numbers come from sacrebleu 2.6 on the raw sample files:
``BLEU(effective_order=True).sentence_score`` (what ``sacrebleu.sentence_bleu``
computes) for sentence BLEU, BP and clipped unigram/bigram matches, and
sacrebleu's 13a tokenizer for token counts. Clipped occurrences are counted
here from the tokens, by the definition in Papineni et al. (2002).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from sacrebleu.metrics import BLEU
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from streamlit.testing.v1 import AppTest

from bleuviz.render.labels import escape_markdown
from tests.app.markup import html_bodies, message_text

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "bleuviz" / "sample_data"
SYSTEMS = ("literal", "terse", "repeat")
STATUSES = {"match", "clip", "miss"}
SPECIAL_SEGMENTS = (26, 37, 59, 105)  # markup, entities, $ and * (sample_data/README)


def lines(name: str) -> list[str]:
    """Read a sample file as plain lines (LF endings, final newline; see sample_data/README)."""
    return (SAMPLE / name).read_text(encoding="utf-8").removesuffix("\n").split("\n")


HYPS = {name: lines(f"hyp.{name}.en") for name in SYSTEMS}
REFS = [lines("ref.A.en"), lines("ref.B.en")]
SOURCE = lines("source.de")
DOCIDS = lines("docids.txt")


def tokens(text: str) -> list[str]:
    """sacrebleu's 13a tokens of a line."""
    return Tokenizer13a()(text.rstrip()).split()


def sentence(system: str, seg: int) -> Any:
    """sacrebleu.sentence_bleu of segment ``seg`` (1-based)."""
    i = seg - 1
    return BLEU(effective_order=True).sentence_score(HYPS[system][i], [r[i] for r in REFS])


def clipped_unigrams(system: str, seg: int) -> int:
    """Hypothesis unigram occurrences found in a reference but beyond the max reference count."""
    hyp = Counter(tokens(HYPS[system][seg - 1]))
    refs = [Counter(tokens(r[seg - 1])) for r in REFS]
    clip = {w: max(r[w] for r in refs) for w in hyp}
    return sum(n - clip[w] for w, n in hyp.items() if clip[w] and n > clip[w])


CLIP_SEGMENT = next(s for s in range(1, 127) if clipped_unigrams("repeat", s) >= 2)


@pytest.fixture
def app(new_app: Callable[..., AppTest]) -> Iterator[AppTest]:
    """A fresh AppTest of the sentences page on the bundled sample, with empty caches."""
    at = new_app()
    at.switch_page("bleuviz/app/page_scripts/sentences.py")
    yield at


def run_ok(at: AppTest) -> AppTest:
    """Run (or rerun) the app and check it rendered inside the frame without exception."""
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.sidebar.selectbox(key="flavor").value in ("sacrebleu", "nltk", "tf-nmt")
    return at


def open_link(at: AppTest, **params: str) -> AppTest:
    """Open the page as a deep link with these query parameters."""
    for key, value in params.items():
        at.query_params[key] = value
    return run_ok(at)


class Spans(HTMLParser):
    """Collect the highlight spans (status and text), every tag, and the visible text."""

    def __init__(self, markup: str) -> None:
        super().__init__(convert_charrefs=True)
        self.spans: list[tuple[str, str]] = []
        self.tags: list[str] = []
        self.text = ""
        self._open: list[str | None] = []
        self.feed(markup)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        status = dict(attrs).get("data-status")
        if tag == "span" and status is not None:
            assert dict(attrs).get("class") == "bv-tok"
            self.spans.append((status, ""))
        self._open.append(status if tag == "span" else None)

    def handle_endtag(self, tag: str) -> None:
        self._open.pop()

    def handle_data(self, data: str) -> None:
        self.text += data
        if self._open and self._open[-1] is not None:
            status, text = self.spans[-1]
            self.spans[-1] = (status, text + data)

    @property
    def statuses(self) -> list[str]:
        return [s for s, _ in self.spans]


def highlight_html(at: AppTest) -> list[str]:
    """Bodies of the drill-down's hypothesis and reference highlights.

    Skips the style + legend, and stops at the next legend: the section showing
    the segment in every system, below the drill-down.
    """
    bodies = html_bodies(at)
    assert "bv-legend" in bodies[0]
    end = next((i for i, b in enumerate(bodies[1:], 1) if "bv-legend" in b), len(bodies))
    return bodies[1:end]


def table_segments(at: AppTest) -> list[int]:
    """Segment numbers of the sentence table's rows."""
    return [int(s) for s in at.dataframe[0].value["seg"]]


def test_deep_link_opens_the_segment(app: AppTest) -> None:
    open_link(app, sys="repeat", seg="5")
    assert app.selectbox(key="sent_system").value == "repeat"
    assert app.number_input(key="sent_seg").value == 5
    heading = app.subheader[0].value
    assert heading.startswith("Segment 5 ") and heading.endswith(" · repeat")
    assert escape_markdown(DOCIDS[4]) in heading  # ids from the data are escaped
    expected = sentence("repeat", 5)
    shown = {m.label: m.value for m in app.metric}
    assert shown["Sentence BLEU"] == f"{expected.score:.2f}"
    assert shown["Brevity penalty"] == f"{expected.bp:.3f}"
    assert shown["Lengths (hyp / ref)"] == f"{expected.sys_len} / {expected.ref_len}"
    assert app.text[0].value == SOURCE[4]


def scroll_scripts(at: AppTest) -> list[str]:
    """The page's scripts that scroll to an element (``widgets/scroll.py``)."""
    return [e.proto.body for e in at.get("html") if "scrollIntoView" in e.proto.body]


def test_a_link_to_a_segment_scrolls_to_its_drill_down_once(app: AppTest) -> None:
    open_link(app, sys="repeat", seg="5")
    (script,) = scroll_scripts(app)
    assert '"sent-segment"' in script
    run_ok(app)  # the user's next interaction: the page stays where the user is
    assert scroll_scripts(app) == []


def heading_place(at: AppTest) -> int:
    """Where the drill-down's heading sits among the page's top-level elements."""
    (heading,) = [h for h in at.subheader if h.value.startswith("Segment ")]

    def holds(node: Any) -> bool:
        return node is heading or any(holds(c) for c in getattr(node, "children", {}).values())

    return next(place for place, node in at.main.children.items() if holds(node))


def test_the_drill_down_keeps_its_place_after_the_scroll(app: AppTest) -> None:
    """An element that came and went would shift the ones below; the browser would draw
    them anew, closing a list the user just opened (the Category of a note)."""
    open_link(app, sys="repeat", seg="5")
    first = heading_place(app)
    run_ok(app)
    assert heading_place(app) == first


def test_a_page_opened_without_a_segment_stays_at_its_top(app: AppTest) -> None:
    open_link(app, sys="repeat")
    assert scroll_scripts(app) == []


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("seg", [1, 82, 126, CLIP_SEGMENT])
def test_sentence_bleu_metric_equals_sacrebleu(app: AppTest, system: str, seg: int) -> None:
    open_link(app, sys=system, seg=str(seg))
    metric = next(m for m in app.metric if m.label == "Sentence BLEU")
    assert metric.value == f"{sentence(system, seg).score:.2f}"


def test_table_sentence_bleu_equals_sacrebleu(app: AppTest) -> None:
    open_link(app, sys="terse")
    frame = app.dataframe[0].value
    assert list(frame["seg"]) == list(range(1, 127))
    expected = [sentence("terse", s).score for s in range(1, 127)]
    assert list(frame["bleu"]) == pytest.approx(expected, abs=1e-9)
    assert list(frame["hyp_len"]) == [len(tokens(h)) for h in HYPS["terse"]]


def test_query_string_follows_the_widgets(app: AppTest) -> None:
    run_ok(app)
    app.selectbox(key="sent_system").set_value("terse")
    app.number_input(key="sent_seg").set_value(17)
    run_ok(app)
    assert (app.query_params["sys"], app.query_params["seg"]) == ("terse", "17")
    assert app.subheader[0].value.startswith("Segment 17 ")


@pytest.mark.parametrize(
    ("params", "warns"),
    [
        ({"sys": "nonesuch", "seg": "3"}, ("sys=nonesuch", "no system of that name")),
        ({"sys": "repeat", "seg": "999"}, ("seg=999", "out of range (1 to 126)")),
        ({"sys": "repeat", "seg": "0"}, ("seg=0", "out of range (1 to 126)")),
        ({"sys": "repeat", "seg": "-2"}, ("seg=-2", "out of range (1 to 126)")),
        ({"sys": "repeat", "seg": "x"}, ("seg=x", "not a whole number")),
    ],
)
def test_bad_deep_links_are_named_and_fall_back_without_exception(
    app: AppTest, params: dict[str, str], warns: tuple[str, str]
) -> None:
    open_link(app, **params)
    messages = [message_text(w.value) for w in app.warning]
    fallback = "showing the first " + ("system, literal" if "sys=" in warns[0] else "segment")
    assert len(messages) == 1
    assert all(part in messages[0] for part in (*warns, fallback)), messages
    seg = app.number_input(key="sent_seg").value
    assert 1 <= seg <= 126
    assert app.subheader[0].value.startswith(f"Segment {seg} ")


def test_document_link_filters_the_table(app: AppTest) -> None:
    """The overview's document link: ?sys=&doc= shows that document's segments only."""
    open_link(app, sys="literal", doc="football-club")
    assert app.selectbox(key="sent_doc").value == "football-club"
    assert table_segments(app) == [i + 1 for i, d in enumerate(DOCIDS) if d == "football-club"]


@pytest.mark.parametrize("needle", ["tram", "TRAM", "<script>", "$5", "*teuer*", "&amp;", "zzz"])
def test_text_search_narrows_the_table(app: AppTest, needle: str) -> None:
    run_ok(app)
    app.text_input(key="sent_search").set_value(needle)
    run_ok(app)
    low = needle.lower()
    streams = [HYPS["literal"], *REFS, SOURCE]
    expected = [i + 1 for i in range(126) if any(low in s[i].lower() for s in streams)]
    assert table_segments(app) == expected
    counts = next(c.value for c in app.caption if "of 126 segments" in c.value)
    assert counts.startswith(f"{len(expected)} of 126 segments")


@pytest.mark.parametrize(("low", "high"), [(20.0, 60.0), (0.0, 30.0), (50.0, 100.0)])
def test_bleu_range_filters_the_table(app: AppTest, low: float, high: float) -> None:
    """The slider's ends mean "no bound": sacrebleu scores some perfect lines 100.00000000000001."""
    open_link(app, sys="repeat")
    app.slider(key="sent_bleu").set_range(low, high)
    run_ok(app)
    scores = [sentence("repeat", s).score for s in range(1, 127)]
    expected = [i + 1 for i, b in enumerate(scores) if low <= b and (high == 100 or b <= high)]
    assert 0 < len(expected) < 126
    assert table_segments(app) == expected


def test_length_range_filters_the_table(app: AppTest) -> None:
    open_link(app, sys="literal")
    app.slider(key="sent_len").set_range(5, 12)
    run_ok(app)
    expected = [i + 1 for i, h in enumerate(HYPS["literal"]) if 5 <= len(tokens(h)) <= 12]
    assert 0 < len(expected) < 126
    assert table_segments(app) == expected


def test_length_range_survives_a_system_switch(app: AppTest) -> None:
    open_link(app, sys="literal")
    app.slider(key="sent_len").set_range(5, 12)
    run_ok(app)
    app.selectbox(key="sent_system").set_value("repeat")
    run_ok(app)
    assert app.slider(key="sent_len").value == (5, 12)
    expected = [i + 1 for i, h in enumerate(HYPS["repeat"]) if 5 <= len(tokens(h)) <= 12]
    assert table_segments(app) == expected


def test_filters_combine(app: AppTest) -> None:
    open_link(app, sys="terse")
    app.text_input(key="sent_search").set_value("the")
    app.slider(key="sent_len").set_range(10, 20)
    app.slider(key="sent_bleu").set_range(30.0, 100.0)
    run_ok(app)
    expected = [
        i + 1
        for i, h in enumerate(HYPS["terse"])
        if any("the" in s[i].lower() for s in (HYPS["terse"], *REFS, SOURCE))
        and 10 <= len(tokens(h)) <= 20
        and sentence("terse", i + 1).score >= 30
    ]
    assert 0 < len(expected) < 126
    assert table_segments(app) == expected


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("seg", [1, CLIP_SEGMENT, *SPECIAL_SEGMENTS])
def test_highlight_spans_follow_the_markup_contract(app: AppTest, system: str, seg: int) -> None:
    """One span per token, statuses in {match, clip, miss}, counts equal sacrebleu's."""
    open_link(app, sys=system, seg=str(seg))
    bodies = highlight_html(app)
    assert len(bodies) == 1 + len(REFS)
    for body in html_bodies(app):
        statuses = Spans(body).statuses
        assert set(statuses) <= STATUSES, body
    hyp = Spans(bodies[0])
    hyp_tokens = tokens(HYPS[system][seg - 1])
    assert len(hyp.spans) == len(hyp_tokens)
    counts = Counter(hyp.statuses)
    assert counts["match"] == sentence(system, seg).counts[0]
    assert counts["clip"] == clipped_unigrams(system, seg)
    for body, ref in zip(bodies[1:], REFS, strict=True):
        assert len(Spans(body).spans) == len(tokens(ref[seg - 1]))


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("seg", SPECIAL_SEGMENTS)
def test_data_is_escaped_in_the_highlight(app: AppTest, system: str, seg: int) -> None:
    """Markup in a segment reaches the page escaped: no tag but the highlight's own."""
    open_link(app, sys=system, seg=str(seg))
    hyp = HYPS[system][seg - 1]
    for body, text in zip(highlight_html(app), [hyp, *(r[seg - 1] for r in REFS)], strict=True):
        parsed = Spans(body)
        assert set(parsed.tags) <= {"div", "span"}, parsed.tags
        # the original line, or its tokens where 13a rewrote it (it unescapes &amp;)
        assert parsed.text in (text, " ".join(tokens(text)))
    assert "<script" not in "".join(html_bodies(app))


def test_script_segment_shows_the_script_text(app: AppTest) -> None:
    open_link(app, sys="repeat", seg="105")
    body = highlight_html(app)[0]
    assert "<script" not in body
    assert "&#60;" in body  # written as a reference: inert to HTML and Markdown
    assert "\"<script>alert('Tor!')</script>\"" in Spans(body).text


def test_order_radio_changes_the_highlight(app: AppTest) -> None:
    open_link(app, sys="repeat", seg=str(CLIP_SEGMENT))
    order1 = highlight_html(app)
    grams1 = app.dataframe[1].value
    assert all(len(g.split()) == 1 for g in grams1["n-gram"])
    app.radio(key="sent_order").set_value(2)
    run_ok(app)
    order2 = highlight_html(app)
    assert order2 != order1
    grams2 = app.dataframe[1].value
    assert all(len(g.split()) == 2 for g in grams2["n-gram"])
    expected = sentence("repeat", CLIP_SEGMENT)
    assert int(grams2["matched"].sum()) == expected.counts[1]
    assert int(grams1["matched"].sum()) == expected.counts[0]
    assert any("at order 2" in m.value for m in app.markdown)
    hyp = Spans(order2[0])
    assert len(hyp.spans) == len(tokens(HYPS["repeat"][CLIP_SEGMENT - 1]))
    assert set(hyp.statuses) <= STATUSES


def test_precision_line_equals_sacrebleu_counts(app: AppTest) -> None:
    open_link(app, sys="literal", seg="26")
    s = sentence("literal", 26)
    line = next(m.value for m in app.markdown if m.value.startswith("Modified precision"))
    for n, (c, t) in enumerate(zip(s.counts, s.totals, strict=True), start=1):
        assert f"p{n} = {c}/{t} = {c / t:.4f}" in line


@pytest.mark.parametrize(("flavor", "ref_len"), [("sacrebleu", 5), ("nltk", 5), ("tf-nmt", 2)])
def test_drill_down_shows_the_reference_length_the_flavour_scores_against(
    new_app: Callable[..., AppTest], tmp_path: Path, flavor: str, ref_len: int
) -> None:
    """References of 2 and 5 tokens for a 5-token hypothesis: tf-nmt's BP uses the 2."""
    files = {"hyp.sys.txt": "a b c d e\n", "ref.short.txt": "a b\n", "ref.long.txt": "a b c d e\n"}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    refs = [str(tmp_path / "ref.short.txt"), str(tmp_path / "ref.long.txt")]
    at = new_app("--ref", *refs, "--hyp", str(tmp_path / "hyp.sys.txt"))
    at.switch_page("bleuviz/app/page_scripts/sentences.py")
    at.run()
    at.sidebar.selectbox(key="flavor").set_value(flavor)
    open_link(at, sys="sys", seg="1")
    shown = {m.label: m.value for m in at.metric}
    assert shown["Lengths (hyp / ref)"] == f"5 / {ref_len}"
    assert float(shown["Sentence BLEU"]) == pytest.approx(100.0)


@pytest.mark.parametrize(
    "page", ["bleuviz/app/page_scripts/sentences.py", "bleuviz/app/page_scripts/learn.py"]
)
def test_the_frame_draws_the_highlight_style_sheet_in_the_sidebar(app: AppTest, page: str) -> None:
    app.switch_page(page).run()
    assert not app.exception
    sheets = [m.value for m in app.sidebar.markdown if m.proto.allow_html]
    assert len(sheets) == 1
    assert '.bv-tok[data-status="clip"]' in sheets[0] and "\n" not in sheets[0]
    # The sidebar's first element: the browser fetches Markdown's raw-HTML renderer first.
    assert app.sidebar.children[0].value == sheets[0]
