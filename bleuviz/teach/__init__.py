"""The Learn page's computations and texts: BLEU step by step and the flavours compared."""
