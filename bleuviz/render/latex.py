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

#: Rows above which a table is a ``longtable`` (a ``tabular`` cannot break across pages).
LONG_ROWS = 40


def escape_latex(text: str) -> str:
    """Escape ``text`` so that LaTeX prints it as written (no command, no math, no comment)."""
    return "".join(_SPECIAL.get(ch, ch) for ch in text)


def bold(cell: str) -> str:
    """A cell in bold (``\\textbf``), e.g. the best score of a column."""
    return f"\\textbf{{{cell}}}"


def booktabs_table(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    align: str,
    comments: Sequence[str] = (),
) -> str:
    """Return a ``tabular`` with ``\\toprule``/``\\midrule``/``\\bottomrule`` (needs booktabs).

    More than ``LONG_ROWS`` rows make a ``longtable`` (needs the longtable
    package) whose header repeats on every page, so a long form breaks across
    pages instead of running off the first. Cells are written as given: escape
    text from the data with ``escape_latex`` first. ``comments`` (e.g. the
    signature) go above as ``%`` lines; a line break inside a comment would end
    it, so breaks become spaces.
    """
    long = len(rows) > LONG_ROWS
    lines = [f"% {' '.join(c.split())}" for c in comments]
    if long:
        lines.append("% needs \\usepackage{booktabs, longtable}")
    head = " & ".join(header) + " \\\\"
    if long:
        lines += [f"\\begin{{longtable}}{{{align}}}", "\\toprule", head, "\\midrule", "\\endhead"]
        lines += ["\\bottomrule", "\\endfoot"]
    else:
        lines += [f"\\begin{{tabular}}{{{align}}}", "\\toprule", head, "\\midrule"]
    lines += [" & ".join(row) + " \\\\" for row in rows]
    if not long:
        lines.append("\\bottomrule")
    lines.append("\\end{longtable}" if long else "\\end{tabular}")
    return "\n".join(lines)
