"""Google's MQM TSV (google/wmt-mqm-human-evaluation), read into error spans.

The layout Google published for WMT20-24 and the WMT21 TED talks: a header
``system doc doc_id seg_id rater source target category severity`` (optionally
``comment``, other columns ignored), then one row per error a rater marked,
the error's characters between ``<v>`` and ``</v>`` in ``target`` (in ``source``
for a source-side error). A segment a rater found no error in has one row of
category and severity ``No-error``. Severities are Major, Minor, Neutral (and
Critical), in any case.

Which line of the test set a row annotates: mt-metrics-eval's scorer
(``mt_metrics_eval/converters/score_mqm.py``) keys a row by ``doc`` and
``doc_id``, the 1-based position in its document, so where the test set has
document ids this reader maps rows so first. Where it has none, or a row names
a document it lacks, or a text then differs from its line, ``seg_id`` is the
1-based line number. The published TED en-de file needs the first: its
``seg_id`` counts a talk (``talk.2``) that mt-metrics-eval's TED test set does
not hold. Either way the annotated text, marks removed, must equal the
hypothesis line, so a wrong mapping is refused, never read.

Deliberate deviations from mt-metrics-eval's reader (``csv.DictReader`` with
``QUOTE_NONE``), the text fields read by ``bleuviz.io.span_marks``:

* a text field that is CSV-quoted (``"..."`` with doubled inner quotes, as the
  newstest2020 files are) is unquoted when, and only when, that makes it equal
  the test set's line; the literal text is tried first;
* a text that equals the line up to leading and trailing white space is read,
  its offsets shifted to the line as the test set holds it;
* an empty ``target`` is not compared (some source-error rows leave it empty);
* a last ``<v>`` never closed marks the rest of the text (one row of the
  published TED en-de file, line 6444, marks a final ``?`` so);
* refused: a ``</v>`` closing nothing, a ``<v>`` inside another, an unknown
  severity, a row with another number of fields than the header, and a segment
  past the test set's end.

A row marking several stretches gives one span per stretch, the later ones
``continued``, so that the row still counts as one error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import NamedTuple

from bleuviz.errors import InputError
from bleuviz.io.decode import DEFAULT_MAX_BYTES, NamedBytes, decode_lines, plural
from bleuviz.io.error_spans import (
    HUMAN,
    ErrorAnnotations,
    ErrorSpan,
    SegmentAnnotation,
)
from bleuviz.io.seg_scores import file_base_name
from bleuviz.io.span_marks import BadMarks, difference, text_on_line
from bleuviz.io.testset import TestSet

#: Columns every MQM TSV has, as Google's header names them.
REQUIRED_COLUMNS = (
    "system",
    "doc",
    "doc_id",
    "seg_id",
    "rater",
    "source",
    "target",
    "category",
    "severity",
)
#: The optional last column.
COMMENT = "comment"
#: Marot's names of the same columns (google-research/marot README, "Data file format").
_ALIASES = {
    "docsegid": "doc_id",
    "doc_seg_id": "doc_id",
    "globalsegid": "seg_id",
    "global_seg_id": "seg_id",
    "metadata": COMMENT,
    "note": COMMENT,
}
#: Severities read (lower case); ``no-error`` rows name a rater who found no error.
SEVERITIES = frozenset({"major", "minor", "neutral", "critical"})
NO_ERROR = "no-error"
#: The name the annotations and their score get, unless the file is ``NAME.mqm.tsv``.
MQM = "MQM"
#: A file named ``NAME`` + this suffix is read under ``NAME`` (your own exported notes
#: beside Google's file in one test set), as mt-metrics-eval names ``NAME.seg.rating``.
NAMED_SUFFIX = ".mqm.tsv"


@dataclass(slots=True)
class _Segment:
    """A segment's raters and spans while the file is read."""

    raters: list[str] = field(default_factory=list)
    spans: list[ErrorSpan] = field(default_factory=list)


