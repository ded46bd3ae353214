"""A ``TestSet`` to BLEU: tokens, n-gram ids, reference index, segment statistics, scores."""
