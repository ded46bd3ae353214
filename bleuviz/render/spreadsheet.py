"""Text cells of a CSV or TSV that a spreadsheet opens as text, never as a formula.

Excel, LibreOffice and Google Sheets evaluate a cell that starts with ``=``,
``+``, ``-`` or ``@`` (and, on import, one that starts with a tab or a carriage
return) as a formula: a note or a system name such as ``=HYPERLINK(...)`` would
run in the reader's spreadsheet. OWASP's "CSV Injection" page recommends
prefixing such a cell with a single quote, which the spreadsheet shows as
text; quoting the field itself is the csv writer's job.

Only text is neutralised. Numbers are written as numbers (a negative score stays
``-0.5``), and so is a text cell that is a plain decimal number (``-3``,
``+1.5e-2``): a spreadsheet reads it as that number, never as a formula, and a
quote would turn it into text.
"""

from __future__ import annotations

import re

#: The leading characters that make a spreadsheet read a cell as a formula (OWASP).
FORMULA_LEADERS = ("=", "+", "-", "@", "\t", "\r")
#: A plain ASCII decimal number: read as a number, not a formula (``\d`` would take
#: other scripts' digits, ``-٣``, which a spreadsheet does not read as a number).
_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def inert_cell(value: object) -> object:
    """Return ``value`` for a CSV/TSV cell: text starting a formula gets a leading ``'``.

    Anything that is not a ``str`` (numbers, None) is returned as it is.
    """
    if not isinstance(value, str) or not value.startswith(FORMULA_LEADERS):
        return value
    if _NUMBER.fullmatch(value):
        return value
    return "'" + value
