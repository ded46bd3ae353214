"""A word-level diff of one system's output against a baseline's, as escaped HTML.

Words are whitespace-separated and aligned by ``difflib.SequenceMatcher`` (Ratcliff
and Obershelp's matching, Python's standard library): words only the other output
has are ``<ins>``, words only the baseline has are ``<del>``. Every word is escaped
(``inert_text``), so markup in the data shows literally.
"""

from __future__ import annotations

from difflib import SequenceMatcher

from bleuviz.render.inert import inert_text

#: How inserted and deleted words look (inline, so the HTML is self-contained).
DIFF_STYLE = (
    "<style>.bv-diff ins{background:#d0ebff;text-decoration:none;border-radius:3px;padding:0 2px}"
    ".bv-diff del{background:#ffe3e3;color:#862e2e;border-radius:3px;padding:0 2px}</style>"
)


def word_diff_html(baseline: str, other: str) -> str:
    """Return ``other`` with its differences from ``baseline`` marked, words escaped."""
    a, b = baseline.split(), other.split()
    parts: list[str] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag == "equal":
            parts += [inert_text(w) for w in b[j1:j2]]
            continue
        parts += [f"<del>{inert_text(w)}</del>" for w in a[i1:i2]]
        parts += [f"<ins>{inert_text(w)}</ins>" for w in b[j1:j2]]
    return f'<div class="bv-diff">{" ".join(parts)}</div>'
