"""chrF and chrF++ segment statistics from whole columns, equal to sacrebleu 2.6's ``CHRF``.

sacrebleu (``sacrebleu/metrics/chrf.py``, ``helpers.extract_all_char_ngrams``,
``extract_word_ngrams``) builds a ``Counter`` of string n-grams per line. Here:

* characters: all lines are joined and read as UTF-32 code points; Python's
  whitespace (``str.split()``'s, which sacrebleu's ``''.join(line.split())``
  removes) is dropped with a lookup table; the code point is the id.
* words (chrF++): :func:`bleuviz.metrics.chrf_words.words`, imported only when
  a word order is asked for (a large input's words need pyarrow, which chrF
  alone does not).
* counting: :func:`bleuviz.metrics.ngram_counts.match_statistics`.

With several references sacrebleu keeps, per segment, the statistics of the
first reference with the highest chrF (``_compute_segment_statistics``, strict
``>``); so does :func:`chrf_statistics`. Several systems of one test set share
their references' preparation (:func:`prepare_references`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from bleuviz.arrays import IntArray
from bleuviz.metrics.chrf_score import ChrfConfig, f_scores
from bleuviz.metrics.ngram_counts import IdStream, match_statistics
from bleuviz.text.whitespace import python_whitespace

#: One more than the largest code point.
_CODE_POINTS = 0x110000


@dataclass(frozen=True, slots=True, eq=False)
class PreparedReferences:
    """Reference streams made ready once for any number of systems.

    Attributes:
        streams: every stream's lines (lowercased with ``ChrfConfig.lowercase``).
        characters: every stream's characters (None without character orders).
    """

    streams: tuple[Sequence[str], ...]
    characters: tuple[IdStream | None, ...]


def prepare_references(
    references: Sequence[Sequence[str]], config: ChrfConfig
) -> PreparedReferences:
    """Lowercase the reference streams if ``config`` says so, and read their characters."""
    if config.lowercase:
        references = [[line.lower() for line in stream] for stream in references]
    chars = [_characters(stream) if config.char_order else None for stream in references]
    return PreparedReferences(tuple(references), tuple(chars))


def chrf_statistics(
    hyps: Sequence[str],
    references: Sequence[Sequence[str]] | PreparedReferences,
    config: ChrfConfig,
    workers: int = 1,
) -> IntArray:
    """Return (N, 3 * order) statistics per segment, as ``CHRF._extract_corpus_statistics``.

    ``references`` are streams as long as ``hyps`` (checked by the caller), or
    those prepared by :func:`prepare_references` with the same ``config``.
    ``workers`` threads count the n-grams.
    """
    if not isinstance(references, PreparedReferences):
        references = prepare_references(references, config)
    if config.lowercase:
        hyps = [line.lower() for line in hyps]
    # The hypothesis's characters serve every reference.
    hyp_chars = _characters(hyps) if config.char_order else None
    first, *others = zip(references.streams, references.characters, strict=True)
    best = _one_reference(hyps, hyp_chars, *first, config, workers)
    best_f = f_scores(best, config.beta)
    for stream, chars in others:
        stats = _one_reference(hyps, hyp_chars, stream, chars, config, workers)
        f = f_scores(stats, config.beta)
        better = f > best_f  # sacrebleu: the first reference of the highest score wins
        best[better] = stats[better]
        best_f = np.where(better, f, best_f)
    return best


def _one_reference(
    hyps: Sequence[str],
    hyp_chars: IdStream | None,
    refs: Sequence[str],
    ref_chars: IdStream | None,
    config: ChrfConfig,
    workers: int,
) -> IntArray:
    """Statistics of ``hyps`` against one reference stream (both lowercased already)."""
    parts = []
    if hyp_chars is not None and ref_chars is not None:
        chars = match_statistics(hyp_chars, ref_chars, config.char_order, workers)
        parts.append(chars.reshape(len(hyps), 3 * config.char_order))
    if config.word_order:
        # Imported here: chrF needs no words, so a chrF command never loads their modules.
        from bleuviz.metrics.chrf_words import words

        hyp_words, ref_words = words([hyps, refs])
        counts = match_statistics(hyp_words, ref_words, config.word_order, workers)
        parts.append(counts.reshape(len(hyps), 3 * config.word_order))
    return np.concatenate(parts, axis=1)


@cache
def _whitespace_table() -> np.ndarray:
    """A boolean per code point: whether ``str.split()`` splits on it."""
    table = np.zeros(_CODE_POINTS, dtype=bool)
    table[[ord(c) for c in python_whitespace()]] = True
    return table


def _characters(lines: Sequence[str]) -> IdStream:
    """Every line's non-whitespace code points (``''.join(line.split())``)."""
    text = "".join(lines).encode("utf-32-le", "surrogatepass")
    points = np.frombuffer(text, dtype=np.uint32)
    space = _whitespace_table()[points]
    # Characters kept per line: its length less its whitespace, each space placed
    # in its line by the line ends (a search per space, not a count per character).
    lengths = np.fromiter(map(len, lines), dtype=np.int64, count=len(lines))
    line_of_space = np.searchsorted(np.cumsum(lengths), np.flatnonzero(space), side="right")
    kept = lengths - np.bincount(line_of_space, minlength=len(lines))
    return IdStream(points[~space].astype(np.int64), kept)
