"""ROUGE as google-research rouge-score computes it: tokenize, statistics, score, explain."""
