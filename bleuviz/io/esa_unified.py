"""WMT24's ESA release in its "unified" layout: one JSON line per segment.

Beside the flat ``wmt24_esa_original.jsonl`` (``bleuviz.io.esa_jsonl``), the
release's ``humeval/merge_to_jsonl.py`` (wmt-conference/wmt24-news-systems,
``convert_to_unified_format``) writes ``wmt24-genmt-humeval.jsonl`` (published
in ``txt/``) with pandas' ``to_json(lines=True, orient="records")``: the same
judgements grouped by segment, one object per line with the keys

* ``doc_id``: ``"{langs}_#_{domain}_#_{doc_id}_#_{line_id}"``: the language
  pair first, the segment's 0-based ``line_id`` last;
* ``tgt_text``: ``{system: hypothesis}``; each must equal the test set's line;
* ``scores``: ``{system: [{"score", "annotator", "errors", "times", "protocol"}]}``,
  one judgement per annotator: ``score`` is ``esa_score`` (the script writes
  ``float(esa_score)``), ``errors`` the ``esa_spans``, ``annotator`` the rater
  (the release maps Appraise's user through ``humeval/annotator_mapping.json``);
* ``src_text``, not read.

Each judgement becomes the :class:`EsaRecord` its flat line would give, so both
layouts are read by ``bleuviz.io.esa_records``'s one rule (offsets, scores,
language pairs).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from bleuviz.errors import InputError
from bleuviz.io.esa_records import EsaRecord

#: The keys that tell a unified line from a flat one.
KEYS = ("doc_id", "tgt_text", "scores")
#: What ``convert_to_unified_format`` joins ``doc_id``'s parts with.
SEPARATOR = "_#_"
_WHOLE = re.compile(r"[0-9]+")


def is_unified(record: Any) -> bool:
    """Return whether a JSON value is a line of the unified layout."""
    return isinstance(record, dict) and isinstance(record.get("scores"), dict)


def unified_records(where: str, record: dict[str, Any]) -> Iterator[EsaRecord]:
    """Each judgement of one unified line (``where``: its file and line) as a record.

    Raises:
        InputError: a ``doc_id`` without a language pair and a line, a system
            without its ``tgt_text``, or judgements that are not a list of objects.
    """
    langs, line_id = _segment(where, record.get("doc_id"))
    targets = record.get("tgt_text")
    if not isinstance(targets, dict):
        raise InputError(f"{where}: tgt_text {targets!r} is not an object of systems' texts")
    for system, judgements in record["scores"].items():
        target = targets.get(system)
        if not isinstance(target, str):
            raise InputError(f"{where}: tgt_text of system {system!r} {target!r} is not a text")
        if not isinstance(judgements, list):
            raise InputError(f"{where}: scores of system {system!r} is not a list")
        for k, judgement in enumerate(judgements, start=1):
            at = f"{where}: judgement {k} of {system!r}"
            if not isinstance(judgement, dict):
                raise InputError(f"{at}: expected an object with score, annotator, errors")
            yield EsaRecord(
                at,
                system,
                line_id,
                target,
                judgement.get("score"),
                judgement.get("errors", []),
                judgement.get("annotator"),
                langs,
            )


def _segment(where: str, doc_id: Any) -> tuple[str, Any]:
    """Return the language pair and the line ``doc_id`` names (a float when whole)."""
    parts = doc_id.split(SEPARATOR) if isinstance(doc_id, str) else []
    if len(parts) < 2:
        raise InputError(
            f"{where}: doc_id {doc_id!r} is not LANGS{SEPARATOR}DOMAIN{SEPARATOR}"
            f"DOC{SEPARATOR}LINE_ID"
        )
    line_id = parts[-1].strip()
    return parts[0], float(line_id) if _WHOLE.fullmatch(line_id) else line_id
