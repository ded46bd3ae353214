"""Tests of aligned line chunks (bleuviz.io.line_chunks): the whole-file reader's lines and
refusals, a chunk at a time.

Oracle: ``decode_lines(read_path(path))``, the reader ``load_plain`` reads each
file with, and its messages (``bleuviz.io.decode``, ``bleuviz.io.plain``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleuviz.errors import InputError
from bleuviz.io.decode import decode_lines, read_path
from bleuviz.io.line_chunks import count_lines, line_chunks
from bleuviz.io.plain import load_plain

#: Line content: empty lines, a lone ``\r`` and other line-like characters that are not line
#: ends, non-ASCII text, a BOM inside a line.
LINE = st.text(st.sampled_from(["a", "b", " ", "\r", "é", "日", "\u2028", "\x0b", "\ufeff"]))


@st.composite
def aligned_files(draw: st.DrawFn) -> list[bytes]:
    """1-5 files of the same 1-12 lines count, each with its own line ends, BOM and last end."""
    n = draw(st.integers(1, 12))
    files = []
    for _ in range(draw(st.integers(1, 5))):
        lines = draw(st.lists(LINE | st.just(""), min_size=n, max_size=n))
        end = draw(st.sampled_from(["\n", "\r\n"]))
        text = end.join(lines) + draw(st.sampled_from(["", end]))
        bom = "\ufeff" if draw(st.booleans()) else ""
        data = (bom + text).encode("utf-8")
        if not data.removeprefix(b"\xef\xbb\xbf"):  # an empty file is refused; tested below
            data += b"\n"
        files.append(data)
    return files


def write(folder: Path, datas: list[bytes]) -> list[str]:
    paths = []
    for i, data in enumerate(datas):
        path = folder / f"f{i}.txt"
        path.write_bytes(data)
        paths.append(str(path))
    return paths


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(datas=aligned_files(), budget=st.integers(1, 60))
def test_chunks_join_to_the_whole_file_reader_s_lines(
    tmp_path: Path, datas: list[bytes], budget: int
) -> None:
    """Chunks of any size, cut anywhere (at empty lines too), give every file's lines."""
    paths = write(tmp_path, datas)
    expected = [decode_lines(read_path(path)) for path in paths]
    for path, lines in zip(paths, expected, strict=True):
        assert count_lines(path) == len(lines)
    if len({len(lines) for lines in expected}) > 1:  # the empty files made one line longer
        with pytest.raises(InputError) as whole:
            load_plain([read_path(paths[0])], [read_path(path) for path in paths])
        with pytest.raises(InputError) as streamed:
            list(line_chunks([*paths, paths[0]], budget))  # load_plain: references first
        assert str(streamed.value) == str(whole.value)
        return
    got: list[list[str]] = [[] for _ in paths]
    first = 0
    for chunk in line_chunks(paths, budget):
        assert len(chunk) > 0 and chunk.first == first
        assert {len(lines) for lines in chunk.lines} == {len(chunk)}  # aligned
        for whole_lines, lines in zip(got, chunk.lines, strict=True):
            whole_lines += lines
        first += len(chunk)
    assert [tuple(lines) for lines in got] == expected


def test_the_reader_holds_one_chunk_and_a_block_of_each_file(tmp_path: Path) -> None:
    """The mechanism that bounds memory: a chunk is read when asked for, not before."""
    lines = [f"segment {i} " + "w" * (i % 17) for i in range(2_000)]
    paths = write(tmp_path, [("\n".join(lines) + "\n").encode()] * 3)
    total = sum(Path(path).stat().st_size for path in paths)
    budget = 3_000  # 1,000 bytes a file a block
    chunks = line_chunks(paths, budget)
    seen, read_before = 0, 0
    for chunk in chunks:
        held = sum(len(line) + 1 for stream in chunk.lines for line in stream)
        # What was read for this chunk: its own lines and at most a block of each file beyond.
        assert chunk.read - read_before <= held + 3 * (1_000 + 40)
        assert held <= budget + 3 * 40  # a block ends at the end of the line it cuts
        seen += len(chunk)
        read_before = chunk.read
        if seen >= 100:
            break
    assert read_before < total / 10  # the rest of the files is not read


def test_a_file_ending_first_names_every_file_with_its_count(tmp_path: Path) -> None:
    long = tmp_path / "ref.txt"
    long.write_text("a\nb\nc\nd\n", encoding="utf-8")
    short = tmp_path / "hyp.txt"
    short.write_text("a\nb\n", encoding="utf-8")
    with pytest.raises(InputError) as whole:
        load_plain([read_path(short)], [read_path(long)])
    with pytest.raises(InputError) as streamed:
        list(line_chunks([str(long), str(short)], 2))
    assert str(streamed.value) == str(whole.value)
    assert str(streamed.value) == f"line counts differ: {long} has 4 lines, {short} has 2 lines"
    with pytest.raises(InputError, match=f"{short} has 2 lines, {long} has 4 lines"):
        list(line_chunks([str(short), str(long)], 2))  # the first file ends first, too


@pytest.mark.parametrize("budget", [1, 7, 1_000])
def test_invalid_utf8_names_the_file_line_and_offset_as_the_whole_reader(
    tmp_path: Path, budget: int
) -> None:
    ref = tmp_path / "ref.txt"
    ref.write_bytes(b"one\ntwo\nthree\nfour\n")
    hyp = tmp_path / "hyp.txt"
    hyp.write_bytes(b"\xef\xbb\xbfone\ntwo\nth\xffree\nfour\n")
    with pytest.raises(InputError) as whole:
        decode_lines(read_path(hyp))
    assert str(whole.value) == f"{hyp}: invalid UTF-8 at line 3 (byte offset 13)"
    with pytest.raises(InputError) as streamed:
        list(line_chunks([str(ref), str(hyp)], budget))
    assert str(streamed.value) == str(whole.value)


@pytest.mark.parametrize("data", [b"", b"\xef\xbb\xbf"])
def test_an_empty_file_is_refused_before_any_chunk(tmp_path: Path, data: bytes) -> None:
    ref = tmp_path / "ref.txt"
    ref.write_text("a\n", encoding="utf-8")
    empty = tmp_path / "hyp.txt"
    empty.write_bytes(data)
    with pytest.raises(InputError, match=f"^{empty}: file is empty$"):
        line_chunks([str(ref), str(empty)], 10)  # refused when asked, not when iterated


def test_a_missing_directory_or_large_file_is_refused_as_read_path_refuses_it(
    tmp_path: Path,
) -> None:
    ref = tmp_path / "ref.txt"
    ref.write_text("a\nb\n", encoding="utf-8")
    for path, max_bytes in ((tmp_path / "missing.txt", 100), (tmp_path, 100), (ref, 2)):
        with pytest.raises(InputError) as whole:
            read_path(path, max_bytes)
        with pytest.raises(InputError) as streamed:
            line_chunks([str(ref), str(path)], 10, max_bytes)
        assert str(streamed.value) == str(whole.value)
