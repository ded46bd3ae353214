"""Python's whitespace, written out: what ``str.split()`` splits on.

A module of its own, free of pyarrow, so that chrF's characters
(:mod:`bleuviz.metrics.chrf_columnar`) can drop whitespace without importing the
columnar tokenizers.
"""

from __future__ import annotations

# Every character ``str.isspace()`` accepts in Python 3.11 (what ``str.split()``
# splits on), written out: scanning all of Unicode for them takes 0.3 s, paid
# by every command. tests/bleu/test_columnar_tokenize.py scans and compares.
_PYTHON_WHITESPACE = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004"
    "\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)


def python_whitespace() -> str:
    """Return every character ``str.isspace()`` accepts (what ``str.split()`` splits on)."""
    return _PYTHON_WHITESPACE
