"""Names and ids from the data as Markdown that displays literally: escaped, or in a code span.

Streamlit renders labels, captions, messages and table cells as Markdown (and
``$...$`` as LaTeX); a system called ``**best**`` or ``$x$`` must show as written.
"""

from __future__ import annotations

import re


def escape_markdown(text: str) -> str:
    """Backslash-escape every ASCII punctuation character, for Markdown-rendering elements.

    CommonMark lets any ASCII punctuation be escaped, and Streamlit honours
    ``\\$`` for its LaTeX, so names and ids from the data (system names from file
    names, document ids) display literally in labels, tables and messages.

    Escapes cannot stop GFM's autolink literals: remark-gfm finds ``https://``,
    ``www.`` and ``name@host.tld`` in the parsed text, after escapes are undone
    (mdast-util-gfm-autolink-literal). An invisible WORD JOINER (U+2060) is put
    inside each such trigger, so it shows as written but links nowhere.
    """
    unlinked = _AUTOLINK_TRIGGER.sub(WORD_JOINER, text)
    return "".join("\\" + ch if ch in _MARKDOWN_PUNCTUATION else ch for ch in unlinked)


WORD_JOINER = "\u2060"
_MARKDOWN_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
# Positions inside the triggers: before "://", between "www" and ".", after "@".
_AUTOLINK_TRIGGER = re.compile(r"(?=://)|(?<=www)(?=\.)|(?<=@)", re.IGNORECASE)


def code_span(text: str) -> str:
    """Wrap text in a Markdown code span, shown literally (no emphasis, links, LaTeX or autolinks).

    The fence is one backtick longer than the longest run inside (CommonMark 6.1).
    """
    runs = [len(run) for run in re.findall(r"`+", text)]
    fence = "`" * (max(runs, default=0) + 1)
    return f"{fence} {text} {fence}"
