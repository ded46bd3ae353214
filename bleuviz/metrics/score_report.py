"""What the command line's ``score`` prints of one metric for one system, as plain values.

``MetricSpec.score_report`` makes one: each metric says how sacrebleu (or the
library it replicates) reports its corpus score, so ``score`` loops over the
chosen metrics without asking which one it holds. The values are plain (text,
numbers, dicts): the JSON and LaTeX writers live above the metrics
(:mod:`bleuviz.render`), and the command writes them.

sacrebleu's formats (``sacrebleu.metrics.base.Score.format``): the text line is
``name = score`` and whatever the metric adds (BLEU's precisions, brevity penalty
and lengths); with ``--confidence`` the bootstrap mean and CI follow the score,
``BLEU = 45.28 (μ = 45.27 ± 3.99) 88.5/...``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from bleuviz.arrays import FloatArray

#: Segments turned into Python objects at a time when sentence scores are written.
CHUNK = 1 << 16


@dataclass(frozen=True, slots=True)
class ScoreReport:
    """One metric's corpus score of one system, as ``score`` writes it in text, JSON, LaTeX.

    Attributes:
        name: the name printed before the score (sacrebleu's ``chrF2``, ``BLEU``).
        score: the corpus score.
        digits: its decimals.
        line: the text line, ``name = score`` first (sacrebleu's ``Score.format()``).
        fields: the JSON fields, in order, the signature among them.
        listed: whether JSON lists the fields under the system's ``metrics``; False
            puts them at the top of the system's object (sacrebleu's BLEU JSON, which
            bleuviz's first ``score`` wrote and scripts read).
        signature: the signature (with the bootstrap's fields once ``with_ci``).
        signature_prefix: what the signature line starts with (``chrF2|``; BLEU's
            signature line is sacrebleu's signature alone).
        columns: the LaTeX table's (heading, cell) pairs as plain text, the score's first.
        sentences: makes each segment's JSON item (a score, or BLEU's dict) when called,
            ``CHUNK`` segments at a time, so that they never all sit in memory.
        ci: the bootstrap mean and half-width, once ``with_ci`` gave them.
    """

    name: str
    score: float
    digits: int
    line: str
    fields: Mapping[str, Any]
    listed: bool
    signature: str
    signature_prefix: str
    columns: tuple[tuple[str, str], ...]
    sentences: Callable[[], Iterator[Any]]
    ci: tuple[float, float] | None = None

    @property
    def signature_line(self) -> str:
        """The line that closes the text output (and the LaTeX table's comment)."""
        return self.signature_prefix + self.signature

    def with_ci(self, mean: float, ci: float, signature: str) -> ScoreReport:
        """Return the report with ``--confidence``'s bootstrap mean, CI and signature.

        The mean and CI follow the score on the text line, as sacrebleu's
        ``Score.format`` writes them, and join the JSON fields; the signature
        (with its ``bs``/``seed`` fields) replaces the plain one in place.
        """
        head = f"{self.name} = {self.score:.{self.digits}f}"
        shown = f"{head} (μ = {mean:.{self.digits}f} ± {ci:.{self.digits}f})"
        return replace(
            self,
            line=self.line.replace(head, shown, 1),
            fields={**self.fields, "mean": mean, "ci": ci, "signature": signature},
            signature=signature,
            ci=(mean, ci),
        )


def in_chunks(values: FloatArray) -> Iterator[float]:
    """Yield the values as Python floats, converted ``CHUNK`` at a time."""
    for start in range(0, len(values), CHUNK):
        yield from values[start : start + CHUNK].tolist()
