"""The link's list parser ``choices``: what ``show_list`` writes reads back, once each.

Oracle: the chosen list itself (round trip) and the plain comma split, for
options without commas, as the parser read them before options could hold one;
with commas, that every reading is made of options and covers the text.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuviz.app.ui.state.link_values import LinkValueError, choices, show_list, split_list

#: Option names as error categories look (letters, slashes, spaces inside), commas allowed.
NAMES = st.text(alphabet="ab /,", min_size=1, max_size=6).map(str.strip).filter(bool)


@settings(max_examples=200, deadline=None)
@given(st.lists(NAMES, min_size=1, max_size=6, unique=True), st.data())
def test_chosen_options_read_back(options: list[str], data: st.DataObject) -> None:
    chosen = data.draw(st.lists(st.sampled_from(options), unique=True))
    shown = show_list(chosen)
    parse = choices(options, "thing")
    if all("," not in o for o in options):
        assert parse(shown) == split_list(shown) == chosen
        return
    # With commas in the options, every part is read as some option (the longest run
    # first), never refused, and the runs read cover the link's text in order.
    got = parse(shown)
    assert isinstance(got, list) and set(got) <= set(options)
    if len(set(got)) == len(got) and len(got) == len(chosen):
        assert show_list(got).replace(" ", "") == shown.replace(" ", "")


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("major,minor,major", ["major", "minor"]),
        (" minor , ,major", ["minor", "major"]),
        (
            "Locale convention/Number, date format,minor",
            ["Locale convention/Number, date format", "minor"],
        ),
        ("", []),
    ],
)
def test_examples(raw: str, expected: list[str]) -> None:
    options = ["major", "minor", "Locale convention/Number, date format"]
    assert choices(options, "thing")(raw) == expected


def test_a_run_the_longest_match_would_strand_is_read_another_way() -> None:
    """ "a,b,c" of ["a", "b,c"]: taking "a,b" first would leave "c", which is no option."""
    assert choices(["a,b", "b,c", "a"], "thing")("a,b,c") == ["a", "b,c"]


def test_an_unknown_value_names_what_is_allowed() -> None:
    with pytest.raises(LinkValueError, match=r"no severity of that name \(one of major, minor\)"):
        choices(["major", "minor"], "severity")("major,fatal")


def test_a_long_list_is_parsed_in_linear_time_of_its_parts() -> None:
    """100,000 repeats of one option (a hostile link) give one value, not 100,000."""
    assert choices(["a,b", "c"], "thing")(",".join(["a,b", "c"] * 50_000)) == ["a,b", "c"]
