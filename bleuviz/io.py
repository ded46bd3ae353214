"""Read test sets from files or uploaded bytes into a validated ``TestSet``.

Plain text holds one segment per line, as sacrebleu reads it, except that
mismatched line counts are refused instead of silently truncated, and only
``\\n`` and ``\\r\\n`` end a line (``str.splitlines`` would also split on
``\\x0b``, ``\\x1c`` or ``\\u2028``, which may occur inside a segment).
Tables (TSV, CSV, JSON lines) hold one segment per row; WMT XML and NIST SGML
are parsed by ``bleuviz.io_xml``. Every refusal is an ``InputError`` with a
one-line message that names the file and, where there is one, the line.
"""

from __future__ import annotations

import csv
import json
import os
import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from io import StringIO
from pathlib import Path

from bleuviz.errors import InputError
from bleuviz.io_xml import Aligned, looks_like_sgml, parse_sgml, parse_wmt_xml
from bleuviz.testset import TestSet

DEFAULT_MAX_BYTES = 200 * 1024 * 1024

_BOM = b"\xef\xbb\xbf"
_TABLE_EXTENSIONS = frozenset({".tsv", ".csv", ".jsonl", ".json"})
_SGML_EXTENSIONS = frozenset({".sgm", ".sgml"})
_STRUCTURED_EXTENSIONS = _TABLE_EXTENSIONS | _SGML_EXTENSIONS | {".xml"}
_REF_COLUMN = re.compile(r"(?:ref|reference)(?:\d+|[._-].+)?", re.IGNORECASE)
_SOURCE_COLUMNS = frozenset({"src", "source"})
_DOC_COLUMNS = frozenset({"doc", "docid", "doc_id", "document"})
_SEG_COLUMNS = frozenset({"id", "seg_id", "segid"})
_ID_COLUMNS = _SOURCE_COLUMNS | _DOC_COLUMNS | _SEG_COLUMNS


@dataclass(frozen=True, slots=True)
class NamedBytes:
    """An input file held in memory: an upload, or a file read from disk.

    Attributes:
        name: display name used in messages, e.g. ``"hyp.sysA.txt"`` or a path.
        data: the file's raw bytes.
    """

    name: str
    data: bytes


@dataclass(frozen=True, slots=True)
class _Roles:
    """Which table columns hold hypotheses, references, source, document and segment ids."""

    hyps: tuple[str, ...]
    refs: tuple[str, ...]
    source: str | None
    docid: str | None
    segid: str | None


def read_path(path: str | os.PathLike[str], max_bytes: int = DEFAULT_MAX_BYTES) -> NamedBytes:
    """Read a file from disk, checking its size before reading it.

    Raises:
        InputError: the file is missing, a directory, unreadable or over ``max_bytes``.
    """
    name = os.fspath(path)
    try:
        info = Path(path).stat()
        if stat.S_ISDIR(info.st_mode):
            raise InputError(f"{name}: is a directory, not a file")
        _check_size(name, info.st_size, max_bytes)
        with open(path, "rb") as fh:
            data = fh.read(max_bytes + 1)  # the file may have grown since stat
    except FileNotFoundError:
        raise InputError(f"no such file: {name}") from None
    except OSError as e:
        raise InputError(f"{name}: cannot read file: {e.strerror}") from None
    _check_size(name, len(data), max_bytes)
    return NamedBytes(name, data)


def decode_lines(f: NamedBytes, max_bytes: int = DEFAULT_MAX_BYTES) -> tuple[str, ...]:
    """Decode a file as strict UTF-8 and split it into lines.

    A leading BOM is dropped, ``\\r\\n`` and ``\\n`` both end a line, a final line end
    adds no empty line, and empty lines elsewhere are kept as ``""``.

    Raises:
        InputError: the file is over ``max_bytes``, empty, or not valid UTF-8.
    """
    return _split_lines(_decode_text(f, max_bytes))


def system_name_from_filename(name: str) -> str:
    """Derive a system name: basename without its last extension or a leading ``hyp.``.

    ``"out/hyp.online-B.0.de.txt"`` gives ``"online-B.0.de"``.
    """
    base = re.split(r"[\\/]", name)[-1]
    stem = base.rpartition(".")[0]
    base = stem or base
    if base.startswith("hyp.") and len(base) > len("hyp."):
        base = base[len("hyp.") :]
    return base or "system"