class _Row(NamedTuple):
    """One row of a system the test set holds, its fields checked (a tuple: 100k are made)."""

    line: int
    system: str
    doc: str
    doc_id: int
    seg_id: int
    rater: str
    source: str
    target: str
    category: str
    severity: str


def read_mqm_tsv(
    f: NamedBytes, testset: TestSet, max_bytes: int = DEFAULT_MAX_BYTES
) -> ErrorAnnotations:
    """Read Google's MQM TSV into error spans on ``testset``'s hypotheses.

    Raises:
        InputError: the header lacks a column, a row is malformed (field count,
            ids, severity, marks), a segment is past the end, an annotated text
            differs from its hypothesis, or no system of the file is loaded.
    """
    lines = decode_lines(f, max_bytes)
    columns, first = _header(f.name, lines[0])
    segments, skipped = _read_rows(f.name, lines, first, columns, testset)
    if not segments:
        raise InputError(
            f"{f.name}: no system it annotates is in the test set "
            f"(it annotates {_some(skipped) or 'none'}; the test set has "
            f"{_some(testset.system_names)})"
        )
    frozen = {
        system: _freeze(segments[system], testset.n_segments)
        for system in testset.system_names
        if system in segments
    }
    return ErrorAnnotations(mqm_name(f.name), f.name, HUMAN, frozen, tuple(skipped))


def mqm_name(origin: str) -> str:
    """Return the name an MQM TSV is read under: ``NAME`` for ``NAME.mqm.tsv``, else ``MQM``.

    Every other MQM TSV is ``MQM``, so a test set holds one of them; naming a file
    ``NAME.mqm.tsv`` adds a second (``notes-1a2b.mqm.tsv``, the app's export of your
    notes, is read as ``notes-1a2b`` beside Google's ``MQM``).
    """
    base = file_base_name(origin)
    if base.lower().endswith(NAMED_SUFFIX) and len(base) > len(NAMED_SUFFIX):
        return base[: -len(NAMED_SUFFIX)]
    return MQM


def _header(name: str, line: str) -> tuple[dict[str, int], int]:
    """Return each column's position and the 0-based line the rows start on.

    Marot's names are read too (``docSegId``, ``globalSegId``, ``metadata``), and,
    as Marot does, a first line without ``system<TAB>doc`` is a row of a file
    without header, whose columns are in the usual order.

    Raises:
        InputError: a header without the required columns.
    """
    if not line.lower().startswith("system\tdoc"):
        return {column: i for i, column in enumerate((*REQUIRED_COLUMNS, COMMENT))}, 0
    names = [_ALIASES.get(c.strip().lower(), c.strip().lower()) for c in line.split("\t")]
    positions = {column: i for i, column in enumerate(names)}
    missing = [column for column in REQUIRED_COLUMNS if column not in positions]
    if missing:
        raise InputError(
            f"{name}: line 1: the header lacks {', '.join(missing)} "
            f"(an MQM TSV starts with: {' '.join(REQUIRED_COLUMNS)})"
        )
    return positions, 1


def _read_rows(
    name: str, lines: Sequence[str], first: int, columns: dict[str, int], testset: TestSet
) -> tuple[dict[str, dict[int, _Segment]], list[str]]:
    """Read every row onto its line by the first mapping under which all fit.

    By document and position first where the test set has document ids, else
    (a document it does not hold, or a text that then differs) by ``seg_id``; when
    neither fits, the first mapping's refusal is raised. Rows are read as they
    come, none kept: a file is one pass when the first mapping fits.

    Returns:
        The segments of each loaded system, and the systems not loaded.
    """
    first_refusal: InputError | None = None
    for locate in _locators(name, testset):
        try:
            return _map_rows(name, lines, first, columns, testset, locate)
        except _DocumentsDiffer:
            continue
        except InputError as refusal:
            first_refusal = first_refusal or refusal
    if isinstance(first_refusal, _Misplaced) and testset.doc_ids is None:
        raise InputError(str(first_refusal) + _NO_DOCUMENTS)
    raise first_refusal or InputError(f"{name}: no mapping of rows to lines fits")


