"""The ``rouge`` subcommand: ROUGE of plain-text systems against references.

Scores replicate google-research rouge-score 0.1.2 (see :mod:`bleuviz.rouge.score`).
The dispatcher in ``bleuviz.__main__`` wires :func:`add_rouge_parser` in and
turns a raised ``BleuvizError`` into one line on stderr with exit status 2.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bleuviz.errors import InputError
from bleuviz.io.decode import decode_lines, read_path
from bleuviz.io.plain import system_name_from_filename

if TYPE_CHECKING:  # bleuviz.rouge.score imports rouge-score and nltk: about a second at start-up
    from bleuviz.rouge.score import CorpusRouge
    from bleuviz.rouge.stats import RougeScore

DEFAULT_ROUGE_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")


_EPILOG = """\
Files are plain UTF-8 text, one segment per line; every --ref and --hyp file
must have the same number of lines. Several --ref files give several references
per segment: as in rouge-score's score_multi, each type takes the reference
with the highest F-measure (the first one on ties).

Sentence breaks for rougeLsum: inside a line, the two characters \\n (backslash
then n) are read as a newline, i.e. a sentence break, in hypotheses and
references alike, e.g. "The cat sat.\\nIt purred." This happens before
tokenizing, for every type (so "sat.\\nIt" gives the tokens "sat" and "it", not
"nit"). A line without the escape is one sentence, and then rougeLsum equals
rougeL.

Reported scores are the mean over segments of sentence-level precision, recall
and F-measure (no bootstrap aggregation)."""


def add_rouge_parser(commands: Any) -> argparse.ArgumentParser:
    """Add the ``rouge`` subcommand to ``commands`` and return its parser.

    The parser's default ``func`` is :func:`run_rouge`.
    """
    parser: argparse.ArgumentParser = commands.add_parser(
        "rouge",
        help="ROUGE-N/L/Lsum as rouge-score 0.1.2 computes them",
        description="Score systems with ROUGE, equal to google-research rouge-score 0.1.2.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--ref", nargs="+", required=True, metavar="REF", help="reference files")
    parser.add_argument("--hyp", nargs="+", required=True, metavar="HYP", help="system outputs")
    parser.add_argument(
        "--rouge-types",
        nargs="+",
        default=list(DEFAULT_ROUGE_TYPES),
        metavar="TYPE",
        help="rouge1 .. rouge9, rougeL, rougeLsum (default: %(default)s)",
    )
    parser.add_argument(
        "--stemmer", action="store_true", help="Porter-stem tokens longer than 3 characters"
    )
    parser.add_argument(
        "--sentence-level", action="store_true", help="also report every segment's scores"
    )
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.set_defaults(func=run_rouge)
    return parser


def run_rouge(args: argparse.Namespace) -> int:
    """Score every ``--hyp`` file against the ``--ref`` files and print the result.

    Returns:
        0 on success.

    Raises:
        ConfigError: an unknown or duplicate ROUGE type.
        InputError: a file is refused, or the files' line counts differ.
    """
    from bleuviz.rouge.score import RougeConfig, score_corpus

    config = RougeConfig(tuple(args.rouge_types), use_stemmer=args.stemmer)
    refs = [(path, _read_segments(path)) for path in args.ref]
    hyps = [(path, _read_segments(path)) for path in args.hyp]
    counts = [(path, len(lines)) for path, lines in [*refs, *hyps]]
    if len({count for _, count in counts}) > 1:
        listed = "; ".join(f"{path} has {count} lines" for path, count in counts)
        raise InputError(f"line counts differ: {listed}")
    seg_refs = list(zip(*(lines for _, lines in refs), strict=True))
    systems = [
        (system_name_from_filename(path), path, score_corpus(lines, seg_refs, config))
        for path, lines in hyps
    ]
    if args.format == "json":
        print(json.dumps(_json_report(systems, args.sentence_level), indent=2))
    else:
        print("\n".join(_text_report(systems, args.sentence_level)))
    return 0


def _read_segments(path: str) -> tuple[str, ...]:
    """Read a file's lines, turning each escaped ``\\n`` into a sentence break."""
    # Imported here, as the scoring is: rouge-score takes a second to import, and the
    # score and compare commands never need it.
    from bleuviz.rouge.tokenize import SENTENCE_BREAK

    return tuple(line.replace(SENTENCE_BREAK, "\n") for line in decode_lines(read_path(path)))


def _score_dict(score: RougeScore) -> dict[str, float]:
    return {"precision": score.precision, "recall": score.recall, "fmeasure": score.fmeasure}


def _json_report(
    systems: Sequence[tuple[str, str, CorpusRouge]], sentence_level: bool
) -> dict[str, Any]:
    report = []
    for name, path, result in systems:
        entry: dict[str, Any] = {"name": name, "path": path}
        entry.update({t: _score_dict(result.mean(t)) for t in result.rouge_types})
        if sentence_level:
            entry["sentences"] = [
                {t: _score_dict(s) for t, s in result.segment(i).items()}
                for i in range(len(result))
            ]
        report.append(entry)
    return {"systems": report}


def _line(label: str, rouge_type: str, score: RougeScore) -> str:
    p, r, f = score.precision, score.recall, score.fmeasure
    return f"{label} {rouge_type} P={p:.4f} R={r:.4f} F={f:.4f}"


def _text_report(
    systems: Sequence[tuple[str, str, CorpusRouge]], sentence_level: bool
) -> list[str]:
    lines = []
    for name, _, result in systems:
        lines += [_line(name, t, result.mean(t)) for t in result.rouge_types]
        if sentence_level:
            for i in range(len(result)):
                scores = result.segment(i)
                lines += [_line(f"{name} seg={i + 1}", t, s) for t, s in scores.items()]
    return lines