def load_plain(
    hyps: Sequence[NamedBytes],
    refs: Sequence[NamedBytes],
    source: NamedBytes | None = None,
    docids: NamedBytes | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> TestSet:
    """Load plain-text files with one segment per line; all must have as many lines.

    Raises:
        InputError: no hypothesis or reference file, a file is refused by
            ``decode_lines``, or the line counts differ (every file is listed).
    """
    if not hyps:
        raise InputError("no hypothesis file given: at least one is required")
    if not refs:
        raise InputError("no reference file given: at least one is required")
    files = [*refs, *hyps, *(f for f in (source, docids) if f is not None)]
    read = {id(f): decode_lines(f, max_bytes) for f in files}  # by identity: no hashing of data
    _check_counts([(f.name, len(read[id(f)])) for f in files])
    return _testset(
        [(system_name_from_filename(f.name), read[id(f)]) for f in hyps],
        references=[read[id(f)] for f in refs],
        source=None if source is None else read[id(source)],
        doc_ids=None if docids is None else read[id(docids)],
    )


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
    header, rows = _read_table(f.name, _decode_text(f, max_bytes))
    roles = _table_roles(f.name, header, hyp_columns, ref_columns, source_column, docid_column)
    columns = dict(zip(header, zip(*rows, strict=True), strict=True))
    return _testset(
        [(re.sub(r"^hyp[._](?=.)", "", c), columns[c]) for c in roles.hyps],
        references=[columns[c] for c in roles.refs],
        source=None if roles.source is None else columns[roles.source],
        doc_ids=None if roles.docid is None else columns[roles.docid],
        seg_ids=None if roles.segid is None else columns[roles.segid],
    )


def load_xml(f: NamedBytes, max_bytes: int = DEFAULT_MAX_BYTES) -> TestSet:
    """Load a WMT XML test set, or a single NIST/WMT SGML file holding all its sets.

    Raises:
        InputError: the file is too large, empty, malformed, or its streams do not align.
    """
    _check_size_and_emptiness(f, max_bytes)
    if looks_like_sgml(f.data):
        return load_sgml_files([f], max_bytes)
    return _from_aligned(parse_wmt_xml(f.name, f.data))


def load_sgml_files(files: Sequence[NamedBytes], max_bytes: int = DEFAULT_MAX_BYTES) -> TestSet:
    """Load NIST/WMT SGML files (srcset, refset and tstset, e.g. one file per set).

    Raises:
        InputError: a file is refused by ``decode_lines``'s checks, the SGML is
            malformed, or its streams do not align.
    """
    if not files:
        raise InputError("no SGML file given")
    return _from_aligned(parse_sgml([(f.name, _decode_text(f, max_bytes)) for f in files]))


def load_files(
    hyps: Sequence[NamedBytes],
    refs: Sequence[NamedBytes],
    source: NamedBytes | None = None,
    docids: NamedBytes | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> TestSet:
    """Load a test set, choosing the reader from the files' extensions.

    A lone table (.tsv/.csv/.jsonl/.json), XML or SGML file holds a whole test
    set; files that are all SGML are combined; anything else is plain text.

    Raises:
        InputError: a reader refuses the files, or a table, XML or SGML file is
            given together with plain-text files.
    """
    files = [*hyps, *refs, *(f for f in (source, docids) if f is not None)]
    extensions = [_extension(f.name) for f in files]
    if len(files) == 1 and extensions[0] in _TABLE_EXTENSIONS:
        return load_table(files[0], max_bytes=max_bytes)
    if len(files) == 1 and extensions[0] in _SGML_EXTENSIONS | {".xml"}:
        return load_xml(files[0], max_bytes)
    if files and docids is None and all(e in _SGML_EXTENSIONS for e in extensions):
        return load_sgml_files(files, max_bytes)
    for f, ext in zip(files, extensions, strict=True):
        if ext in _STRUCTURED_EXTENSIONS:
            raise InputError(
                f"{f.name}: a {ext} file cannot be read with plain-text files; "
                "give a table or XML file alone, or only SGML files"
            )
    return load_plain(hyps, refs, source, docids, max_bytes)


def _check_size(name: str, size: int, max_bytes: int) -> None:
    """Refuse a file of ``size`` bytes when it is over ``max_bytes``."""
    if size > max_bytes:
        raise InputError(
            f"{name}: file is {_format_size(size)}, over the {_format_size(max_bytes)} limit"
        )


def _check_size_and_emptiness(f: NamedBytes, max_bytes: int) -> None:
    """Refuse a file over ``max_bytes``, or one with no bytes but a BOM."""
    _check_size(f.name, len(f.data), max_bytes)
    if not f.data.removeprefix(_BOM):
        raise InputError(f"{f.name}: file is empty")


def _format_size(n: int) -> str:
    """Format a byte count for people: ``"300.0 MB"``, ``"12.5 KB"`` or ``"17 bytes"``."""
    if n >= 1024 * 1024:
        return f"{n / (1024 * 1024):.1f} MB"
    if n >= 1024:
        return f"{n / 1024:.1f} KB"
    return f"{n} bytes"


def _decode_text(f: NamedBytes, max_bytes: int) -> str:
    """Check size and emptiness, decode strict UTF-8 and drop one leading BOM."""
    _check_size_and_emptiness(f, max_bytes)
    try:
        text = f.data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = f.data.count(b"\n", 0, e.start) + 1
        raise InputError(
            f"{f.name}: invalid UTF-8 at line {line} (byte offset {e.start})"
        ) from None
    return text.removeprefix("\ufeff")


def _split_lines(text: str) -> tuple[str, ...]:
    """Split on ``\\r\\n`` and ``\\n`` only; a final line end adds no empty line."""
    text = text.replace("\r\n", "\n")
    return tuple(text.removesuffix("\n").split("\n"))


def _plural(n: int, word: str) -> str:
    """Return ``"1 line"`` or ``"3 lines"``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _check_counts(counts: Sequence[tuple[str, int]]) -> None:
    """Refuse files whose line counts differ, naming every file with its count."""
    if len({n for _, n in counts}) > 1:
        listing = ", ".join(f"{name} has {_plural(n, 'line')}" for name, n in counts)
        raise InputError(f"line counts differ: {listing}")


def _unique_names(names: Sequence[str]) -> list[str]:
    """Make names unique by suffixing repeats: ``sysA``, ``sysA (2)``, ``sysA (3)``."""
    seen: set[str] = set()
    unique: list[str] = []
    for name in names:
        candidate, k = name, 1
        while candidate in seen:
            k += 1
            candidate = f"{name} ({k})"
        seen.add(candidate)
        unique.append(candidate)
    return unique


def _testset(
    systems: Sequence[tuple[str, tuple[str, ...]]],
    references: Sequence[tuple[str, ...]],
    source: tuple[str, ...] | None = None,
    doc_ids: tuple[str, ...] | None = None,
    seg_ids: tuple[str, ...] | None = None,
) -> TestSet:
    """Build a ``TestSet``, making system names unique."""
    names = _unique_names([name for name, _ in systems])
    return TestSet(
        systems={name: lines for name, (_, lines) in zip(names, systems, strict=True)},
        references=tuple(references),
        source=source,
        doc_ids=doc_ids,
        seg_ids=seg_ids,
    )


def _from_aligned(aligned: Aligned) -> TestSet:
    """Build a ``TestSet`` from streams parsed out of XML or SGML."""
    return _testset(
        aligned.systems, aligned.references, aligned.source, aligned.doc_ids, aligned.seg_ids
    )


def _extension(name: str) -> str:
    """Return the lower-cased last extension of a file name, with its dot."""
    return os.path.splitext(re.split(r"[\\/]", name)[-1])[1].lower()


def _read_table(name: str, text: str) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """Parse a table by its extension into a header and rows of the header's width."""
    ext = _extension(name)
    if ext == ".tsv":
        numbered = [(n, line.split("\t")) for n, line in enumerate(_split_lines(text), start=1)]
        header, rows = _checked_rows(name, numbered)
    elif ext == ".csv":
        header, rows = _csv_rows(name, text)
    elif ext in (".jsonl", ".json"):
        header, rows = _jsonl_rows(name, text)
    else:
        raise InputError(f"{name}: unknown table format {ext!r} (use .tsv, .csv or .jsonl)")
    if not rows:
        raise InputError(f"{name}: no rows after the header")
    return header, rows


def _checked_rows(
    name: str, numbered: Sequence[tuple[int, Sequence[str]]]
) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """Split numbered rows into a header and body, refusing rows of another width."""
    (_, header), *body = numbered
    _check_header(name, header)
    for line, cells in body:
        if len(cells) != len(header):
            raise InputError(
                f"{name}: line {line} has {_plural(len(cells), 'field')}, "
                f"the header has {len(header)}"
            )
    return tuple(header), [tuple(cells) for _, cells in body]


def _check_header(name: str, header: Sequence[str]) -> None:
    """Refuse an empty header, an empty column name or a repeated one."""
    if not any(header):
        raise InputError(f"{name}: line 1: the header row is empty")
    for i, column in enumerate(header):
        if not column:
            raise InputError(f"{name}: line 1: column {i + 1} has an empty name")
        if column in header[:i]:
            raise InputError(f"{name}: line 1: column {column!r} appears twice")


def _csv_rows(name: str, text: str) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
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


def _jsonl_rows(name: str, text: str) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """Parse JSON lines: one object of string values per line, all with the same keys."""
    header: tuple[str, ...] = ()
    rows: list[tuple[str, ...]] = []
    for n, line in enumerate(_split_lines(text), start=1):
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
        rows.append(tuple(row[k] for k in header))
    return header, rows


def _json_object(name: str, n: int, line: str) -> dict[str, str]:
    """Parse line ``n`` as a JSON object whose values are all strings."""
    if not line.strip():
        raise InputError(f"{name}: line {n} is blank (expected a JSON object)")
    try:
        value = json.loads(line)
    except json.JSONDecodeError as e:
        raise InputError(f"{name}: line {n}: invalid JSON ({e.msg} at column {e.colno})") from None
    if not isinstance(value, dict):
        raise InputError(f"{name}: line {n}: expected a JSON object, got {type(value).__name__}")
    for key, item in value.items():
        if not isinstance(item, str):
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
