"""The streamed JSON is the text ``json.dumps(indent=2, ensure_ascii=False)`` writes."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleuviz.errors import BleuvizError
from bleuviz.render.json_stream import LazyArray, dumps, write_json

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text() | st.integers() | st.booleans() | st.none(), inner, max_size=4)
    ),
    max_leaves=30,
)


def streamed(obj: Any, indent: int = 2) -> str:
    out = io.StringIO()
    write_json(obj, out, indent)
    return out.getvalue()


def lazy(obj: Any) -> Any:
    """``obj`` with every list turned into a LazyArray (made again on each write)."""
    if isinstance(obj, dict):
        return {k: lazy(v) for k, v in obj.items()}
    if isinstance(obj, list):
        items = [lazy(v) for v in obj]
        return LazyArray(lambda: iter(items))
    return obj


@given(values, st.integers(0, 4))
def test_the_text_equals_json_dumps(obj: Any, indent: int) -> None:
    assert streamed(obj, indent) == json.dumps(obj, indent=indent, ensure_ascii=False)


@given(values)
def test_lazy_arrays_write_as_the_lists_they_make(obj: Any) -> None:
    assert streamed(lazy(obj)) == json.dumps(obj, indent=2, ensure_ascii=False)


@given(st.lists(values, max_size=5), st.integers(0, 4), st.integers(0, 3))
def test_plain_lazy_arrays_at_any_depth_write_as_their_lists(
    items: list[Any], indent: int, depth: int
) -> None:
    obj: Any = LazyArray(lambda: iter(items), plain=True)
    want: Any = items
    for level in range(depth):
        obj, want = {f"k{level}": obj, "n": level}, {f"k{level}": want, "n": level}
    assert streamed(obj, indent) == json.dumps(want, indent=indent, ensure_ascii=False)


def test_many_items_are_flushed_in_pieces_and_nothing_is_lost() -> None:
    rows = LazyArray(lambda: ({"i": i, "x": [i, i + 1]} for i in range(50_000)))
    text = streamed({"rows": rows})
    assert json.loads(text) == {"rows": [{"i": i, "x": [i, i + 1]} for i in range(50_000)]}


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf")])
@pytest.mark.parametrize("plain", [False, True])
def test_a_number_json_cannot_hold_is_refused_not_written(bad: float, plain: bool) -> None:
    """Issue 44, item 27: ``"bleu": Infinity`` was written; RFC 8259 has no such number."""
    obj = {"systems": [{"bleu": 1.0}, {"bleu": bad}]}
    with pytest.raises(BleuvizError, match=r"^JSON output: a number is not finite"):
        streamed({"rows": LazyArray(lambda: iter([1.0, bad]), plain=plain)})
    with pytest.raises(BleuvizError, match=r"^JSON output: a number is not finite"):
        dumps(obj)
    assert json.loads(dumps({"bleu": 1e308})) == {"bleu": 1e308}
