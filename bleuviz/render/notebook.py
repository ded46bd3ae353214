"""bleuviz's results in Jupyter: a segment as the app's highlight, a score as its table.

Jupyter shows an object's ``_repr_html_``. The result types belong to the
scoring core (:mod:`bleuviz.bleu`, :mod:`bleuviz.metrics`), which never
imports this stage, so the public API (``bleuviz.explain_segment``,
``bleuviz.corpus_score``, ``bleuviz.score_metric``: the core's functions, here
``explained_segment``, ``score_table`` and ``metric_table``) returns the subclasses
below: the same frozen values, with the same fields and methods, that also
know how to draw themselves. One deviation: a view is not ``==`` to the
core object it was made from (a dataclass compares classes first).

The HTML is the app's: the highlight is :mod:`bleuviz.render.highlight`'s
(legend, hypothesis, each reference), under the same headings as on the
Sentences page; a score is one row of the Overview's table (a metric's: its
column), its numbers formatted as the app formats them, and the signature.
Text from the data only enters through ``inert_text``, as in the app: markup,
Markdown and LaTeX in a segment show literally, and no script runs.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, ParamSpec, Protocol, Self, TypeVar

from bleuviz.bleu import explain as _explain
from bleuviz.bleu import score as _score
from bleuviz.bleu.explain import SegmentExplanation
from bleuviz.bleu.result import BleuScore
from bleuviz.errors import ConfigError
from bleuviz.metrics import registry as _registry
from bleuviz.metrics.spec import MetricScores
from bleuviz.render.highlight import STYLE, hypothesis_html, legend, reference_html
from bleuviz.render.inert import inert_text
from bleuviz.render.numbers import fixed

#: The app's caption when the tokenizer changed the text (``segment_view.show_segment``).
TOKENS_SHOWN = "The tokenizer changed this text, so its tokens are shown instead of the original."


@dataclass(frozen=True, slots=True)
class Html:
    """A piece of bleuviz's HTML that Jupyter shows as HTML."""

    markup: str

    def _repr_html_(self) -> str:
        return self.markup


@dataclass(frozen=True, slots=True)
class ExplainedSegment(SegmentExplanation):
    """A segment's explanation that Jupyter draws as the app's highlight (order 1)."""

    @classmethod
    def of(cls, explanation: SegmentExplanation) -> Self:
        """Return ``explanation`` as a view (its fields shared, not copied)."""
        return cls(**{f.name: getattr(explanation, f.name) for f in fields(explanation)})

    def highlight(self, order: int = 1) -> Html:
        """Return the highlight of the n-grams of ``order`` (1 to ``max_order``)."""
        if not 1 <= order <= self.max_order:
            raise ConfigError(f"order: {order} is not between 1 and {self.max_order}")
        return Html(segment_html(self, order))

    def _repr_html_(self) -> str:
        return segment_html(self, 1)


@dataclass(frozen=True, slots=True)
class ScoreTable(BleuScore):
    """A BLEU score that Jupyter draws as a row of the app's systems table."""

    @classmethod
    def of(cls, result: BleuScore) -> Self:
        """Return ``result`` as a view."""
        return cls(**{f.name: getattr(result, f.name) for f in fields(result)})

    def _repr_html_(self) -> str:
        return score_html(self)


@dataclass(frozen=True, slots=True)
class MetricTable(MetricScores):
    """A metric's scores of one system that Jupyter draws as its column of the systems table."""

    @classmethod
    def of(cls, result: MetricScores) -> Self:
        """Return ``result`` as a view."""
        return cls(**{f.name: getattr(result, f.name) for f in fields(result)})

    def _repr_html_(self) -> str:
        return metric_html(self)


def segment_html(explanation: SegmentExplanation, order: int) -> str:
    """Return the style sheet, the legend, the hypothesis and each reference highlighted."""
    parts = [STYLE, legend(), "<p><strong>Hypothesis</strong></p>"]
    if explanation.hyp_spans is None:
        parts.append(f"<p><em>{TOKENS_SHOWN}</em></p>")
    parts.append(hypothesis_html(explanation, order))
    for ref in range(len(explanation.ref_texts)):
        heading = f"Reference {ref + 1}</strong>: tokens the hypothesis matched at order {order}"
        parts += [f"<p><strong>{heading}</p>", reference_html(explanation, order, ref)]
    return f'<div class="bv-notebook">{"".join(parts)}</div>'


def score_html(result: BleuScore) -> str:
    """Return the score as the Overview's columns (BLEU, p1..pN, BP, ratio, lengths) and signature.

    The formats are the app's: BLEU with two decimals and BP with three, as
    sacrebleu prints them; precisions with one; the ratio with three.
    """
    cells = {
        "BLEU": fixed(result.score, 2),
        **{f"p{n}": f"{p:.1f}" for n, p in enumerate(result.precisions, start=1)},
        "BP": f"{result.bp:.3f}",
        "ratio": f"{result.ratio:.3f}",
        "hyp_len": f"{result.hyp_len:d}",
        "ref_len": f"{result.ref_len:d}",
    }
    head = "".join(f"<th>{name}</th>" for name in cells)
    row = "".join(f"<td>{value}</td>" for value in cells.values())
    signature = f'<code class="bv-signature">{inert_text(result.signature)}</code>'
    return f"<table><tr>{head}</tr><tr>{row}</tr></table><p>{signature}</p>"


class _View(Protocol):
    """What a view class offers: made from the core object it draws."""

    @classmethod
    def of(cls, value: Any) -> Self: ...


def metric_html(result: MetricScores) -> str:
    """Return the metric's corpus score under its name and direction, and its signature.

    The format is the app's: four decimals on a 0-1 scale (ROUGE F, imported
    scores), else two, as the libraries print them.
    """
    spec = result.spec
    heading = spec.heading()
    direction = "" if spec.higher_is_better else " (lower is better)"
    value = fixed(result.corpus, spec.digits)
    head = f"<th>{inert_text(heading + direction)}</th><th>segments</th>"
    row = f"<td>{value}</td><td>{len(result.sentence):d}</td>"
    signature = f'<code class="bv-signature">{inert_text(result.signature)}</code>'
    return f"<table><tr>{head}</tr><tr>{row}</tr></table><p>{signature}</p>"


P = ParamSpec("P")
V = TypeVar("V", bound=_View)


def _returning(view: type[V], make: Callable[P, Any]) -> Callable[P, V]:
    """Return ``make`` with its result turned into ``view``; same parameters and docstring."""

    @functools.wraps(make)
    def call(*args: P.args, **kwargs: P.kwargs) -> V:
        return view.of(make(*args, **kwargs))

    return call


#: The public API's functions that return results Jupyter draws, named for their views:
#: ``bleuviz/__init__.py`` exports them under the core's names (``bleuviz.explain_segment``
#: is ``explained_segment``), which stay defined once, in the core.
explained_segment = _returning(ExplainedSegment, _explain.explain_segment)
score_table = _returning(ScoreTable, _score.corpus_score)
metric_table = _returning(MetricTable, _registry.score_metric)
