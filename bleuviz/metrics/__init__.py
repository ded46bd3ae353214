"""Metrics beside BLEU, per segment, in one registry with one result type."""