def _map_rows(
    name: str,
    lines: Sequence[str],
    first: int,
    columns: dict[str, int],
    testset: TestSet,
    locate: _Locate,
) -> tuple[dict[str, dict[int, _Segment]], list[str]]:
    """Read the rows of loaded systems onto the lines ``locate`` maps them to."""
    width = len(columns)
    # A file whose last column is the comment may leave it off entirely.
    short = width - 1 if columns.get(COMMENT) == width - 1 else width
    pick = itemgetter(*(columns[column] for column in REQUIRED_COLUMNS))
    segments: dict[str, dict[int, _Segment]] = {}
    skipped: dict[str, None] = {}
    systems = testset.systems
    for n, line in enumerate(lines[first:], start=first + 1):
        if not line:
            continue
        fields = line.split("\t")
        if len(fields) != width and len(fields) != short:
            raise InputError(
                f"{name}: line {n}: {plural(len(fields), 'field')}, expected {width} "
                f"({' '.join(sorted(columns, key=columns.__getitem__))})"
            )
        system, doc, doc_id, seg_id, rater, source, target, category, severity = pick(fields)
        if system not in systems:
            if not system:
                raise InputError(f"{name}: line {n}: the system is empty")
            skipped[system] = None
            continue
        if not rater and not severity.strip():  # Marot's rows of metrics or references only
            continue
        row = _Row(
            n,
            system,
            doc,
            _positive(name, n, "doc_id", doc_id),
            _positive(name, n, "seg_id", seg_id, least=0),
            rater,
            source,
            target,
            category.strip(),
            _severity(name, n, severity),
        )
        index = locate(row)
        segment = segments.setdefault(system, {}).setdefault(index, _Segment())
        _add_row(name, row, index, testset, segment)
    return segments, list(skipped)


def _positive(name: str, n: int, column: str, text: str, least: int = 1) -> int:
    """Parse an id of ASCII digits of at least ``least`` (line ``n`` of file ``name``)."""
    if text.isascii() and text.isdigit() and (value := int(text)) >= least:
        return value
    raise InputError(f"{name}: line {n}: {column} {text[:20]!r} is not a whole number from {least}")


def _severity(name: str, n: int, text: str) -> str:
    """Return the severity in lower case, refusing one MQM does not have."""
    severity = text.strip().lower().replace("_", "-").replace(" ", "-")  # Marot: no_error
    if severity not in SEVERITIES and severity != NO_ERROR:
        where = f"{name}: line {n}"
        known = ", ".join(sorted(SEVERITIES)) + ", no-error"
        raise InputError(f"{where}: unknown severity {text[:30]!r} (expected {known})")
    return severity


def _locators(name: str, testset: TestSet) -> list[_Locate]:
    """The mappings to try: by document and position where there are documents, then seg_id."""
    by_seg_id = _Locate(name, testset.n_segments, None)
    if testset.doc_ids is None:
        return [by_seg_id]
    starts: dict[str, tuple[int, int]] = {}  # doc -> (first line, line count)
    for i, doc in enumerate(testset.doc_ids):
        first, count = starts.get(doc, (i, 0))
        starts[doc] = (first, count + 1)
    return [_Locate(name, testset.n_segments, starts), by_seg_id]


class _DocumentsDiffer(InputError):
    """A row's document is not among the test set's: map by seg_id instead."""


class _Misplaced(InputError):
    """A row on a line past the end, or whose text is not the line's: a wrong mapping?"""


#: Said when rows mapped by seg_id do not fit a test set without document ids.
_NO_DOCUMENTS = (
    " (without document ids, seg_id is taken as the line number; with them, rows map "
    "by doc and doc_id, as in files whose seg_id counts segments the test set lacks)"
)


