"""What BLEU sees of human errors: are tokens inside error spans flagged more often?

Definitions (issue 31), stated on the page and in ``bleuviz spans --help``:

* A hypothesis token (BLEU's tokenizer, placed in the line as
  ``bleuviz.bleu.spans.align_tokens`` places it) is an **error token** if its
  characters overlap a target-side span (not on the source, not an omission)
  of severity major or minor; otherwise it is an **other token** (tokens under
  neutral spans only are other tokens). Deliberately, ``critical`` (xCOMET's
  worst severity, some campaigns') counts as an error severity too: its tokens
  are no clean baseline. ESA's ``undecided`` (a span whose annotator chose
  neither major nor minor) is counted apart: its own group, listed when some
  token has it, its tokens neither error tokens nor other tokens (they are
  marked, so no clean baseline either), its spans no gold spans of span agreement.
  Every stretch of an error marked in several places (``ErrorSpan.continued``)
  marks error characters.
* A token is **flagged at order n** if no matched n-gram occurrence of order n
  covers it: the highlight's rule (``SegmentExplanation.token_statuses``), see
  :mod:`bleuviz.analysis.token_flags`.
* Per order: error tokens and how many are flagged, other tokens and how many
  are flagged; BLEU "sees" errors when the first rate exceeds the second. By
  severity and by top-level category (:mod:`bleuviz.analysis.error_categories`),
  the error side counts the tokens under a span of that severity or category
  (a token under two spans counts in both groups); the other side is the same
  baseline, the other tokens, for every group.
* **Span agreement** at order n: the runs of consecutive flagged tokens (from
  the first token's first character to the last token's end) are predicted
  spans, the error spans are gold spans, scored by MPP micro-averaged
  (:mod:`bleuviz.analysis.span_agreement`).
* **Several raters**: a token is an error token if any rater marked it, and the
  gold spans are the union of every rater's spans (spans sharing a character
  merged). With ``rater`` given, only that rater's spans count, and only the
  segments that rater rated.
* Only annotated segments count. An annotated segment whose tokens cannot be
  placed in the line (a tokenizer that rewrote characters, lowercasing that
  changed its length) is **unaligned**: counted and listed, left out of the rates.
* ``all`` sums the systems' counts and credits (every system's tokens and spans
  together, micro-averaged).
"""

from __future__ import annotations

from dataclasses import dataclass

from bleuviz.analysis.error_categories import TOP_CATEGORIES
from bleuviz.analysis.error_reports import (
    ALL,
    CRITICAL,
    GOLD_SEVERITIES,
    SEVERITIES,
    ErrorTokenAnalysis,
    ErrorTokenReport,
    OrderCounts,
    SegmentRef,
    SpanAgreement,
)
from bleuviz.analysis.error_tally import SystemTally, tally_system
from bleuviz.analysis.token_flags import token_flags
from bleuviz.bleu.config import BleuConfig
from bleuviz.bleu.references import ReferenceIndex, build_reference_index
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.errors import InputError
from bleuviz.io.error_spans import ErrorAnnotations
from bleuviz.io.testset import TestSet
from bleuviz.parallel import in_order, plan

#: Characters of the systems' lines from which worker processes tally them: the work of
#: a system is its side of BLEU's count (tokens, n-gram look-ups) and the flags, so the
#: pool pays from where BLEU's chunks do (``bleuviz.bleu.chunks.COLUMNAR_PROCESSES_FROM``).
PROCESSES_FROM = 1_500_000

__all__ = [
    "ALL",
    "CRITICAL",
    "GOLD_SEVERITIES",
    "SEVERITIES",
    "ErrorTokenAnalysis",
    "ErrorTokenReport",
    "OrderCounts",
    "SegmentRef",
    "SpanAgreement",
    "shown_categories",
    "what_bleu_sees",
]


def what_bleu_sees(
    testset: TestSet,
    annotations: ErrorAnnotations,
    tokenize: TokenizeConfig,
    config: BleuConfig,
    rater: str | None = None,
    workers: int = 1,
) -> ErrorTokenAnalysis:
    """Compare BLEU's flagged tokens with the error spans of ``annotations``, per system.

    The references are indexed once; each system's tokens are then flagged and
    tallied on their own, so with ``workers`` > 1 and systems of
    ``PROCESSES_FROM`` characters or more, forked worker processes tally them
    (:func:`bleuviz.parallel.in_order`; the command line). The counts are the same.

    Raises:
        InputError: the annotations cover no system of the test set, or a span
            lies outside its line.
    """
    names = [name for name in testset.systems if name in annotations.segments]
    if not names:
        raise InputError(
            f"{annotations.origin}: {annotations.name} annotates no system of the test set"
        )
    refs = build_reference_index(testset.references, tokenize, config.max_order)
    tally = _Tally(testset, annotations, refs, rater)
    characters = sum(len(line) for name in names for line in testset.systems[name])
    context = plan(workers, characters, PROCESSES_FROM)
    tallies = list(in_order(tally, names, workers, context))
    total = SystemTally.total(tallies)
    shown = total.occasional
    return ErrorTokenAnalysis(
        annotations=annotations.name,
        rater=rater,
        max_order=config.max_order,
        systems=tuple(t.report(shown) for t in tallies),
        all=total.report(shown),
        not_annotated=tuple(n for n in testset.systems if n not in annotations.segments),
    )


def shown_categories(
    analysis: ErrorTokenAnalysis, annotations: ErrorAnnotations
) -> tuple[str, ...]:
    """Return the categories given a row: those holding error tokens in the whole analysis.

    None when no span of the file names a category (ESA's ``error_type`` is empty):
    every error would be Other, a row repeating "error tokens".
    """
    named = any(
        span.category
        for segments in annotations.segments.values()
        for a in segments
        if a is not None
        for span in a.spans
    )
    rows = analysis.all.by_category
    return tuple(c for c in TOP_CATEGORIES if named and rows[c] and rows[c][0].error_tokens)


@dataclass(frozen=True, slots=True)
class _Tally:
    """One system's tally against references indexed once (a worker inherits it all)."""

    testset: TestSet
    annotations: ErrorAnnotations
    refs: ReferenceIndex
    rater: str | None

    def __call__(self, name: str) -> SystemTally:
        """Flag ``name``'s tokens and count them against its error spans."""
        lines = self.testset.systems[name]
        flags = token_flags(lines, self.refs)
        return tally_system(name, lines, flags, self.annotations, self.rater)
