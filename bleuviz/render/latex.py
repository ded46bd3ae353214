"""Tables as LaTeX (booktabs), ready to paste into a paper; names from the data escaped."""

from __future__ import annotations

from collections.abc import Sequence

# Each LaTeX special character and what prints it literally in text mode.
_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def escape_latex(text: str) -> str:
    """Escape ``text`` so that LaTeX prints it as written (no command, no math, no comment)."""
    return "".join(_SPECIAL.get(ch, ch) for ch in text)


def booktabs_table(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    align: str,
    comments: Sequence[str] = (),
) -> str:
    """Return a ``tabular`` with ``\\toprule``/``\\midrule``/``\\bottomrule`` (needs booktabs).

    Cells are written as given: escape text from the data with ``escape_latex``
    first. ``comments`` (e.g. the signature) go above as ``%`` lines; a line
    break inside a comment would end it, so breaks become spaces.
    """
    lines = [f"% {' '.join(c.split())}" for c in comments]
    lines.append(f"\\begin{{tabular}}{{{align}}}")
    lines.append("\\toprule")
    lines.append(" & ".join(header) + " \\\\")
    lines.append("\\midrule")
    lines += [" & ".join(row) + " \\\\" for row in rows]
    lines.append("\\bottomrule")
    lines.append("\\end{tabular}")
    return "\n".join(lines)
