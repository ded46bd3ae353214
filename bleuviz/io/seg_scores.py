"""Segment scores from outside (COMET, MetricX, human judgements), read and checked.

A neural metric or an annotation campaign gives one number per system and
segment. Three layouts are read:

* mt-metrics-eval's ``NAME.seg.score`` (google-research/mt-metrics-eval,
  ``data.py``: ``ReadScoreFile``): lines ``SYSTEM<TAB>SCORE``, a system's k-th
  line is segment k, ``None`` marks a missing score. The metric is named after
  the file, without ``.seg.score``.
* COMET's ``comet-score --to_json`` output (Unbabel/COMET, ``comet/cli/score.py``):
  an object mapping each hypothesis file to a list of ``{"src", "mt", "ref",
  "COMET"}`` records; the system is named after the file as ``--hyp`` names it,
  and every ``mt`` must equal the test set's line, so misaligned files are refused.
* A column ``score:METRIC:SYSTEM`` in a TSV/CSV/JSONL test set (``bleuviz.io.table``).

Missing scores are NaN here; a NaN or infinite value in a file is refused, so
NaN always means "no score". Nothing is truncated or padded: a system with
another number of scores than the test set has segments is refused.
The value type, ``SegmentScores``, and those checks are in ``bleuviz.io.scores``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Sequence
from dataclasses import replace

from bleuviz.errors import InputError
from bleuviz.io.decode import DEFAULT_MAX_BYTES, NamedBytes, decode_lines, decode_text
from bleuviz.io.plain import system_name_from_filename
from bleuviz.io.scores import SegmentScores, build_scores
from bleuviz.io.testset import TestSet

#: mt-metrics-eval's suffix of a segment-level score file.
SEG_SCORE_SUFFIX = ".seg.score"
#: What mt-metrics-eval writes for a segment without a score.
MISSING = "None"
#: Keys of a COMET ``--to_json`` record that are texts, not the score.
_COMET_TEXT_KEYS = frozenset({"src", "mt", "ref"})
#: A plain ASCII decimal or scientific number (no ``_``, no other digits, no nan/inf).
_NON_FINITE = re.compile(r"[+-]?(?:nan|inf|infinity)", re.IGNORECASE)
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def parse_score(where: str, text: str, missing: frozenset[str] = frozenset({MISSING})) -> float:
    """Parse one score: a plain decimal or scientific ASCII number; NaN for a missing marker.

    mt-metrics-eval reads scores with Python's ``float``, which also takes ``1_000``,
    Arabic-Indic digits, ``nan`` and ``inf``; none of these is written by a metric,
    and each would be a silent wrong number, so only ``[+-]digits[.digits][e[+-]digits]``
    is read, and a value beyond the float range (``1e999``) is refused as infinite.

    Raises:
        InputError: not such a number, or infinite (``where`` names the file and line).
    """
    value = text.strip()
    if value in missing:
        return math.nan
    shown = f"{value[:40]!r}" + ("…" if len(value) > 40 else "")
    if _NON_FINITE.fullmatch(value):
        raise InputError(f"{where}: {shown} is not a finite number")
    if not _NUMBER.fullmatch(value):
        raise InputError(
            f"{where}: {shown} is not a number (ASCII digits like -1.5 or 2e-3, or {MISSING})"
        )
    number = float(value)
    if not math.isfinite(number):
        raise InputError(f"{where}: {shown} is not a finite number")
    return number


def read_seg_scores(
    f: NamedBytes, testset: TestSet, max_bytes: int = DEFAULT_MAX_BYTES
) -> SegmentScores:
    """Read an mt-metrics-eval ``NAME.seg.score`` file or a COMET ``--to_json`` file.

    Raises:
        InputError: the layout is unknown, a line is malformed, or the scores do
            not fit the test set (see ``build_scores``).
    """
    base = file_base_name(f.name)
    if base.endswith(SEG_SCORE_SUFFIX) and len(base) > len(SEG_SCORE_SUFFIX):
        name = base[: -len(SEG_SCORE_SUFFIX)]
        columns = _mt_metrics_eval_columns(f, max_bytes)
        return build_scores(f.name, name, columns, testset.system_names, testset.n_segments)
    if base.endswith(".json"):
        return _read_comet_json(f, testset, max_bytes)
    raise InputError(
        f"{f.name}: segment scores must be an mt-metrics-eval NAME{SEG_SCORE_SUFFIX} file "
        "or COMET's --to_json output (.json)"
    )


def _mt_metrics_eval_columns(f: NamedBytes, max_bytes: int) -> dict[str, list[float]]:
    """Collect ``SYSTEM<TAB>SCORE`` lines into one list of scores per system, in order."""
    columns: dict[str, list[float]] = {}
    for n, line in enumerate(decode_lines(f, max_bytes), start=1):
        system, tab, value = line.partition("\t")
        if not tab or not system:
            raise InputError(f"{f.name}: line {n}: expected SYSTEM<TAB>SCORE, got {line[:60]!r}")
        columns.setdefault(system, []).append(parse_score(f"{f.name}: line {n}", value))
    return columns


def _read_comet_json(f: NamedBytes, testset: TestSet, max_bytes: int) -> SegmentScores:
    """Read ``comet-score --to_json``: {hyp file: [{"src", "mt", "ref", METRIC}, ...]}."""
    # Only here: a command without a COMET file never loads json (about 2.5 ms).
    from bleuviz.io.strict_json import load_json

    data = load_json(f.name, decode_text(f, max_bytes))
    if not isinstance(data, dict) or not data:
        raise InputError(f"{f.name}: expected COMET's --to_json object {{file: [records]}}")
    names: set[str] = set()
    columns: dict[str, list[float]] = {}
    for path, records in data.items():
        system = system_name_from_filename(path)
        if not isinstance(records, list):
            raise InputError(f"{f.name}: the value of {path!r} is not a list of records")
        column = columns.setdefault(system, [])
        for k, record in enumerate(records, start=1):
            where = f"{f.name}: {path!r} record {k}"
            metric, value = _comet_record(where, record, testset.systems.get(system), k)
            names.add(metric)
            column.append(value)
    if len(names) != 1:
        raise InputError(f"{f.name}: records name several scores ({', '.join(sorted(names))})")
    return build_scores(f.name, names.pop(), columns, testset.system_names, testset.n_segments)


def _comet_record(
    where: str, record: object, lines: Sequence[str] | None, k: int
) -> tuple[str, float]:
    """Return one record's metric name and score, refusing an ``mt`` that is not line k.

    COMET strips every line it reads (``comet/cli/score.py``), so texts are
    compared stripped.
    """
    if not isinstance(record, dict) or not isinstance(record.get("mt"), str):
        raise InputError(f"{where}: expected an object with an 'mt' text and a score")
    metric = [key for key in record if key not in _COMET_TEXT_KEYS]
    if len(metric) != 1:
        raise InputError(f"{where}: expected one score beside src/mt/ref, got {metric}")
    value = record[metric[0]]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(f"{where}: {value!r} is not a number")
    if lines is not None and k <= len(lines) and record["mt"].strip() != lines[k - 1].strip():
        raise InputError(f"{where}: its 'mt' text differs from line {k} of the system's output")
    return metric[0], parse_score(where, str(value))


class ScoresNameTaken(InputError):
    """A file's scores are named like scores already loaded, with other values.

    Attributes:
        name: the metric's name.
        origin: the file that was refused.
        loaded_from: where the scores of that name already loaded come from.
    """

    def __init__(self, name: str, origin: str, loaded_from: str) -> None:
        super().__init__(
            f"{origin}: segment scores named {name!r} are already loaded from "
            f"{file_base_name(loaded_from)}, with other values; rename one file"
        )
        self.name, self.origin, self.loaded_from = name, origin, loaded_from


def attach_seg_scores(
    testset: TestSet,
    files: Sequence[NamedBytes],
    max_bytes: int = DEFAULT_MAX_BYTES,
    replace_names: Collection[str] = (),
) -> TestSet:
    """Return ``testset`` with the scores of every file added, one metric per file.

    A file whose scores equal those already loaded under its name (the same file
    given twice, or uploaded again beside the command line's) adds nothing. One
    with other values under a taken name replaces them when its name is in
    ``replace_names`` (the app asks first), and is refused otherwise.

    Raises:
        InputError: a file is refused (see ``read_seg_scores``).
        ScoresNameTaken: a name is taken by other values and not in ``replace_names``.
    """
    for f in files:
        scores = read_seg_scores(f, testset, max_bytes)
        taken = next((s for s in testset.seg_scores if s.name == scores.name), None)
        if taken is not None and taken.same_values(scores):
            continue
        if taken is not None and scores.name not in replace_names:
            raise ScoresNameTaken(scores.name, f.name, taken.origin)
        kept = tuple(s for s in testset.seg_scores if s is not taken)
        testset = replace(testset, seg_scores=(*kept, scores))
    return testset


def file_base_name(origin: str) -> str:
    """The file's name without its folders (``/data/mqm.seg.score`` -> ``mqm.seg.score``).

    Signatures and messages name a file so, as sacrebleu's signature names no path:
    the same scores read from another folder are the same scores.
    """
    return re.split(r"[\\/]", origin)[-1]


def set_directions(
    testset: TestSet, lower_is_better: Sequence[str] = (), higher_is_better: Sequence[str] = ()
) -> TestSet:
    """Return ``testset`` with the named imported metrics' directions set by the user.

    Raises:
        InputError: a name is not an imported metric, or is named both ways.
    """
    both = set(lower_is_better) & set(higher_is_better)
    if both:
        raise InputError(f"--lower-is-better and --higher-is-better both name {sorted(both)[0]!r}")
    for name in (*lower_is_better, *higher_is_better):
        testset.seg_score(name)  # refuses an unknown name
    scores = tuple(
        replace(s, lower_is_better=True)
        if s.name in lower_is_better
        else replace(s, lower_is_better=False)
        if s.name in higher_is_better
        else s
        for s in testset.seg_scores
    )
    return replace(testset, seg_scores=scores)
