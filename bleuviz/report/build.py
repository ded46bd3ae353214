"""A report gathered: every section's numbers, computed once from one evaluation and options."""

from __future__ import annotations

from dataclasses import dataclass

from bleuviz.metrics.evaluation import Evaluation
from bleuviz.progress import Progress
from bleuviz.report.anatomy import BleuAnatomy, bleu_anatomy
from bleuviz.report.error_spans import ErrorView, error_view
from bleuviz.report.human import HumanView, human_view
from bleuviz.report.options import ReportOptions
from bleuviz.report.ranking import Ranking, rank_systems
from bleuviz.report.segments import HeldSegments, held_segments, pack_segments
from bleuviz.report.versus import BucketView, SalientPair, bucket_views, salient_pairs


@dataclass(frozen=True, slots=True, eq=False)
class Report:
    """Everything the page shows, gathered (``build_report``); ``render_page`` lays it out.

    Attributes:
        options: what it was built with (provenance, notes, limits).
        systems: the systems in load order; n_segments: the test set's segments.
        ranking: scores, CIs, pairs and clusters.
        anatomy: BLEU's parts per system.
        buckets / salient: the first system against each other one.
        human: correlations and disagreements (None: no human score).
        errors: the error spans' breakdown and analysis (None: no spans).
        held: the segments the browser holds; packed: their evidence, packed.
    """

    options: ReportOptions
    systems: tuple[str, ...]
    n_segments: int
    ranking: Ranking
    anatomy: tuple[BleuAnatomy, ...]
    buckets: tuple[BucketView, ...]
    salient: tuple[SalientPair, ...]
    human: HumanView | None
    errors: ErrorView | None
    held: HeldSegments
    packed: str


def build_report(
    evaluation: Evaluation, options: ReportOptions, progress: Progress | None = None
) -> Report:
    """Compute every section of the report of ``evaluation`` (same inputs, same numbers).

    ``progress`` hears each stage as it starts (the app's bar); it changes nothing built.
    """
    say = progress or _quiet
    say("scores and paired tests", 0.0)
    ranking = rank_systems(evaluation, options)
    say("correlations with the human score", 0.3)
    human = human_view(evaluation, options)
    linked = [d.seg - 1 for d in human.disagreements] if human is not None else []
    say("BLEU's anatomy, buckets and n-grams", 0.55)
    held = held_segments(evaluation, options, linked)
    anatomy, buckets, salient = (
        bleu_anatomy(evaluation),
        bucket_views(evaluation),
        salient_pairs(evaluation),
    )
    errors = error_view(evaluation)
    say("every segment's evidence", 0.6)
    packed = pack_segments(evaluation, options, ranking.columns, held)
    return Report(
        options,
        tuple(evaluation.testset.systems),
        evaluation.testset.n_segments,
        ranking,
        anatomy,
        buckets,
        salient,
        human,
        errors,
        held,
        packed,
    )


def _quiet(what: str, fraction: float) -> None:
    """Hear nothing (no progress asked for)."""
