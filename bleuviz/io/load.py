"""Read a test set from files or uploaded bytes, choosing the reader by extension.

Plain text holds one segment per line (``bleuviz.io.plain``); tables (TSV,
CSV, JSON lines) hold one segment per row (``bleuviz.io.table``); WMT XML and
NIST SGML are parsed by ``bleuviz.io.wmt_xml`` and loaded here. Every refusal is an
``InputError`` with a one-line message that names the file and, where there is
one, the line.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from bleuviz.errors import InputError
from bleuviz.io.assemble import testset_from_aligned
from bleuviz.io.decode import (
    DEFAULT_MAX_BYTES,
    NamedBytes,
    check_size_and_emptiness,
    decode_text,
    file_extension,
    read_path,
)
from bleuviz.io.plain import load_plain
from bleuviz.io.testset import TestSet

# The table reader (with json and csv) and the XML reader are imported where a
# table or XML file is read: a plain-text command never loads them (5 ms of its start).

_TABLE_EXTENSIONS = frozenset({".tsv", ".csv", ".jsonl", ".json"})
_SGML_EXTENSIONS = frozenset({".sgm", ".sgml"})
_STRUCTURED_EXTENSIONS = _TABLE_EXTENSIONS | _SGML_EXTENSIONS | {".xml"}


def load_xml(f: NamedBytes, max_bytes: int = DEFAULT_MAX_BYTES) -> TestSet:
    """Load a WMT XML test set, or a single NIST/WMT SGML file holding all its sets.

    Raises:
        InputError: the file is too large, empty, malformed, or its streams do not align.
    """
    from bleuviz.io.wmt_xml import looks_like_sgml, parse_wmt_xml

    check_size_and_emptiness(f, max_bytes)
    if looks_like_sgml(f.data):
        return load_sgml_files([f], max_bytes)
    return testset_from_aligned(parse_wmt_xml(f.name, f.data))


def load_sgml_files(files: Sequence[NamedBytes], max_bytes: int = DEFAULT_MAX_BYTES) -> TestSet:
    """Load NIST/WMT SGML files (srcset, refset and tstset, e.g. one file per set).

    Raises:
        InputError: a file is refused by ``decode_lines``'s checks, the SGML is
            malformed, or its streams do not align.
    """
    from bleuviz.io.wmt_xml import parse_sgml

    if not files:
        raise InputError("no SGML file given")
    return testset_from_aligned(parse_sgml([(f.name, decode_text(f, max_bytes)) for f in files]))


def holds_references(hyps: Sequence[str]) -> bool:
    """Whether ``--hyp`` alone names a whole test set: one table, XML or SGML file.

    Such a file carries its references (``load_files`` reads it alone), so no
    ``--ref`` is needed, on the command line as in the app.
    """
    return len(hyps) == 1 and file_extension(str(hyps[0])) in _STRUCTURED_EXTENSIONS


def all_plain(paths: Sequence[str]) -> bool:
    """Whether every file is read as plain text (no table, XML or SGML among them)."""
    return all(file_extension(path) not in _STRUCTURED_EXTENSIONS for path in paths)


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
    extensions = [file_extension(f.name) for f in files]
    if len(files) == 1 and extensions[0] in _TABLE_EXTENSIONS:
        from bleuviz.io.table import load_table

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


def load_paths(
    hyps: Sequence[str | os.PathLike[str]],
    refs: Sequence[str | os.PathLike[str]],
    source: str | os.PathLike[str] | None = None,
    docids: str | os.PathLike[str] | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> TestSet:
    """Read files from disk and load them as :func:`load_files` does.

    Raises:
        InputError: a file is missing, unreadable or over ``max_bytes``, or a
            reader refuses the files.
    """

    def read(path: str | os.PathLike[str] | None) -> NamedBytes | None:
        return None if path is None else read_path(path, max_bytes)

    return load_files(
        [read_path(p, max_bytes) for p in hyps],
        [read_path(p, max_bytes) for p in refs],
        read(source),
        read(docids),
        max_bytes,
    )
