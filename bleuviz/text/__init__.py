"""Columnar text helpers and sacrebleu's signature format, shared by the BLEU and chrF replicas."""
