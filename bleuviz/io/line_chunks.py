"""Plain-text files read together in aligned chunks of lines: memory bounded by a chunk.

``bleuviz.io.plain`` reads each file whole. This reader yields, instead, the
next lines of every file at once, as many from each: a chunk of aligned
segments, read as the consumer asks for it, so that a command counting
statistics chunk by chunk never holds the whole text. What it reads is what
``load_plain`` reads (``bleuviz.io.decode``): strict UTF-8, one leading BOM
dropped, ``\\r\\n`` and ``\\n`` end a line, a final line end adds no empty line;
and it refuses what ``load_plain`` refuses, with the same one-line messages
naming the file (and the line):

* a missing, unreadable or too large file, or one holding no bytes but a BOM,
  before anything is read (the files are checked in ``load_paths``'s order,
  then their emptiness in ``load_plain``'s);
* invalid UTF-8, naming the file, its line and byte offset, when the chunk
  holding it is read (deviation: the whole-file reader finds the first invalid
  file before counting lines; this one finds whichever comes first in the text);
* files of different line counts, as soon as one ends before another: each
  file's lines are then counted (newlines only, without decoding) to name every
  file with its count, as ``load_plain`` does.

A chunk is cut where the first file's block of about ``budget`` characters
over all the files ends (``budget`` divided among them); the other files give
as many lines. The reader holds the chunk it yields and at most one block of
each file beyond it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import BinaryIO

from bleuviz.errors import InputError
from bleuviz.io.decode import DEFAULT_MAX_BYTES, check_path, invalid_utf8, plural, split_lines

_BOM = b"\xef\xbb\xbf"
#: Bytes read at once when a file's lines are only counted.
_COUNT_BLOCK = 1 << 22


@dataclass(frozen=True, slots=True)
class LineChunk:
    """The next lines of every file, as many from each.

    Attributes:
        lines: one list of lines per file, in the order the files were given.
        first: the number of the chunk's first line in its files (0-based).
        read: bytes read so far over every file (for progress).
    """

    lines: tuple[list[str], ...]
    first: int
    read: int

    def __len__(self) -> int:
        return len(self.lines[0])


@dataclass(frozen=True, slots=True)
class ByteChunk:
    """The next lines of every file, as many from each, not yet decoded.

    Sent to a worker process as it is (bytes pickle as a copy) and decoded
    there: the worker, not this process, pays for the decoding and for the
    Python strings. ``decoded`` refuses invalid UTF-8 as ``decode_text`` does.

    Attributes:
        names: each file's name.
        datas: each file's whole lines, as read (no BOM).
        offsets: where each file's lines start in it (bytes).
        first: the number of the chunk's first line in its files (0-based).
        size: its lines in each file.
        read: bytes read so far over every file (for progress).
    """

    names: tuple[str, ...]
    datas: tuple[bytes, ...]
    offsets: tuple[int, ...]
    first: int
    size: int
    read: int

    def __len__(self) -> int:
        return self.size

    def decoded(self) -> LineChunk:
        """Decode every file's lines.

        Raises:
            InputError: invalid UTF-8 (the file, its line and byte offset).
        """
        parts = zip(self.names, self.datas, self.offsets, strict=True)
        lines = tuple(decode_piece(name, data, at, self.first) for name, data, at in parts)
        return LineChunk(lines, self.first, self.read)


def file_sizes(
    paths: Sequence[str | os.PathLike[str]], max_bytes: int = DEFAULT_MAX_BYTES
) -> list[int]:
    """Return each file's size, refusing a missing, unreadable or too large one.

    Raises:
        InputError: as ``bleuviz.io.decode.read_path``, for the first file refused.
    """
    return [check_path(path, max_bytes) for path in paths]


def line_chunks(
    paths: Sequence[str | os.PathLike[str]],
    budget: int,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> Iterator[LineChunk]:
    """Return aligned chunks of the files' lines, about ``budget`` characters each, one at a
    time as they are asked for (``byte_chunks``, decoded here).

    Raises:
        InputError: a file is missing, unreadable, too large or empty (here, before any
            chunk); later, while chunks are read: invalid UTF-8, or the files end apart.
    """
    return (chunk.decoded() for chunk in byte_chunks(paths, budget, max_bytes))


def byte_chunks(
    paths: Sequence[str | os.PathLike[str]],
    budget: int,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> Iterator[ByteChunk]:
    """Return aligned chunks of the files' whole lines, about ``budget`` bytes each, not yet
    decoded, one at a time as they are asked for.

    Raises:
        InputError: a file is missing, unreadable, too large or empty (here, before any
            chunk); later, while chunks are read: the files end apart.
    """
    if not paths:
        raise InputError("no file given: at least one is required")
    file_sizes(paths, max_bytes)
    files = [_LineFile(os.fspath(path), max_bytes) for path in paths]
    try:
        for f in files:
            f.open()
    except InputError:
        for f in files:
            f.close()
        raise
    return _aligned(files, max(1, budget // len(files)))


def _aligned(files: list[_LineFile], block: int) -> Iterator[ByteChunk]:
    """Cut chunks where the first file's blocks end; take as many lines from the others."""
    try:
        yield from _cut(files, block)
    finally:
        for f in files:
            f.close()


