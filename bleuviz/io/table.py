"""Read a TSV, CSV or JSON-lines table, one segment per row, into a ``TestSet``.

The header row names the columns, and a column's name gives its role unless
the caller names the columns: references (``ref``, ``ref1``, ``reference_2``
...), source, document ids, segment ids, segment scores from outside
(``score:METRIC:SYSTEM``, see ``bleuviz.io.seg_scores``), and a system for every
other column.
Rows of another width, repeated or empty column names, JSON values that are not
strings, and what ``bleuviz.io.strict_json`` refuses (a key repeated on a line,
deep nesting, NaN) are refused with the file and line in the message.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Sequence
from dataclasses import dataclass
from io import StringIO

from bleuviz.errors import InputError
from bleuviz.io.assemble import build_testset
from bleuviz.io.decode import (
    DEFAULT_MAX_BYTES,
    NamedBytes,
    decode_text,
    file_extension,
    plural,
    split_lines,
)
from bleuviz.io.scores import SegmentScores, build_scores
from bleuviz.io.seg_scores import MISSING, parse_score
from bleuviz.io.strict_json import load_json
from bleuviz.io.testset import TestSet

_REF_COLUMN = re.compile(r"(?:ref|reference)(?:\d+|[._-].+)?", re.IGNORECASE)
_SOURCE_COLUMNS = frozenset({"src", "source"})
_DOC_COLUMNS = frozenset({"doc", "docid", "doc_id", "document"})
_SEG_COLUMNS = frozenset({"id", "seg_id", "segid"})
_ID_COLUMNS = _SOURCE_COLUMNS | _DOC_COLUMNS | _SEG_COLUMNS
_SCORE_COLUMN = re.compile(r"score:(?P<metric>[^:]+):(?P<system>.+)")
_MISSING_CELLS = frozenset({MISSING, ""})


@dataclass(frozen=True, slots=True)
class _Roles:
    """Which table columns hold hypotheses, references, source, document and segment ids."""

    hyps: tuple[str, ...]
    refs: tuple[str, ...]
    source: str | None
    docid: str | None
    segid: str | None


def load_table(
    f: NamedBytes,
    hyp_columns: Sequence[str] | None = None,
    ref_columns: Sequence[str] | None = None,
    source_column: str | None = None,
    docid_column: str | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> TestSet:
    """Load a TSV, CSV or JSON-lines table with one segment per row.

    Columns not named are inferred from their names: ``ref``, ``reference``,
    ``ref1``, ``ref.X``, ``reference_2`` ... are references; ``src``/``source`` the
    source; ``doc``/``docid``/``doc_id``/``document`` document ids;
    ``id``/``seg_id``/``segid`` segment ids; every other column is a system,
    named after the column without a ``hyp.`` or ``hyp_`` prefix.

    Raises:
        InputError: the format is unknown, a row is malformed, a named column is
            missing, or no hypothesis or reference column is found.
    """
    all_header, rows, lines = _read_table(f.name, decode_text(f, max_bytes))
    columns = dict(zip(all_header, zip(*rows, strict=True), strict=True))
    header = tuple(c for c in all_header if not _SCORE_COLUMN.fullmatch(c))
    roles = _table_roles(f.name, header, hyp_columns, ref_columns, source_column, docid_column)
    testset = build_testset(
        [(re.sub(r"^hyp[._](?=.)", "", c), columns[c]) for c in roles.hyps],
        references=[columns[c] for c in roles.refs],
        source=None if roles.source is None else columns[roles.source],
        doc_ids=None if roles.docid is None else columns[roles.docid],
        seg_ids=None if roles.segid is None else columns[roles.segid],
    )
    score_columns = [c for c in all_header if c not in header]
    return testset.with_seg_scores(_score_columns(f.name, score_columns, columns, lines, testset))


def _score_columns(
    name: str,
    score_columns: Sequence[str],
    columns: dict[str, tuple[str, ...]],
    lines: Sequence[int],
    testset: TestSet,
) -> tuple[SegmentScores, ...]:
    """Read ``score:METRIC:SYSTEM`` columns, one ``SegmentScores`` per metric.

    An empty cell or ``None`` (JSON ``null``) marks a missing score.
    """
    by_metric: dict[str, dict[str, list[float]]] = {}
    for column in score_columns:
        match = _SCORE_COLUMN.fullmatch(column)
        if match is None:  # filtered by the caller
            continue
        values = [
            parse_score(f"{name}: line {line}, column {column!r}", cell, _MISSING_CELLS)
            for line, cell in zip(lines, columns[column], strict=True)
        ]
        by_metric.setdefault(match["metric"], {})[match["system"]] = values
    return tuple(
        build_scores(
            f"{name} (score:{metric}:…)", metric, systems, testset.system_names, testset.n_segments
        )
        for metric, systems in by_metric.items()
    )


def _read_table(name: str, text: str) -> tuple[tuple[str, ...], list[tuple[str, ...]], list[int]]:
    """Parse a table by its extension into a header, rows of its width and their lines."""
    ext = file_extension(name)
    if ext == ".tsv":
        header, rows = _tsv_rows(name, text)
    elif ext == ".csv":
        header, rows = _csv_rows(name, text)
    elif ext in (".jsonl", ".json"):
        header, rows = _jsonl_rows(name, text)
    else:
        raise InputError(f"{name}: unknown table format {ext!r} (use .tsv, .csv or .jsonl)")
    if not rows:
        raise InputError(f"{name}: no rows after the header")
    return header, [cells for _, cells in rows], [line for line, _ in rows]


_Numbered = list[tuple[int, tuple[str, ...]]]


def _checked_rows(
    name: str, numbered: Sequence[tuple[int, Sequence[str]]]
) -> tuple[tuple[str, ...], _Numbered]:
    """Split numbered rows into a header and body, refusing rows of another width."""
    (_, header), *body = numbered
    _check_header(name, header)
    for line, cells in body:
        if len(cells) != len(header):
            raise InputError(
                f"{name}: line {line} has {plural(len(cells), 'field')}, "
                f"the header has {len(header)}"
            )
    return tuple(header), [(line, tuple(cells)) for line, cells in body]


def _check_header(name: str, header: Sequence[str]) -> None:
    """Refuse an empty header, an empty column name or a repeated one."""
    if not any(header):
        raise InputError(f"{name}: line 1: the header row is empty")
    for i, column in enumerate(header):
        if not column:
            raise InputError(f"{name}: line 1: column {i + 1} has an empty name")
        if column in header[:i]:
            raise InputError(f"{name}: line 1: column {column!r} appears twice")


def _tsv_rows(name: str, text: str) -> tuple[tuple[str, ...], _Numbered]:
    """Parse TSV: tab-separated lines, or CSV-style quoting where the file shows it was used.

    Python's ``csv`` writer (dialect ``excel-tab``) quotes a field that holds a tab,
    a line break or a quote, doubling inner quotes. Plain TSV has no quoting, and a
    segment may well start and end with a quotation mark, so quotes are only
    interpreted when the whole file parses strictly as quoted TSV and some quoted
    field needed it (it holds a tab, a line break or a doubled quote); otherwise
    every line is split at its tabs and quotes stay part of the text.
    """
    quoted = _quoted_tsv_rows(text)
    if quoted is not None:
        return _checked_rows(name, quoted)
    numbered = [(n, line.split("\t")) for n, line in enumerate(split_lines(text), start=1)]
    return _checked_rows(name, numbered)


def _quoted_tsv_rows(text: str) -> list[tuple[int, Sequence[str]]] | None:
    """The rows of ``text`` read as quoted TSV, or None if it is not quoted TSV."""
    if '"' not in text:
        return None
    reader = csv.reader(StringIO(text, newline=""), dialect="excel-tab", strict=True)
    numbered: list[tuple[int, Sequence[str]]] = []
    start = 1
    try:
        for row in reader:
            numbered.append((start, row))
            start = reader.line_num + 1
    except csv.Error:
        return None
    needed = re.compile(r'"(?:[^"]|"")*(?:\t|\n|\r|"")(?:[^"]|"")*"(?:\t|\r?\n|$)')
    return numbered if needed.search(text) else None


def _csv_rows(name: str, text: str) -> tuple[tuple[str, ...], _Numbered]:
    """Parse CSV with the csv module; a quoted field may hold commas and newlines."""
    reader = csv.reader(StringIO(text, newline=""), strict=True)
    numbered: list[tuple[int, Sequence[str]]] = []
    start = 1  # a quoted field may span lines: number a row by its first line
    try:
        for row in reader:
            numbered.append((start, row))
            start = reader.line_num + 1
    except csv.Error as e:
        raise InputError(f"{name}: line {reader.line_num}: invalid CSV ({e})") from None
    return _checked_rows(name, numbered)


def _jsonl_rows(name: str, text: str) -> tuple[tuple[str, ...], _Numbered]:
    """Parse JSON lines: one object of string values per line, all with the same keys."""
    header: tuple[str, ...] = ()
    rows: _Numbered = []
    for n, line in enumerate(split_lines(text), start=1):
        row = _json_object(name, n, line)
        if n == 1:
            header = tuple(row)
            _check_header(name, header)
        elif row.keys() != set(header):
            missing = sorted(set(header) - row.keys()) or "none"
            extra = sorted(row.keys() - set(header)) or "none"
            raise InputError(
                f"{name}: line {n}: keys differ from line 1 (missing: {missing}, extra: {extra})"
            )
        rows.append((n, tuple(row[k] for k in header)))
    return header, rows


def _json_object(name: str, n: int, line: str) -> dict[str, str]:
    """Parse line ``n`` as a JSON object whose values are all strings."""
    if not line.strip():
        raise InputError(f"{name}: line {n} is blank (expected a JSON object)")
    value = load_json(name, line, n)
    if not isinstance(value, dict):
        raise InputError(f"{name}: line {n}: expected a JSON object, got {type(value).__name__}")
    for key, item in value.items():
        if _SCORE_COLUMN.fullmatch(key) and item is None:
            value[key] = MISSING
        elif _SCORE_COLUMN.fullmatch(key) and type(item) in (int, float):
            value[key] = str(item)  # a score may be a JSON number
        elif not isinstance(item, str):
            raise InputError(f"{name}: line {n}: the value of {key!r} is not a string")
    return value


def _table_roles(
    name: str,
    header: tuple[str, ...],
    hyp_columns: Sequence[str] | None,
    ref_columns: Sequence[str] | None,
    source_column: str | None,
    docid_column: str | None,
) -> _Roles:
    """Assign table columns to roles: named ones as given, the others by their names."""
    named = [*(hyp_columns or ()), *(ref_columns or ()), source_column, docid_column]
    absent = next((c for c in named if c is not None and c not in header), None)
    if absent is not None:
        raise InputError(f"{name}: no column {absent!r}; columns present: {', '.join(header)}")
    free = [c for c in header if c not in named]
    roles = _Roles(
        hyps=tuple(hyp_columns or [c for c in free if not _is_special(c)]),
        refs=tuple(ref_columns or [c for c in free if _REF_COLUMN.fullmatch(c)]),
        source=source_column or _only(name, "source", free, _SOURCE_COLUMNS),
        docid=docid_column or _only(name, "document id", free, _DOC_COLUMNS),
        segid=_only(name, "segment id", free, _SEG_COLUMNS),
    )
    used = [*roles.hyps, *roles.refs, *(c for c in (roles.source, roles.docid) if c)]
    if len(set(used)) != len(used):
        raise InputError(f"{name}: a column is given more than one role: {', '.join(used)}")
    if not roles.refs:
        raise InputError(f"{name}: no reference column (name it 'ref', 'ref1', 'reference_2' ...)")
    if not roles.hyps:
        raise InputError(f"{name}: no system column (every column is a reference, source or id)")
    return roles


def _is_special(column: str) -> bool:
    """Return whether a column's name marks it as a reference, source or id column."""
    return bool(_REF_COLUMN.fullmatch(column)) or column.lower() in _ID_COLUMNS


def _only(name: str, role: str, columns: Sequence[str], names: frozenset[str]) -> str | None:
    """Return the one column named like ``names`` (case-insensitive), refusing several."""
    found = [c for c in columns if c.lower() in names]
    if len(found) > 1:
        raise InputError(f"{name}: several {role} columns ({', '.join(found)}); name one")
    return found[0] if found else None
