"""chrF++'s words, numbered: split in Python for a small input, by pyarrow for a large one.

sacrebleu 2.6 (``sacrebleu/metrics/chrf.py``, ``CHRF._remove_punctuation``)
splits a line with ``str.split()``; a word longer than one character loses a
trailing punctuation mark (``string.punctuation``, kept in
:mod:`bleuviz.metrics.chrf_punctuation`) as a word of its own, else a leading
one. :func:`python_words` is that loop;
:func:`bleuviz.metrics.chrf_words_columnar.columnar_words` the same rule on
whole columns. The columnar split is faster once pyarrow is imported, but
importing it takes 0.15 s: a one-file ``score -m chrf --chrf-word-order 2`` of
3,000 lines spends less on the Python loop (about 0.03 s more than the columns).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import numpy as np

from bleuviz.metrics.chrf_punctuation import PUNCTUATION
from bleuviz.metrics.ngram_counts import IdStream

#: From this many lines in all, the columnar split pays for importing pyarrow.
COLUMNAR_MIN_LINES = 15_000


def words(streams: Sequence[Sequence[str]]) -> list[IdStream]:
    """Return chrF++'s words of every stream, numbered with one vocabulary.

    Split by pyarrow when it is imported already (the app) or the streams hold
    :data:`COLUMNAR_MIN_LINES` lines; else in Python. Both give the same words.
    """
    if "pyarrow.compute" in sys.modules or sum(map(len, streams)) >= COLUMNAR_MIN_LINES:
        from bleuviz.metrics.chrf_words_columnar import columnar_words

        return columnar_words(streams)
    return python_words(streams)


def python_words(streams: Sequence[Sequence[str]]) -> list[IdStream]:
    """``CHRF._remove_punctuation`` of every line, its words numbered in order of appearance."""
    vocabulary: dict[str, int] = {}
    number = vocabulary.setdefault
    numbered = []
    for lines in streams:
        ids: list[int] = []
        lengths: list[int] = []
        add = ids.append
        for line in lines:
            before = len(ids)
            for word in line.split():
                if len(word) > 1 and word[-1] in PUNCTUATION:  # '(hi)' gives '(hi' and ')'
                    add(number(word[:-1], len(vocabulary)))
                    add(number(word[-1], len(vocabulary)))
                elif len(word) > 1 and word[0] in PUNCTUATION:
                    add(number(word[0], len(vocabulary)))
                    add(number(word[1:], len(vocabulary)))
                else:
                    add(number(word, len(vocabulary)))
            lengths.append(len(ids) - before)
        numbered.append(IdStream(np.array(ids, dtype=np.int64), np.array(lengths, dtype=np.int64)))
    return numbered
