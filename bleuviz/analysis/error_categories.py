"""An error's top-level category: the first level of its MQM category, mapped onto six.

Google's MQM files (google/wmt-mqm-human-evaluation) write a category's levels
with slashes, ``Accuracy/Mistranslation``, ``Locale convention/Currency format``,
``Style/Awkward``; some categories have one level only: ``Other``,
``Non-translation!``, ``Source error``. ESA's ``error_type`` and a metric's spans
may carry other words or none. The analysis groups errors by their first level,
compared case-insensitively, into :data:`TOP_CATEGORIES`:

* ``Non-translation!`` counts as **Accuracy**: Google's MQM guidelines use it for
  an output that is not a translation of the source at all (too unrelated to
  name its errors one by one), which is a failure to carry the source's meaning,
  what Accuracy holds; mt-metrics-eval weighs it as a major accuracy-like error
  (25). Counting it under Other would hide it among miscellany.
* ``Source error`` (an error in the source text, not the translation), an empty
  category and anything unknown count as **Other**.
"""

from __future__ import annotations

ACCURACY = "Accuracy"
FLUENCY = "Fluency"
TERMINOLOGY = "Terminology"
STYLE = "Style"
LOCALE = "Locale convention"
OTHER = "Other"
#: The top-level categories, in the order tables and charts list them.
TOP_CATEGORIES: tuple[str, ...] = (ACCURACY, FLUENCY, TERMINOLOGY, STYLE, LOCALE, OTHER)

_BY_FIRST_LEVEL = {name.casefold(): name for name in TOP_CATEGORIES} | {
    "non-translation!": ACCURACY,
    "non-translation": ACCURACY,
}


def top_category(category: str) -> str:
    """Return the top-level category of ``category`` (its first level; unknown: Other).

    >>> top_category("accuracy/Mistranslation"), top_category("Non-translation!")
    ('Accuracy', 'Accuracy')
    >>> top_category("Source error"), top_category("")
    ('Other', 'Other')
    """
    first = category.split("/", 1)[0].strip().casefold()
    return _BY_FIRST_LEVEL.get(first, OTHER)