@dataclass(frozen=True, slots=True)
class _Locate:
    """Map a row to its 0-based line: ``doc``/``doc_id`` through ``starts``, else ``seg_id``."""

    name: str
    n_segments: int
    starts: dict[str, tuple[int, int]] | None

    def __call__(self, row: _Row) -> int:
        if self.starts is None:
            if row.seg_id == 0:  # Marot: "set this to a constant value, say 0"
                raise _Misplaced(f"{self._where(row)}: seg_id 0 names no line")
            if row.seg_id > self.n_segments:
                raise _Misplaced(
                    f"{self._where(row)}: seg_id {row.seg_id} is past the test set's "
                    f"{plural(self.n_segments, 'segment')}"
                )
            return row.seg_id - 1
        if row.doc not in self.starts:
            raise _DocumentsDiffer(
                f"{self._where(row)}: document {row.doc!r} is not the test set's"
            )
        first, count = self.starts[row.doc]
        if row.doc_id > count:
            raise InputError(
                f"{self._where(row)}: doc_id {row.doc_id} is past the end of document {row.doc!r} "
                f"({plural(count, 'segment')} in the test set)"
            )
        return first + row.doc_id - 1

    def _where(self, row: _Row) -> str:
        """Return the row's place for a message."""
        return f"{self.name}: line {row.line}: system {row.system!r}"


def _add_row(name: str, row: _Row, index: int, testset: TestSet, segment: _Segment) -> None:
    """Check the row's texts against the test set and add its rater and error."""
    hypothesis = testset.systems[row.system][index]
    try:
        target, target_marks = text_on_line(row.target, hypothesis)
        source_line = testset.source[index] if testset.source is not None else None
        if "<" in row.source:
            source, source_marks = text_on_line(row.source, source_line)
        else:
            source, source_marks = row.source, ()
    except BadMarks as e:
        raise InputError(f"{_where(name, row, index)}: {e}") from None
    if row.target and target != hypothesis:
        raise _Misplaced(
            f"{_where(name, row, index)}: the annotated text differs from the hypothesis: "
            + difference(target, hypothesis)
        )
    if source_marks and source_line is not None and source != source_line:
        raise InputError(
            f"{_where(name, row, index)}: the annotated source differs from the source line: "
            + difference(source, source_line)
        )
    if row.rater not in segment.raters:
        segment.raters.append(row.rater)
    if row.severity != NO_ERROR:
        segment.spans += _spans(row, target_marks, source_marks)


def _where(name: str, row: _Row, index: int) -> str:
    """Return a row's place for a message (formatted only when one is raised)."""
    return f"{name}: line {row.line}: system {row.system!r} segment {index + 1}"


def _spans(
    row: _Row,
    target_marks: tuple[tuple[int, int], ...],
    source_marks: tuple[tuple[int, int], ...],
) -> list[ErrorSpan]:
    """One span per marked stretch (target's first), later ones ``continued``."""
    marks = [(s, e, False) for s, e in target_marks] + [(s, e, True) for s, e in source_marks]
    if not marks:  # an error marked nowhere (Non-translation!, an omission): a marker
        return [ErrorSpan(0, 0, row.severity, row.category, row.rater, omission=True)]
    return [
        ErrorSpan(
            start,
            end,
            row.severity,
            row.category,
            row.rater,
            on_source=on_source,
            omission=start == end,
            continued=k > 0,
        )
        for k, (start, end, on_source) in enumerate(marks)
    ]


def _freeze(segments: dict[int, _Segment], n: int) -> tuple[SegmentAnnotation | None, ...]:
    """Return one entry per line: the segment's annotation, or None where none."""
    frozen: list[SegmentAnnotation | None] = [None] * n
    for index, segment in segments.items():
        frozen[index] = SegmentAnnotation(tuple(segment.raters), tuple(segment.spans))
    return tuple(frozen)


def _some(names: Sequence[str], shown: int = 10) -> str:
    """Name the first ``shown`` of ``names``, and how many more there are."""
    listed = ", ".join(names[:shown])
    return listed + (f", … ({len(names) - shown} more)" if len(names) > shown else "")
