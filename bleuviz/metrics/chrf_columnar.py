"""chrF and chrF++ segment statistics from whole columns, equal to sacrebleu 2.6's ``CHRF``.

sacrebleu (``sacrebleu/metrics/chrf.py``, ``helpers.extract_all_char_ngrams``,
``extract_word_ngrams``) builds a ``Counter`` of string n-grams per line. Here:

* characters: all lines are joined and read as UTF-32 code points; Python's
  whitespace (``str.split()``'s, which sacrebleu's ``''.join(line.split())``
  removes) is dropped with a lookup table; the code point is the id.
* words (chrF++): ``str.split()`` by the columnar splitter of
  ``bleuviz.bleu.columnar``, then ``CHRF._remove_punctuation`` with pyarrow
  kernels (a word longer than one character loses a trailing ASCII punctuation
  mark, else a leading one, as a separate word), numbered by ``dictionary_encode``.
  sacrebleu joins a bigram's words with a space; words hold no whitespace, so the
  pair of ids is the same n-gram.
* counting: :func:`bleuviz.metrics.ngram_counts.match_statistics`.

With several references sacrebleu keeps, per segment, the statistics of the
first reference with the highest chrF (``_compute_segment_statistics``, strict
``>``); so does :func:`chrf_statistics`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from bleuviz.arrays import IntArray
from bleuviz.bleu.columnar import python_whitespace, tokenize_none
from bleuviz.metrics.chrf_score import ChrfConfig, f_scores
from bleuviz.metrics.ngram_counts import IdStream, match_statistics

#: One more than the largest code point: the radix of character n-gram keys.
_CODE_POINTS = 0x110000
#: sacrebleu's CHRF._PUNCTS (string.punctuation).
_PUNCTS = list("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def chrf_statistics(
    hyps: Sequence[str], references: Sequence[Sequence[str]], config: ChrfConfig
) -> IntArray:
    """Return (N, 3 * order) statistics per segment, as ``CHRF._extract_corpus_statistics``.

    ``references`` are streams as long as ``hyps`` (checked by the caller).
    """
    if config.lowercase:
        hyps = [line.lower() for line in hyps]
        references = [[line.lower() for line in stream] for stream in references]
    best = _one_reference(hyps, references[0], config)
    best_f = f_scores(best, config.beta)
    for stream in references[1:]:
        stats = _one_reference(hyps, stream, config)
        f = f_scores(stats, config.beta)
        better = f > best_f  # sacrebleu: the first reference of the highest score wins
        best[better] = stats[better]
        best_f = np.where(better, f, best_f)
    return best


def _one_reference(hyps: Sequence[str], refs: Sequence[str], config: ChrfConfig) -> IntArray:
    """Statistics of ``hyps`` against one reference stream (lowercased already)."""
    parts = []
    if config.char_order:
        chars = match_statistics(
            _characters(hyps), _characters(refs), _CODE_POINTS, config.char_order
        )
        parts.append(chars.reshape(len(hyps), -1))
    if config.word_order:
        hyp_words, ref_words = _words([hyps, refs])
        radix = int(max(hyp_words.ids.max(initial=0), ref_words.ids.max(initial=0))) + 1
        words = match_statistics(hyp_words, ref_words, radix, config.word_order)
        parts.append(words.reshape(len(hyps), -1))
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
    points = np.frombuffer(text, dtype=np.uint32).astype(np.int64)
    lengths = np.fromiter(map(len, lines), dtype=np.int64, count=len(lines))
    keep = ~_whitespace_table()[points]
    line = np.repeat(np.arange(len(lines), dtype=np.int64), lengths)
    kept = np.bincount(line[keep], minlength=len(lines)).astype(np.int64)
    return IdStream(points[keep], kept)


def _words(streams: Sequence[Sequence[str]]) -> list[IdStream]:
    """chrF++'s words of every stream, numbered with one vocabulary."""
    pieces, lengths = [], []
    for lines in streams:
        column = tokenize_none(pa.array(lines, pa.large_string()))
        words, per_token = _remove_punctuation(column.tokens)
        bounds = np.concatenate([[0], np.cumsum(per_token, dtype=np.int64)])
        pieces.append(words)
        lengths.append(np.diff(bounds[column.offsets]))
    encoded = pa.chunked_array(pieces, pa.large_string()).combine_chunks().dictionary_encode()
    ids = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    cuts = np.cumsum([len(p) for p in pieces])[:-1]
    return [IdStream(part, n) for part, n in zip(np.split(ids, cuts), lengths, strict=True)]


def _remove_punctuation(tokens: pa.Array) -> tuple[pa.Array, IntArray]:
    """Apply ``CHRF._remove_punctuation`` to every word: the words, and pieces per word.

    sacrebleu: a one-character word stays; else a trailing punctuation mark is
    split off (``'(hi)'`` gives ``'(hi'`` and ``')'``, its issue #124), else a
    leading one.
    """
    long = pc.greater(pc.utf8_length(tokens), 1)
    last = pc.utf8_slice_codeunits(tokens, -1)
    first = pc.utf8_slice_codeunits(tokens, 0, 1)
    split_last = pc.and_(long, pc.is_in(last, pa.array(_PUNCTS, tokens.type)))
    split_first = pc.and_(
        pc.and_(long, pc.invert(split_last)), pc.is_in(first, pa.array(_PUNCTS, tokens.type))
    )
    head = pc.if_else(
        split_last,
        pc.utf8_slice_codeunits(tokens, 0, -1),
        pc.if_else(split_first, first, tokens),
    )
    tail = pc.if_else(split_last, last, pc.utf8_slice_codeunits(tokens, 1))
    two = pc.or_(split_last, split_first).to_numpy(zero_copy_only=False)
    per_token = 1 + two.astype(np.int64)
    # Interleave head and tail per word, then keep the tails of split words only.
    order = np.empty(2 * len(tokens), dtype=np.int64)
    order[0::2] = np.arange(len(tokens))
    order[1::2] = np.arange(len(tokens)) + len(tokens)
    keep = np.ones(2 * len(tokens), dtype=bool)
    keep[1::2] = two
    both = pa.concat_arrays([head, tail])
    return both.take(pa.array(order[keep])), per_token
