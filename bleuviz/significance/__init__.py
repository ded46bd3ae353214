"""Paired significance tests over summed statistics, as sacrebleu runs them."""
