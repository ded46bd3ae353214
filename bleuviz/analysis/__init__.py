"""Frames the pages show: segment tables, documents, buckets, A vs B, salient n-grams."""

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
