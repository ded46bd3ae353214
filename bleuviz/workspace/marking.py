"""Marking a note's erroneous words: the words a line offers, and their character span.

A note marks one error, so it marks one run of the hypothesis's characters.
The editor offers the line's words to choose from: runs of letters and digits
(apostrophes and hyphens inside a word keep it whole), each other visible
character alone (punctuation, as sacrebleu's 13a tokenizer mostly splits it),
and each CJK ideograph, kana or Hangul syllable alone (those scripts do not put
spaces between words). Unlike BLEU's own tokens, these are always substrings
of the line, so a choice is always a character span. The span runs from the
first chosen word's start to the last one's end: words left out between them
are marked too (the editor shows the marked text before it is saved).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

Span = tuple[int, int]

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_WORD = re.compile(rf"[{_CJK}]|(?:(?![{_CJK}])[\w])+(?:['’\-](?:(?![{_CJK}])[\w])+)*|[^\s]")


def markable_words(line: str) -> tuple[Span, ...]:
    """Return the (start, end) of each word the editor offers in ``line``, left to right."""
    return tuple(m.span() for m in _WORD.finditer(line))


def span_of_words(words: Sequence[Span], chosen: Collection[int]) -> Span | None:
    """Return the span from the first chosen word to the last (indices into ``words``)."""
    if not chosen:
        return None
    return words[min(chosen)][0], words[max(chosen)][1]


def words_in_span(words: Sequence[Span], span: Span | None) -> list[int]:
    """Return the indices of the words ``span`` overlaps (how the editor shows a saved span)."""
    if span is None:
        return []
    start, end = span
    return [k for k, (s, e) in enumerate(words) if s < end and start < e]
