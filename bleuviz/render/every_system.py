"""One segment in every system as a single escaped HTML block.

A page with nine systems drew each system's heading, highlighted line and word
diff as separate elements (27 of them); the browser's cost per element, not the
server, made every interaction on the Sentences page slow. One block holds the
same content. Names and metric labels from the data enter only through
``inert_text``; the lines come already escaped from ``highlight`` and
``word_diff``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bleuviz.render.inert import inert_text

#: The rows' CSS: the app's frame draws it once per page in its style sheet, with the
#: highlight's (a block per segment carried its own copy).
SYSTEM_STYLE = (
    "<style>.bv-system{margin:0.75rem 0 1rem 0}"
    ".bv-system-head{font-size:0.95rem;margin-bottom:0.15rem}"
    ".bv-system-name{font-weight:600}</style>"
)


@dataclass(frozen=True, slots=True)
class SystemLine:
    """One system's row: its name, scores, highlighted output and optional word diff.

    Attributes:
        name: the system's name (from the data: escaped when drawn).
        baseline: whether the word differences are taken against this system.
        scores: ``(label, formatted value)`` pairs, e.g. ``("BLEU", "23.10")``.
        line_html: the highlighted output, already escaped HTML.
        diff_html: the word diff against the baseline (escaped HTML), or None.
    """

    name: str
    baseline: bool
    scores: Sequence[tuple[str, str]]
    line_html: str
    diff_html: str | None


def every_system_html(rows: Sequence[SystemLine]) -> str:
    """Return the rows in order, each a heading ``NAME (baseline) · BLEU x · ...`` and its lines.

    The CSS is ``SYSTEM_STYLE``, drawn apart (once per page).
    """
    parts = []
    for row in rows:
        role = " (baseline)" if row.baseline else ""
        scores = " · ".join(
            f"{inert_text(label)} {inert_text(value)}" for label, value in row.scores
        )
        # A styled span, not <strong>: emphasis tags inside data blocks would look like
        # Markdown from the data that got rendered.
        name = f'<span class="bv-system-name">{inert_text(row.name)}</span>{role}'
        head = f'<div class="bv-system-head">{name} · {scores}</div>'
        diff = row.diff_html or ""
        parts.append(f'<div class="bv-system">{head}{row.line_html}{diff}</div>')
    return "".join(parts)
