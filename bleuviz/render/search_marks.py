"""Search hits marked in a text: ``<mark>`` around each literal, case-insensitive occurrence.

The text is escaped piece by piece, so markup in the data shows literally and
only the ``<mark>`` tags are HTML.
"""

from __future__ import annotations

from bleuviz.render.inert import inert_text


def mark_hits(text: str, needle: str) -> str:
    """Return ``text`` escaped, with every occurrence of ``needle`` in ``<mark>``.

    Matching is ``str.lower()`` on both sides, as the table's search does; where
    lowercasing changes a string's length (e.g. 'İ'), the text is shown unmarked
    rather than marking the wrong characters.
    """
    query = needle.strip().lower()
    lowered = text.lower()
    if not query or len(lowered) != len(text):
        return inert_text(text)
    parts, start = [], 0
    while (hit := lowered.find(query, start)) >= 0:
        end = hit + len(query)
        parts += [inert_text(text[start:hit]), f"<mark>{inert_text(text[hit:end])}</mark>"]
        start = end
    parts.append(inert_text(text[start:]))
    return "".join(parts)
