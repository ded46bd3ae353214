"""Text fields with ``<v>`` marks, as Google's MQM TSV writes them, matched to a line.

A marked field is the annotated text with each error's characters between
``<v>`` and ``</v>``. :func:`unmark` removes the marks and returns the marked
stretches as offsets into the text without them; :func:`text_on_line` reads a
field onto the test set's line, trying the readings a published file may need
(as written, CSV-quoted, padded with white space); :func:`difference` shows
where a field and its line part, for a refusal.
"""

from __future__ import annotations

OPEN, CLOSE = "<v>", "</v>"


class BadMarks(ValueError):
    """Marks that do not pair up (the reader turns it into an InputError naming file and line)."""


def unmark(text: str) -> tuple[str, tuple[tuple[int, int], ...]]:
    """Remove the ``<v>…</v>`` marks of ``text``; return it and the marked stretches.

    Offsets are into the text without marks, end exclusive.

    Raises:
        BadMarks: a ``</v>`` without ``<v>``, or a ``<v>`` inside another (a last
            ``<v>`` never closed runs to the end of the text).
    """
    if "<" not in text:
        return text, ()
    parts: list[str] = []
    spans: list[tuple[int, int]] = []
    pos = length = 0
    while (opened := text.find(OPEN, pos)) != -1:
        closed = text.find(CLOSE, pos)
        if closed != -1 and closed < opened:
            raise BadMarks(f"{CLOSE} at character {closed + 1} closes no {OPEN}")
        closed = text.find(CLOSE, opened + len(OPEN))
        if closed == -1:  # the published TED en-de file's line 6444: runs to the end
            closed = len(text)
        inner = text.find(OPEN, opened + len(OPEN))
        if inner != -1 and inner < closed:
            raise BadMarks(f"{OPEN} at character {inner + 1} is inside another {OPEN}")
        parts += (text[pos:opened], text[opened + len(OPEN) : closed])
        start = length + opened - pos
        length = start + closed - opened - len(OPEN)
        spans.append((start, length))
        pos = min(closed + len(CLOSE), len(text))
    stray = text.find(CLOSE, pos)
    if stray != -1:
        raise BadMarks(f"{CLOSE} at character {stray + 1} closes no {OPEN}")
    parts.append(text[pos:])
    return "".join(parts), tuple(spans)


def text_on_line(field_text: str, line: str | None) -> tuple[str, tuple[tuple[int, int], ...]]:
    """Return a text field without marks, as it is on ``line`` where one reading matches.

    Tried in order: the field as written, then CSV-unquoted; each as is, then
    stripped of surrounding white space with offsets shifted onto ``line``. With
    ``line`` None (nothing to compare with) the field as written is taken.

    Raises:
        BadMarks: the marks of the reading tried do not pair up.
    """
    if "<" not in field_text and field_text == line:  # the common case, first
        return field_text, ()
    readings = _readings(field_text)
    for candidate in readings:
        text, marks = unmark(candidate)
        if line is None or text == line:
            return text, marks
        if text.strip() == line.strip():
            shift = (len(line) - len(line.lstrip())) - (len(text) - len(text.lstrip()))
            return line, tuple(
                (min(max(s + shift, 0), len(line)), min(max(e + shift, 0), len(line)))
                for s, e in marks
            )
    return unmark(readings[0])  # no reading matches: the caller names both texts


def _readings(text: str) -> tuple[str, ...]:
    """Return the field as written, and CSV-unquoted when it is quoted (``"a ""b"" c"``)."""
    if len(text) >= 2 and text[0] == '"' and text[-1] == '"':
        inner = text[1:-1]
        if '"' not in inner.replace('""', ""):
            return text, inner.replace('""', '"')
    return (text,)


def difference(annotated: str, hypothesis: str, width: int = 60) -> str:
    """Show both texts around their first difference, quoted."""
    at = next(
        (i for i, (a, b) in enumerate(zip(annotated, hypothesis, strict=False)) if a != b),
        min(len(annotated), len(hypothesis)),
    )
    begin = max(at - width // 3, 0)

    def clip(text: str) -> str:
        shown = text[begin : begin + width]
        return ("…" if begin else "") + repr(shown) + ("…" if begin + width < len(text) else "")

    return f"annotated {clip(annotated)} vs hypothesis {clip(hypothesis)} (character {at + 1})"
