"""Frames the pages show: segment tables, documents, buckets, A vs B, salient n-grams."""

from typing import TYPE_CHECKING

from bleuviz.lazy import lazy_exports

if TYPE_CHECKING:
    from bleuviz.analysis.buckets import (
        BUCKET_KINDS,
        TIE_TOLERANCE,
        BucketKind,
        WinTieLoss,
        bucket_table,
        segment_comparison,
        win_tie_loss,
    )
    from bleuviz.analysis.salient import SalientComparison, SalientNgram, match_gaps, salient_ngrams
    from bleuviz.analysis.segments import (
        PREVIEW_CHARS,
        SegmentFilter,
        document_scores,
        filter_mask,
        mean_sentence_bleu,
        segment_table,
        system_scores,
    )

_EXPORTS = {
    "BUCKET_KINDS": "bleuviz.analysis.buckets",
    "TIE_TOLERANCE": "bleuviz.analysis.buckets",
    "BucketKind": "bleuviz.analysis.buckets",
    "WinTieLoss": "bleuviz.analysis.buckets",
    "bucket_table": "bleuviz.analysis.buckets",
    "segment_comparison": "bleuviz.analysis.buckets",
    "win_tie_loss": "bleuviz.analysis.buckets",
    "SalientComparison": "bleuviz.analysis.salient",
    "SalientNgram": "bleuviz.analysis.salient",
    "match_gaps": "bleuviz.analysis.salient",
    "salient_ngrams": "bleuviz.analysis.salient",
    "PREVIEW_CHARS": "bleuviz.analysis.segments",
    "SegmentFilter": "bleuviz.analysis.segments",
    "document_scores": "bleuviz.analysis.segments",
    "filter_mask": "bleuviz.analysis.segments",
    "mean_sentence_bleu": "bleuviz.analysis.segments",
    "segment_table": "bleuviz.analysis.segments",
    "system_scores": "bleuviz.analysis.segments",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
__all__ = [
    "BUCKET_KINDS",
    "PREVIEW_CHARS",
    "TIE_TOLERANCE",
    "BucketKind",
    "SalientComparison",
    "SalientNgram",
    "SegmentFilter",
    "WinTieLoss",
    "bucket_table",
    "document_scores",
    "filter_mask",
    "match_gaps",
    "mean_sentence_bleu",
    "salient_ngrams",
    "segment_comparison",
    "segment_table",
    "system_scores",
    "win_tie_loss",
]
