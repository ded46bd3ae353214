"""The BLEU flavours: sacrebleu, NLTK and tensorflow/nmt, each a replica in a registry."""
