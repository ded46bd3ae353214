"""Streams as BLOBs: joined lines where they can be, JSON where a line holds a newline."""

from __future__ import annotations

import zlib

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleuviz.workspace import codec
from bleuviz.workspace.codec import (
    compress,
    compress_all,
    decode_all,
    decode_scores,
    decompress,
    encode_scores,
    lines_of,
    payload,
)


@pytest.mark.parametrize(
    ("lines", "tag"),
    [
        ((), b"J"),
        (("",), b"L"),
        (("", ""), b"L"),
        (("a b", "c\td", "e\rf", "ü\x00"), b"L"),
        (("one\ntwo",), b"J"),
        (("a", "b\n"), b"J"),
        (("\ud800 lone surrogate",), b"L"),
    ],
)
def test_both_layouts_round_trip(lines: tuple[str, ...], tag: bytes) -> None:
    data = payload(lines)
    assert data[:1] == tag
    assert lines_of(data) == lines
    (blob,) = compress_all([data])
    assert decompress(blob) == data
    assert decode_all([blob]) == [lines]


@given(st.lists(st.text(max_size=12), max_size=6).map(tuple))
def test_zlib_blobs_of_earlier_workspaces_are_still_read(lines: tuple[str, ...]) -> None:
    data = payload(lines)
    for level in (1, 6, 9):
        assert decode_all([zlib.compress(data, level)]) == [lines]


def test_a_blob_is_tagged_sized_and_zstandard() -> None:
    data = payload(tuple(f"line {i}" for i in range(1000)))
    blob = compress(data)
    assert blob[:1] == b"Z" and int.from_bytes(blob[1:9], "little") == len(data)
    assert blob[9:13] == bytes.fromhex("28b52ffd")  # the Zstandard frame's magic number
    assert len(blob) < len(data) / 3


@given(st.lists(st.lists(st.text(max_size=12), max_size=6).map(tuple), max_size=5))
def test_many_streams_round_trip_in_order(streams: list[tuple[str, ...]]) -> None:
    blobs = compress_all([payload(lines) for lines in streams])
    assert decode_all(blobs) == streams


def test_scores_keep_nan_and_are_read_only() -> None:
    values = np.array([0.5, np.nan, -1e300, 3.0])
    decoded = decode_scores(encode_scores(values))
    np.testing.assert_array_equal(decoded, values)
    assert decoded.dtype == np.float64 and not decoded.flags.writeable


def test_the_threaded_path_gives_the_same_blobs(monkeypatch: pytest.MonkeyPatch) -> None:
    streams = [tuple(f"line {i} of {k}" for i in range(50)) for k in range(5)]
    payloads = [payload(lines) for lines in streams]
    alone = compress_all(payloads)
    monkeypatch.setattr(codec, "PARALLEL_BYTES", 0)
    threaded = compress_all(payloads)
    assert threaded == alone
    assert decode_all(threaded) == streams
