"""WMT24's ESA annotations (Error Span Annotation, Appraise) as JSON lines.

The public WMT24 release (wmt-conference/wmt24-news-systems,
``humeval/merge_to_jsonl.py``) merges Appraise's CSV export
(``bleuviz.io.appraise_csv``) into one JSON object per line and judgement, with
the keys ``langs, line_id, src, tgt, doc_id, domain, esa_spans, esa_score,
times, system, annotator, speech_info``. The keys read here:

* ``system``: the system's name;
* ``line_id``: the segment's 0-based line in the test set (a JSON number);
* ``tgt``: the hypothesis; it must equal the test set's line;
* ``esa_score``: the segment's score, 0-100, written by the release as a string
  (``"66"``: the script copies the CSV's field); a number or ``null`` is read too;
* ``esa_spans``: ``[{"start_i", "end_i", "severity", "error_type"}]``;
* ``annotator`` (optional): the rater; ``ESA`` when absent;
* ``langs`` (optional): the language pair; the release holds every pair in one file.

The release's unified layout (``txt/wmt24-genmt-humeval.jsonl``, one line per
segment) is read too, line by line (``bleuviz.io.esa_unified``).

What the values mean, and how several annotators, several language pairs and
``undecided`` spans are read, is ``bleuviz.io.esa_records``'s rule, shared with the CSV.
"""

from __future__ import annotations

from collections.abc import Iterator

from bleuviz.errors import InputError
from bleuviz.io.decode import DEFAULT_MAX_BYTES, NamedBytes, decode_lines
from bleuviz.io.error_spans import ErrorAnnotations
from bleuviz.io.esa_records import ESA, MISSING, EsaRecord, esa_annotations
from bleuviz.io.esa_unified import KEYS as UNIFIED_KEYS
from bleuviz.io.esa_unified import is_unified, unified_records
from bleuviz.io.strict_json import load_json
from bleuviz.io.testset import TestSet

__all__ = ["ESA", "MISSING", "read_esa_jsonl"]


def read_esa_jsonl(
    f: NamedBytes, testset: TestSet, max_bytes: int = DEFAULT_MAX_BYTES
) -> ErrorAnnotations:
    """Read WMT24's ESA JSON lines into error spans and ESA scores on ``testset``.

    Raises:
        InputError: a line that is not such an object (nor a unified one), a
            ``line_id`` past the end, a ``tgt`` that differs from the hypothesis, a
            malformed span or score, offsets outside the line, or no system of the
            file loaded.
    """
    return esa_annotations(f.name, _records(f, max_bytes), testset)


def _records(f: NamedBytes, max_bytes: int) -> Iterator[EsaRecord]:
    """Each non-empty line as a record."""
    for n, line in enumerate(decode_lines(f, max_bytes), start=1):
        if not line.strip():
            continue
        record = load_json(f.name, line, line=n)
        where = f"{f.name}: line {n}"
        if is_unified(record):
            yield from unified_records(where, record)
            continue
        if not isinstance(record, dict) or not isinstance(record.get("system"), str):
            raise InputError(
                f"{where}: expected an object with system, line_id, tgt, esa_spans "
                f"(or the unified layout's {', '.join(UNIFIED_KEYS)})"
            )
        target = record.get("tgt")
        if not isinstance(target, str):
            raise InputError(f"{where}: tgt {target!r} is not a text")
        langs = record.get("langs", "")
        yield EsaRecord(
            where,
            record["system"],
            record.get("line_id"),
            target,
            record.get("esa_score"),
            record.get("esa_spans", []),
            record.get("annotator"),
            langs if isinstance(langs, str) else str(langs),
        )
