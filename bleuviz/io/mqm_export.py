"""Errors out as Google's MQM TSV, the layout ``bleuviz.io.mqm_tsv`` reads back.

Google's files (google/wmt-mqm-human-evaluation) have the header
``system doc doc_id seg_id rater source target category severity comment`` and
one row per error, the error's characters between ``<v>`` and ``</v>`` in
``target``; a segment a rater found no error in has one row whose category and
severity are ``No-error``. This writer makes such a file of any rater's errors
(bleuviz writes the user's notes with it, each rated by its author, ``bleuviz``
if anonymous):

* ``doc`` is the segment's document id and ``doc_id`` its 1-based position in
  that document (counted from the document's first line, as mt-metrics-eval's
  scorer and ``mqm_tsv``'s reader locate it). Without document ids, or when a
  document's lines are not one run (no position in the document then names
  the line), ``doc`` is ``-`` and ``doc_id`` equals ``seg_id``, the 1-based
  line number, which the reader then goes by.
* An error without marked words is a row without ``<v>`` marks (the reader
  takes it for an error marked nowhere, as the published files' omissions).
* Severities are written capitalised (``Major``, ``Minor``, ``Neutral``), as
  Google's files spell them.

Escapes: the format has none (fields are split on tabs, rows on line ends, no
quoting), so a field cannot hold a tab, a line feed or a carriage return. The
texts the reader checks (``target`` and ``source``, which must equal the test
set's lines, and the system, document and rater names) are **refused** with an
``InputError`` naming the system and segment: changing them would make the file
disagree with the test set. So is a ``target`` or ``source`` holding a literal
``<v>`` or ``</v>``, which would read as a mark. A ``comment`` is free text and
is **normalised**: each run of white space holding a tab, line feed or carriage
return becomes one space (the notes' own TSV export keeps it exactly).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bleuviz.errors import InputError
from bleuviz.io.mqm_tsv import COMMENT, REQUIRED_COLUMNS
from bleuviz.io.span_marks import CLOSE, OPEN
from bleuviz.io.testset import TestSet

#: Google's columns, in order: the reader's, then the comment it also reads.
MQM_TSV_HEADER = (*REQUIRED_COLUMNS, COMMENT)
#: The rater of a row that names none (bleuviz's anonymous notes).
RATER = "bleuviz"
#: Category and severity of a row saying a rater found no error.
NO_ERROR = "No-error"
#: ``doc`` where the test set has no document ids.
NO_DOC = "-"
_BREAKS = ("\t", "\n", "\r")
_BREAK_RUN = re.compile(r"\s*[\t\n\r]\s*")


@dataclass(frozen=True, slots=True)
class MqmRow:
    """One row of the file: an error one rater marked, or their finding of none.

    Attributes:
        system: the system's name (one the test set holds).
        segment: the segment's 0-based index.
        severity: ``major``, ``minor``, ``neutral`` (any case), or ``""`` for a
            row saying the rater found no error (``No-error``).
        category: the error's category as Google spells it
            (``Accuracy/Mistranslation``); ignored for a ``No-error`` row.
        span: the marked words, character offsets into the hypothesis line, end
            exclusive; None if the error marks none.
        comment: free text (normalised, see the module's docstring).
        rater: who marked it.
    """

    system: str
    segment: int
    severity: str
    category: str = ""
    span: tuple[int, int] | None = None
    comment: str = ""
    rater: str = RATER


def mqm_tsv(rows: Sequence[MqmRow], testset: TestSet) -> str:
    """Return ``rows`` on ``testset``'s lines as Google's MQM TSV, with its header.

    Rows are written in the order given; lines end with ``\\n``.

    Raises:
        InputError: a row names a system the test set lacks, a segment out of
            range, a span outside its line, or a text that the format cannot
            hold (see the module's docstring).
    """
    positions = _doc_positions(testset.doc_ids)
    out = ["\t".join(MQM_TSV_HEADER)]
    for row in rows:
        where = _where(row, testset)
        hypothesis = testset.systems[row.system][row.segment]
        source = testset.source[row.segment] if testset.source is not None else ""
        doc = testset.doc_ids[row.segment] if testset.doc_ids and positions else NO_DOC
        doc_id = positions[row.segment] if positions is not None else row.segment + 1
        for column, text in (("system", row.system), ("doc", doc), ("rater", row.rater)):
            _check_field(where, column, text)
        for column, text in (("target", hypothesis), ("source", source)):
            _check_field(where, column, text)
            _check_unmarked(where, column, text)
        error = bool(row.severity)
        fields = [row.system, doc, str(doc_id), str(row.segment + 1), row.rater, source]
        fields.append(_marked(where, hypothesis, row.span) if error else hypothesis)
        fields += [row.category, row.severity.capitalize()] if error else [NO_ERROR, NO_ERROR]
        fields.append(normalise_comment(row.comment))
        out.append("\t".join(fields))
    return "\n".join(out) + "\n"


def normalise_comment(text: str) -> str:
    """Return ``text`` as one field: white space holding a tab or line end becomes a space."""
    return _BREAK_RUN.sub(" ", text)


def _where(row: MqmRow, testset: TestSet) -> str:
    """Name the row's system and segment, refusing ones the test set lacks."""
    if row.system not in testset.systems:
        raise InputError(f"system {row.system!r}: not in the test set")
    if isinstance(row.segment, bool) or not 0 <= row.segment < testset.n_segments:
        raise InputError(
            f"system {row.system!r}: segment {row.segment!r} is out of range "
            f"(the test set has {testset.n_segments}, 0-based)"
        )
    return f"system {row.system!r}, segment {row.segment + 1}"


def _check_field(where: str, column: str, text: str) -> None:
    """Refuse a field holding a tab or a line end (the format cannot escape them)."""
    found = next((c for c in _BREAKS if c in text), None)
    if found is not None:
        raise InputError(
            f"{where}: the {column} holds a {_NAMES[found]}, which an MQM TSV cannot hold"
        )


_NAMES = {"\t": "tab", "\n": "line feed", "\r": "carriage return"}


def _check_unmarked(where: str, column: str, text: str) -> None:
    """Refuse a text holding ``<v>`` or ``</v>``: it would read as a mark."""
    for tag in (OPEN, CLOSE):
        if tag in text:
            raise InputError(f"{where}: the {column} holds {tag}, which would read as a mark")


def _marked(where: str, line: str, span: tuple[int, int] | None) -> str:
    """Return ``line`` with ``<v>``/``</v>`` around ``span`` (the line itself if None)."""
    if span is None:
        return line
    start, end = span
    if not 0 <= start < end <= len(line):
        raise InputError(f"{where}: span ({start}, {end}) is outside the line ({len(line)} chars)")
    return f"{line[:start]}{OPEN}{line[start:end]}{CLOSE}{line[end:]}"


def _doc_positions(doc_ids: Sequence[str] | None) -> list[int] | None:
    """Each line's 1-based position in its document, or None if a document is not one run."""
    if doc_ids is None:
        return None
    first: dict[str, int] = {}
    positions = []
    for i, doc in enumerate(doc_ids):
        if doc in first and doc_ids[i - 1] != doc:
            return None  # the document resumes after another one
        positions.append(i - first.setdefault(doc, i) + 1)
    return positions
