"""Map tokens back to character spans of the text the user wrote.

sacrebleu's 13a tokenizer mostly inserts spaces around punctuation, so each
token is usually a substring of the original line. Where the tokenizer rewrote
characters (13a turns ``&quot;`` into ``"``, ``char`` splits every character,
lowercasing may change a string's length), alignment fails and the app shows
the tokenized text instead, saying so.
"""

from __future__ import annotations

from collections.abc import Sequence

Span = tuple[int, int]


def align_tokens(
    text: str, tokens: Sequence[str], lowercase: bool = False
) -> tuple[Span, ...] | None:
    """Return each token's (start, end) in ``text``, or None if some token is not found in order.

    Tokens must appear left to right, separated only by whitespace or adjacent;
    anything else the tokenizer dropped makes the alignment fail.
    """
    haystack = text.lower() if lowercase else text
    if len(haystack) != len(text):
        return None
    spans: list[Span] = []
    cursor = 0
    for token in tokens:
        while cursor < len(haystack) and haystack[cursor].isspace():
            cursor += 1
        if not haystack.startswith(token, cursor):
            return None
        spans.append((cursor, cursor + len(token)))
        cursor += len(token)
    if haystack[cursor:].strip():
        return None
    return tuple(spans)
