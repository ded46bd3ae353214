"""Frames the pages show: segment tables, documents, buckets, A vs B, salient n-grams."""
