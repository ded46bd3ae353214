"""Text from the data as HTML that neither HTML nor Markdown can read as markup.

The app shows its highlighted segments through Streamlit's Markdown element
with raw HTML allowed (``bleuviz.app.ui.widgets.markup.show_html``): the ``st.html`` element is a
component the browser loads on demand, and on a page opened from a link it
appeared about 0.4 s after Markdown would have. Markdown asks more of the
escaping than HTML does, so text from the data goes through ``inert_text``,
which writes every ASCII punctuation mark and line break as a numeric character
reference (``<`` -> ``&#60;``, ``*`` -> ``&#42;``, a newline -> ``&#10;``):

- no tag, attribute or entity can come from the data (``<``, ``>``, ``&``, the
  quotes are among them), as with ``html.escape``;
- the Markdown source holds none of these characters from the data, so no
  emphasis, code, link, table, LaTeX ``$``, ``:emoji:`` or ``:material/``
  shortcode can start there, and the data cannot end the HTML block (CommonMark
  ends one at a blank line) to get back into Markdown.

The HTML parser turns the references back into the same characters: what shows
is exactly the text.

Plotly figures take the same text. Plotly.js draws every string (trace names,
axis titles, category ticks, hovers) through ``svg_text_utils.convertToTspans``,
which renders ``<b>``, ``<i>``, ``<br>``, ``<a href>`` and decodes character
references, and a hover template fills in ``%{...}``: with every punctuation
mark a numeric reference, a name starts no tag and no template field, and
Plotly decodes it to the name as written. (``$...$`` would be LaTeX only with
MathJax, which Streamlit does not load.)
"""

from __future__ import annotations

import string

#: ASCII punctuation and line breaks -> numeric character references, in one pass.
_REFERENCES = {ord(c): f"&#{ord(c)};" for c in string.punctuation + "\n\r"}


def inert_text(text: str) -> str:
    """Return ``text`` as HTML text or attribute value, shown literally, inert to Markdown."""
    return text.translate(_REFERENCES)
