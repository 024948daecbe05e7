"""Metrics: each module computes one family of numbers over DataFrames and dicts.

* :mod:`~mwzrepro.metrics.signature`: sacrebleu-style signatures carried by every number.
* :mod:`~mwzrepro.metrics.bleu`: corpus BLEU with sacrebleu.
"""
