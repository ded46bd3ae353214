"""Numbers as their libraries print them (a zero never as ``-0.00``), and metrics' names."""

from __future__ import annotations

import math

from bleuviz.metrics import MetricSpec
from bleuviz.render.labels import escape_markdown
from bleuviz.render.numbers import fixed


def fmt_bleu(value: float) -> str:
    """BLEU as sacrebleu prints it: two decimals."""
    return fixed(value, 2)


def fmt_bp(value: float) -> str:
    """BP as sacrebleu prints it: three decimals."""
    return fixed(value, 3)


def fmt_metric(spec: MetricSpec, value: float) -> str:
    """A metric as its library prints it: two decimals, or four for a 0-1 scale (ROUGE,
    imported scores); a dash where a segment has no score."""
    if math.isnan(value):
        return "—"
    return fixed(value, spec.digits)


def number_format(spec: MetricSpec) -> str:
    """The printf format of ``spec``'s values in a table column."""
    return f"%.{spec.digits}f"


def metric_name(spec: MetricSpec) -> str:
    """``spec``'s label for a Markdown-rendering element (a name from the data escaped)."""
    return spec.shown_name(escape_markdown)


def segment_score_title(spec: MetricSpec) -> str:
    """A card's title for one segment's score: "Sentence chrF", "Imported COMET"."""
    return spec.sentence_title(escape_markdown)


def direction_note(spec: MetricSpec) -> str:
    """ " (lower is better)" for error scores, else nothing."""
    return "" if spec.higher_is_better else " (lower is better)"
