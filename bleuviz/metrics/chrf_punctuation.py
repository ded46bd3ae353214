"""chrF++'s punctuation marks: sacrebleu 2.6's ``CHRF._PUNCTS``.

sacrebleu (``sacrebleu/metrics/chrf.py``) spells out the ASCII punctuation
marks, ``string.punctuation``; ``CHRF._remove_punctuation`` splits one off a
word. Both word splitters read them from here: the Python loop
(:mod:`bleuviz.metrics.chrf_words`) and the columnar one
(:mod:`bleuviz.metrics.chrf_words_columnar`), which the first chooses, so
neither imports the other for them.
"""

from __future__ import annotations

import string

#: sacrebleu's CHRF._PUNCTS: the ASCII punctuation marks, spelled out there.
PUNCTUATION = frozenset(string.punctuation)
