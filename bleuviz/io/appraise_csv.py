"""Appraise's raw ESA export: the CSV WMT24's ESA release is built from.

Appraise (AppraiseDev/Appraise) exports an ESA campaign's judgements as CSV
rows without a header, twelve fields each; WMT24 published its waves as
``humeval/esa_generalMT2024_wave*.csv`` (wmt-conference/wmt24-news-systems), and
its ``humeval/merge_to_jsonl.py`` unpacks a row as::

    user, system, line_id, tgt_type, lang1, lang2, esa_score, document_id, _,
    esa_spans, t0, t1

``esa_spans`` is a JSON list (``[{"start_i":0,"end_i":10,"severity":"major",
"error_type":null}]``), ``lang1``/``lang2`` three-letter codes (``eng``, ``ces``),
``line_id`` the 0-based line of the language pair's test set. This reader drops
the rows that script drops, by the same tests:

* ``tgt_type`` ``BAD`` (Appraise's quality-control items);
* a ``document_id`` ending in ``#bad``, ``#dup`` or ``#incomplete``;
* a ``document_id`` containing ``-tutorial``.

The other rows are ESA records (``bleuviz.io.esa_records``) with no ``tgt`` to
compare: ``user`` is the rater and ``lang1-lang2`` the language pair. A first
row that names the columns (``line_id`` in the third field) is taken as a header.
Deviation: the script's ``int(line_id)`` and ``json.loads`` would stop at a bad
field; here the file is refused with its line named.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator

from bleuviz.errors import InputError
from bleuviz.io.decode import DEFAULT_MAX_BYTES, NamedBytes, decode_lines, plural
from bleuviz.io.error_spans import ErrorAnnotations
from bleuviz.io.esa_records import EsaRecord, esa_annotations
from bleuviz.io.strict_json import load_json
from bleuviz.io.testset import TestSet

#: The export's fields, as the release's script names them.
COLUMNS = (
    "user",
    "system",
    "line_id",
    "tgt_type",
    "lang1",
    "lang2",
    "esa_score",
    "document_id",
    "_",
    "esa_spans",
    "t0",
    "t1",
)
#: ``document_id`` endings of the rows the release's script drops.
DROPPED_ENDINGS = ("#bad", "#dup", "#incomplete")
#: ``tgt_type`` of Appraise's quality-control rows, dropped.
BAD = "BAD"
#: Part of the ``document_id`` of a tutorial row, dropped.
TUTORIAL = "-tutorial"
_WHOLE = re.compile(r"[0-9]+")


def read_appraise_csv(
    f: NamedBytes, testset: TestSet, max_bytes: int = DEFAULT_MAX_BYTES
) -> ErrorAnnotations:
    """Read Appraise's ESA export into error spans and ESA scores on ``testset``.

    Raises:
        InputError: a row without twelve fields, a malformed ``line_id``, score or
            span list, a judgement that does not fit the test set, or no system of
            the file loaded (see ``bleuviz.io.esa_records``).
    """
    return esa_annotations(f.name, _records(f, max_bytes), testset)


def is_appraise_row(line: str) -> bool:
    """Return whether ``line`` reads as one row of the export (for recognising a file)."""
    fields = next(csv.reader([line]), [])
    return (
        len(fields) == len(COLUMNS)
        and (bool(_WHOLE.fullmatch(fields[2])) or fields[2] == "line_id")
        and fields[9].lstrip().startswith(("[", "esa_spans"))
    )


def kept(fields: list[str]) -> bool:
    """Whether the release's script keeps a row (no quality control, tutorial or bad row)."""
    document = fields[7]
    return not (fields[3] == BAD or document.endswith(DROPPED_ENDINGS) or TUTORIAL in document)


def _records(f: NamedBytes, max_bytes: int) -> Iterator[EsaRecord]:
    """Each kept row as a record (its line named in messages)."""
    lines = decode_lines(f, max_bytes)
    rows = csv.reader(lines)
    for fields in rows:
        n = rows.line_num
        where = f"{f.name}: line {n}"
        if not fields or (n == 1 and len(fields) > 2 and fields[2] == "line_id"):
            continue
        if len(fields) != len(COLUMNS):
            raise InputError(
                f"{where}: expected Appraise's {len(COLUMNS)} fields "
                f"({', '.join(COLUMNS)}), found {plural(len(fields), 'field')}"
            )
        if not kept(fields):
            continue
        line_id = fields[2].strip()
        yield EsaRecord(
            where,
            fields[1],
            float(line_id) if _WHOLE.fullmatch(line_id) else line_id,
            None,
            fields[6],
            load_json(f.name, fields[9], line=n),
            fields[0],
            f"{fields[4]}-{fields[5]}",
        )