def _cut(files: list[_LineFile], block: int) -> Iterator[ByteChunk]:
    """Yield the chunks of ``_aligned`` (its files open)."""
    names = tuple(f.name for f in files)
    lead, others = files[0], files[1:]
    while True:
        piece = lead.take_block(block)
        # At the first file's end, each other file must have no line left either.
        pieces = [piece, *(f.take(piece.lines or 1, block) for f in others)]
        if any(part.lines != piece.lines for part in pieces):
            raise InputError(_counts_differ(files))
        if not piece.lines:
            return
        datas = tuple(part.data for part in pieces)
        offsets = tuple(part.at for part in pieces)
        read = sum(f.read for f in files)
        yield ByteChunk(names, datas, offsets, piece.first, piece.lines, read)


def _counts_differ(files: Sequence[_LineFile]) -> str:
    """The message naming every file with its line count (``load_plain``'s)."""
    listing = ", ".join(f"{f.name} has {plural(count_lines(f.name), 'line')}" for f in files)
    return f"line counts differ: {listing}"


def count_lines(path: str | os.PathLike[str]) -> int:
    """Count a file's lines as ``split_lines`` would, without decoding it."""
    newlines, last = 0, b""
    with open(path, "rb") as fh:
        while data := fh.read(_COUNT_BLOCK):
            newlines += data.count(b"\n")
            last = data[-1:]
    return newlines + (last != b"\n")  # a last line without its line end counts too


@dataclass(slots=True)
class _LineFile:
    """One file read block by block, cut after whole lines (working state).

    ``held`` are whole lines read and not yet taken (``held_lines`` of them,
    starting at byte ``held_at`` and line ``taken`` of the file); ``carry`` is the
    start of the next line.
    """

    name: str
    max_bytes: int
    read: int = 0
    taken: int = 0
    handle: BinaryIO | None = None
    carry: bytes = b""
    held: bytes = b""
    held_lines: int = 0
    held_at: int = 0
    at_end: bool = False

    def open(self) -> None:
        """Open the file and drop a leading BOM; refuse an empty file."""
        try:
            self.handle = open(self.name, "rb")  # noqa: SIM115 - closed by ``close``
        except OSError as e:
            raise InputError(f"{self.name}: cannot read file: {e.strerror}") from None
        head = self._read(len(_BOM))
        self.carry = head.removeprefix(_BOM)
        self.held_at = len(head) - len(self.carry)
        if not self.carry and not self._peek():
            raise InputError(f"{self.name}: file is empty")

    def close(self) -> None:
        """Close the file (if open)."""
        if self.handle is not None:
            self.handle.close()
            self.handle = None

    def take_block(self, block: int) -> _Piece:
        """Return the lines held and those of the next block of about ``block`` bytes."""
        if not self.held_lines:
            self._fill(block)
        return self._cut(len(self.held), self.held_lines)

    def take(self, k: int, block: int) -> _Piece:
        """Return the next ``k`` lines (fewer where the file ends first)."""
        while self.held_lines < k and (self.carry or not self.at_end):
            self._fill(block)
        if self.held_lines <= k:
            return self._cut(len(self.held), self.held_lines)
        end = -1
        for _ in range(k):
            end = self.held.index(b"\n", end + 1)
        return self._cut(end + 1, k)

    def _cut(self, size: int, lines: int) -> _Piece:
        """Take the first ``size`` bytes held, ``lines`` lines."""
        piece = _Piece(self.held[:size], self.held_at, self.taken, lines)
        self.held, self.held_lines = self.held[size:], self.held_lines - lines
        self.held_at, self.taken = self.held_at + size, self.taken + lines
        return piece

    def _fill(self, block: int) -> None:
        """Read on to the end of the next line past ``block`` more bytes; hold its lines."""
        data = self.carry + self._read(block)
        cut = data.rfind(b"\n")
        while cut < 0 and not self.at_end:  # a line longer than the block
            data += self._read(block)
            cut = data.rfind(b"\n")
        if self.at_end:
            whole, self.carry = data, b""
        else:
            whole, self.carry = data[: cut + 1], data[cut + 1 :]
        self.held += whole
        # A last line without its line end counts too.
        self.held_lines += whole.count(b"\n") + (bool(whole) and not whole.endswith(b"\n"))

    def _read(self, n: int) -> bytes:
        """Read up to ``n`` bytes; note the end of the file; refuse a file grown too large."""
        if self.handle is None or self.at_end:
            return b""
        data = self.handle.read(n)
        self.read += len(data)
        if self.read > self.max_bytes:  # it grew since it was checked
            check_path(self.name, self.max_bytes, self.read)
        self.at_end = len(data) < n  # a regular file reads short only at its end
        return data

    def _peek(self) -> bytes:
        """Return the next byte without consuming it (empty at the end of the file)."""
        if self.handle is None:
            return b""
        here = self.handle.tell()
        byte = self.handle.read(1)
        self.handle.seek(here)
        return byte


@dataclass(frozen=True, slots=True)
class _Piece:
    """Whole lines of a file, undecoded: ``data``, at byte ``at``, from line ``first`` (0-based)."""

    data: bytes
    at: int
    first: int
    lines: int


def decode_piece(name: str, data: bytes, at: int, first: int) -> list[str]:
    """Decode whole lines of file ``name`` (strict UTF-8), naming the line of an invalid byte.

    ``data`` starts at byte ``at`` and line ``first`` (0-based) of the file.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise invalid_utf8(name, data, e, first, at) from None
    return list(split_lines(text)) if data else []  # no bytes: no line, not one empty line
