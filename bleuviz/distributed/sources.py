"""Inputs cut into aligned partitions of segments: plain files, JSON-lines/TSV tables, Parquet.

The client plans, the workers read. Planning counts every file's lines once
(``scan``), refusing misaligned files with each file's count as the one-machine
reader does (:mod:`bleuviz.io.plain`), and keeps the byte offset where every
partition starts in each file; a worker then reads only its own bytes
(``read_partition``). Paths are local or any fsspec URL (``s3://``, ``gs://``,
``hdfs://``, ``https://``).

What is read is what the one-machine readers read:

* plain text: strict UTF-8, a leading BOM dropped, ``\\r\\n`` and ``\\n`` end a line,
  a final line end adds no empty line (:func:`bleuviz.io.decode.split_lines` on
  each partition's whole lines);
* JSON lines and TSV: each partition is parsed by the table reader itself
  (:func:`bleuviz.io.table.load_table`) with the file's first line put in front, so
  column roles, names and refusals are the table reader's. Deviation: a TSV
  field quoted across a line break cannot be cut at line boundaries and is not
  supported (store such a table as Parquet or JSON lines);
* Parquet: the column names of the table reader (``ref``, ``ref2``, ``src``,
  ``doc``, one column per system), string columns without nulls.

Deviation: ``--max-bytes`` does not apply (the point is corpora past one
machine's memory), and a refusal inside a table names the line within its
partition together with the partition's first line in the file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import fsspec
import numpy as np

from bleuviz.distributed.limits import SCAN_BLOCK
from bleuviz.errors import InputError
from bleuviz.io.assemble import build_testset
from bleuviz.io.decode import NamedBytes, file_extension, plural, split_lines
from bleuviz.io.plain import system_name_from_filename
from bleuviz.io.table import load_table
from bleuviz.io.testset import TestSet

_BOM = b"\xef\xbb\xbf"
#: The table reader's imported-score columns (``score:METRIC:SYSTEM``), not text.
_SCORE_COLUMN = re.compile(r"score:[^:]+:.+")
_TABLES = {".jsonl": "jsonl", ".json": "jsonl", ".tsv": "tsv"}


@dataclass(frozen=True, slots=True)
class Piece:
    """Bytes ``start`` to ``stop`` of ``url`` (rows of a Parquet file); the first is ``line``."""

    url: str
    start: int
    stop: int
    line: int


@dataclass(frozen=True, slots=True)
class Layout:
    """What a partition holds: the systems (load order), the references and their columns.

    Attributes:
        systems: system names, made unique as the one-machine readers make them.
        n_refs: reference streams.
        columns: Parquet only: each system's column, then each reference's.
    """

    systems: tuple[str, ...]
    n_refs: int
    columns: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Partition:
    """Segments ``first`` to ``first + size`` of the test set, and where they are stored.

    Attributes:
        index: its number (output files are numbered by it).
        first: its first segment's number in the whole test set (0-based).
        size: its segments.
        format: ``plain``, ``jsonl``, ``tsv`` or ``parquet``.
        pieces: plain: one per stream, references then systems; else one.
        header: JSON lines and TSV: the file's first line, put in front of the piece.
    """

    index: int
    first: int
    size: int
    format: str
    pieces: tuple[Piece, ...]
    header: Piece | None = None


@dataclass(frozen=True, slots=True)
class Plan:
    """A test set cut into partitions, with what the report prints of it."""

    partitions: tuple[Partition, ...]
    layout: Layout
    paths: tuple[str, ...]
    n_segments: int


def cuts(n: int, rows: int, bounds: Sequence[int] | None = None) -> list[int]:
    """Return the segment numbers where partitions start, and ``n`` (every ``rows``).

    ``bounds`` (tests) gives them explicitly: non-decreasing from 0 to ``n``, so a
    partition may be empty.
    """
    if bounds is not None:
        if bounds[0] != 0 or bounds[-1] != n or any(a > b for a, b in pairwise(bounds)):
            raise InputError(f"partition bounds: {list(bounds)} must rise from 0 to {n}")
        return list(bounds)
    return [*range(0, n, rows), n] if n else [0, 0]


def scan(url: str, every: int, skip: int = 0) -> tuple[int, np.ndarray[Any, Any], int]:
    """Count the lines of ``url`` as ``split_lines`` would; note where lines start.

    Returns the number of lines, the byte offsets of lines ``skip``, ``skip +
    every``, ... (0-based, after a leading BOM) and the file's size.

    Raises:
        InputError: the file cannot be read, or holds no bytes but a BOM.
    """
    found: list[np.ndarray[Any, Any]] = []
    newlines, size, bom, last = 0, 0, 0, b""
    try:
        with fsspec.open(url, "rb") as f:
            while block := f.read(SCAN_BLOCK):
                if size == 0:
                    bom = len(_BOM) if block.startswith(_BOM) else 0
                    found.append(np.array([bom] if skip == 0 else [], dtype=np.int64))
                ends = np.flatnonzero(np.frombuffer(block, dtype=np.uint8) == 10)
                lines = newlines + 1 + np.arange(len(ends))  # the line starting after each
                wanted = (lines >= skip) & ((lines - skip) % every == 0)
                found.append(ends[wanted] + size + 1)
                newlines += len(ends)
                size += len(block)
                last = block[-1:]
    except (ImportError, OSError, ValueError) as e:
        raise InputError(f"{url}: cannot read ({e})") from None
    if size == bom:
        raise InputError(f"{url}: file is empty")
    starts = np.concatenate(found)
    n_lines = newlines + (0 if last == b"\n" else 1)
    return n_lines, starts[starts < size], size


def _first_line_start(url: str) -> int:
    """Where line 1 starts: after a leading BOM."""
    with fsspec.open(url, "rb") as f:
        return len(_BOM) if f.read(len(_BOM)) == _BOM else 0


def plan_plain(
    hyps: Sequence[str],
    refs: Sequence[str],
    others: Sequence[str] = (),
    rows: int = 1,
    bounds: Sequence[int] | None = None,
) -> Plan:
    """Plan plain files read as aligned line partitions (``others``: source, document ids,
    whose line counts are checked but which no metric reads).

    Raises:
        InputError: no hypothesis or reference file, a file is empty or unreadable,
            or the line counts differ (every file listed with its count).
    """
    if not hyps:
        raise InputError("no hypothesis file given: at least one is required")
    if not refs:
        raise InputError("no reference file given: at least one is required")
    every = rows if bounds is None else 1
    streams = [*refs, *hyps, *others]
    scans = [scan(url, every) for url in streams]
    counts = [n for n, _, _ in scans]
    if len(set(counts)) > 1:
        listing = ", ".join(
            f"{url} has {plural(n, 'line')}" for url, n in zip(streams, counts, strict=True)
        )
        raise InputError(f"line counts differ: {listing}")
    n = counts[0]
    starts = cuts(n, rows, bounds)
    parts = []
    for i, (first, stop) in enumerate(pairwise(starts)):
        pieces = tuple(
            Piece(url, _offset(scan_, first, every, n), _offset(scan_, stop, every, n), first + 1)
            for url, scan_ in zip(streams[: len(refs) + len(hyps)], scans, strict=False)
        )
        parts.append(Partition(i, first, stop - first, "plain", pieces))
    names = [system_name_from_filename(url) for url in hyps]
    systems = build_testset([(name, ("",)) for name in names], [("",)]).system_names
    layout = Layout(tuple(systems), len(refs))
    return Plan(tuple(parts), layout, tuple(hyps), n)


def plan_table(url: str, rows: int = 1, bounds: Sequence[int] | None = None) -> Plan:
    """Plan a JSON-lines or TSV table read as line partitions, one segment per line.

    Raises:
        InputError: not .jsonl/.json/.tsv, empty, no rows, or the table reader
            refuses its first line's columns.
    """
    fmt = _TABLES.get(file_extension(url))
    if fmt is None:
        raise InputError(f"{url}: --dask reads .jsonl, .tsv or .parquet tables, or plain files")
    skip = 1 if fmt == "tsv" else 0
    every = rows if bounds is None else 1
    n_lines, starts, size = scan(url, every, skip)
    n = n_lines - skip
    if n <= 0:
        raise InputError(f"{url}: no rows after the header")
    header_start = _first_line_start(url)
    header_stop = int(starts[0]) if skip else _line_end(url, header_start)
    header = Piece(url, header_start, header_stop, 1)
    columns = _header_columns(url, fmt, read_bytes(header))
    layout = _layout(url, columns)
    scan_ = (n_lines, starts, size)
    parts = []
    for i, (first, stop) in enumerate(pairwise(cuts(n, rows, bounds))):
        start, end = _offset(scan_, first, every, n), _offset(scan_, stop, every, n)
        piece = Piece(url, start, end, first + 1 + skip)
        parts.append(Partition(i, first, stop - first, fmt, (piece,), header))
    return Plan(tuple(parts), Layout(layout.systems, layout.n_refs), layout.systems, n)


def plan_parquet(url: str, rows: int = 1, bounds: Sequence[int] | None = None) -> Plan:
    """Plan a Parquet file (or a folder or glob of them, read in name order) by row ranges.

    Raises:
        InputError: no file, unreadable, or a column layout the table reader refuses.
    """
    import pyarrow.parquet as pq

    try:
        fs, path = fsspec.core.url_to_fs(url)
        pattern = f"{url.rstrip('/')}/*.parquet" if fs.isdir(path) else url
        files = sorted(fsspec.open_files(pattern, "rb", expand=True), key=lambda f: f.path)
        urls = [f.fs.unstrip_protocol(f.path) for f in files]
        metas = []
        for f in files:
            with f as handle:
                metas.append(pq.ParquetFile(handle).metadata)
    except (ImportError, OSError, ValueError) as e:
        raise InputError(f"{url}: cannot read as Parquet ({e})") from None
    if not urls:
        raise InputError(f"{url}: no Parquet file found")
    names = [tuple(meta.schema.names) for meta in metas]
    if len(set(names)) > 1:
        raise InputError(f"{url}: the Parquet files have different columns")
    layout = _layout(url, names[0])
    sizes = [meta.num_rows for meta in metas]
    n = sum(sizes)
    if n == 0:
        raise InputError(f"{url}: no rows")
    starts = cuts(n, rows, bounds)
    file_starts = np.cumsum([0, *sizes])
    parts = []
    for i, (first, stop) in enumerate(pairwise(starts)):
        pieces = []
        for j, file_url in enumerate(urls):
            lo, hi = max(first, file_starts[j]), min(stop, file_starts[j + 1])
            if lo < hi:
                offset = int(file_starts[j])
                pieces.append(Piece(file_url, int(lo) - offset, int(hi) - offset, int(lo) + 1))
        parts.append(Partition(i, first, stop - first, "parquet", tuple(pieces)))
    return Plan(tuple(parts), layout, layout.systems, n)


def read_partition(part: Partition, layout: Layout) -> TestSet | None:
    """Read one partition's text (on a worker): None when it has no segments.

    Raises:
        InputError: invalid UTF-8 (file, line and byte offset), a table row the
            table reader refuses, or a Parquet cell that is not text.
    """
    if part.size == 0:
        return None
    if part.format == "plain":
        streams = [_plain_lines(piece) for piece in part.pieces]
        refs, hyps = streams[: layout.n_refs], streams[layout.n_refs :]
        return TestSet(dict(zip(layout.systems, hyps, strict=True)), tuple(refs))
    if part.format == "parquet":
        return _parquet_testset(part, layout)
    return _table_testset(part, layout)


def read_bytes(piece: Piece) -> bytes:
    """Read bytes ``start`` to ``stop`` of the piece's file.

    Raises:
        InputError: the file cannot be read here (a worker on another machine).
    """
    try:
        with fsspec.open(piece.url, "rb") as f:
            f.seek(piece.start)
            data: bytes = f.read(piece.stop - piece.start)
    except (ImportError, OSError) as e:
        raise InputError(f"{piece.url}: cannot read ({e})") from None
    return data


def _offset(scanned: tuple[int, np.ndarray[Any, Any], int], line: int, every: int, n: int) -> int:
    """Where line ``line`` (counted after the skipped ones) starts; the file's end at ``n``."""
    _, starts, size = scanned
    return size if line >= n else int(starts[line // every].item())


def _line_end(url: str, start: int) -> int:
    """The offset just past the line starting at ``start``."""
    with fsspec.open(url, "rb") as f:
        f.seek(start)
        length = 0
        while block := f.read(1 << 16):
            cut: int = block.find(b"\n")
            if cut >= 0:
                return start + length + cut + 1
            length += len(block)
    return start + length


def _plain_lines(piece: Piece) -> tuple[str, ...]:
    """Decode one piece of a plain file as the one-machine reader decodes the whole."""
    data = read_bytes(piece)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = piece.line + data.count(b"\n", 0, e.start)
        raise InputError(
            f"{piece.url}: invalid UTF-8 at line {line} (byte offset {piece.start + e.start})"
        ) from None
    return split_lines(text)


def _table_testset(part: Partition, layout: Layout) -> TestSet:
    """Parse one partition of a table with the table reader, its header line in front."""
    (piece,) = part.pieces
    data = read_bytes(piece)
    lead = part.header is not None and (part.format == "tsv" or part.first > 0)
    if lead and part.header is not None:  # JSON lines: line 1 is a row and a header
        head = read_bytes(part.header)
        data = (head if head.endswith(b"\n") else head + b"\n") + data
    try:
        testset = load_table(NamedBytes(piece.url, data), max_bytes=len(data) + 1)
    except InputError as e:
        raise InputError(f"{e} (counting from line {piece.line} of the file)") from None
    drop = 1 if part.format == "jsonl" and lead else 0
    systems = {name: testset.systems[name][drop:] for name in layout.systems}
    refs = tuple(stream[drop:] for stream in testset.references)
    return TestSet(systems, refs)


def _parquet_testset(part: Partition, layout: Layout) -> TestSet:
    """Read one partition's rows of the system and reference columns from Parquet."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    tables = []
    for piece in part.pieces:
        with fsspec.open(piece.url, "rb") as f:
            parquet = pq.ParquetFile(f)
            sizes = [parquet.metadata.row_group(g).num_rows for g in range(parquet.num_row_groups)]
            starts = np.cumsum([0, *sizes])
            groups = [
                g
                for g in range(len(sizes))
                if starts[g] < piece.stop and starts[g + 1] > piece.start
            ]  # only the row groups this piece overlaps are read
            table = parquet.read_row_groups(groups, columns=list(layout.columns))
        offset = piece.start - int(starts[groups[0]]) if groups else 0
        tables.append(table.slice(offset, piece.stop - piece.start))
    table = pa.concat_tables(tables)
    streams = []
    for column in layout.columns:
        values = table.column(column)
        if not (pa.types.is_string(values.type) or pa.types.is_large_string(values.type)):
            raise InputError(
                f"{part.pieces[0].url}: column {column!r} holds {values.type}, not text"
            )
        if values.null_count:
            row = part.first + 1 + int(np.flatnonzero(values.is_null().to_numpy())[0])
            raise InputError(f"{part.pieces[0].url}: column {column!r} is empty at row {row}")
        streams.append(tuple(values.to_pylist()))
    n_sys = len(layout.systems)
    return TestSet(dict(zip(layout.systems, streams[:n_sys], strict=True)), tuple(streams[n_sys:]))


def _header_columns(url: str, fmt: str, line: bytes) -> tuple[str, ...]:
    """The column names on a table's first line (a JSON line validated by the table reader)."""
    text = line.decode("utf-8", errors="replace").removeprefix("\ufeff").rstrip("\r\n")
    if fmt == "tsv":
        return tuple(text.split("\t"))
    load_table(NamedBytes(url, line), max_bytes=len(line) + 1)  # the reader's own refusals
    return tuple(json.loads(text))


def _layout(url: str, columns: Sequence[str]) -> Layout:
    """Give columns the table reader's roles, by asking the table reader itself.

    A two-line TSV table whose one row holds the column names goes through
    :func:`bleuviz.io.table.load_table`: the row it returns says which column
    became which system (named as the reader names it) and which references,
    in the reader's order; its refusals (no reference column, a repeated or
    empty name) are the reader's. Imported-score columns are left out.
    """
    text = "\t".join(c for c in columns if not _SCORE_COLUMN.fullmatch(c))
    if any(("\t" in c or "\n" in c or "\r" in c) for c in columns):
        raise InputError(f"{url}: a column name holds a tab or a line break")
    table = f"{text}\n{text}\n".encode()
    name = "columns.tsv"  # the reader picks its format by the name's extension
    try:
        testset = load_table(NamedBytes(name, table), max_bytes=len(table) + 1)
    except InputError as e:
        raise InputError(str(e).replace(name, url)) from None
    systems = tuple(testset.system_names)
    order = [testset.systems[system][0] for system in systems]
    order += [stream[0] for stream in testset.references]
    return Layout(systems, len(testset.references), tuple(order))
