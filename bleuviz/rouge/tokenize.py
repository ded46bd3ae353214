"""Tokenize a text for ROUGE once, line by line, with rouge-score's own tokenizer.

Tokens come from rouge-score 0.1.2's ``DefaultTokenizer`` (a runtime dependency),
so they equal ``RougeScorer``'s. Deliberate deviations (none changes a number):

* A text is tokenized once, line by line; the whole-text tokens (rougeN,
  rougeL) are the concatenation of the line tokens. rouge-score tokenizes the
  text again as a whole, with the same result since ``"\\n"`` separates tokens.
* rougeLsum splits on ``"\\n"`` and drops empty lines, as rouge-score does with
  its default ``split_summaries=False``; the nltk splitter is not offered.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from typing import Any

from bleuviz.errors import InputError

#: How a sentence break is written inside a one-line segment: the two characters backslash and n.
SENTENCE_BREAK = "\\n"


@dataclass(frozen=True, slots=True)
class TokenizedText:
    """A text tokenized once by rouge-score's ``DefaultTokenizer``.

    Attributes:
        sentences: tokens of each rougeLsum sentence: of each non-empty line of
            the text split on ``"\\n"`` (a line of only punctuation has no tokens).
        tokens: tokens of the whole text, used by rougeN and rougeL.
    """

    sentences: tuple[tuple[str, ...], ...]
    tokens: tuple[str, ...]


@functools.lru_cache(maxsize=2)
def _tokenizer(use_stemmer: bool) -> Any:
    # Imported here: rouge_score imports nltk, which imports scipy (about a
    # second), and the command line loads this module without scoring ROUGE.
    from rouge_score import tokenizers

    return tokenizers.DefaultTokenizer(use_stemmer=use_stemmer)


def tokenize(text: str, use_stemmer: bool = False) -> TokenizedText:
    """Tokenize ``text`` line by line with rouge-score's own tokenizer.

    Raises:
        InputError: ``text`` is not a string.
    """
    if not isinstance(text, str):
        raise InputError(f"text: expected a string, got {type(text).__name__}")
    tokenizer = _tokenizer(use_stemmer)
    sentences = tuple(tuple(tokenizer.tokenize(line)) for line in text.split("\n") if line)
    return TokenizedText(sentences, tuple(itertools.chain.from_iterable(sentences)))
