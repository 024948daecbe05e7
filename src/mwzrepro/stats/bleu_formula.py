"""Corpus BLEU from summed sufficient statistics, vectorized over bootstrap resamples:
sacrebleu's ``compute_bleu`` (exp smoothing, 4-grams, no effective order: the settings of
spec-standard-evaluation §11 and :mod:`mwzrepro.bleu.score`). Used by the per-dialogue
statistics (:mod:`mwzrepro.stats.units`, :mod:`mwzrepro.stats.bleu_stats`).

    >>> import numpy as np
    >>> from sacrebleu.metrics import BLEU
    >>> s = np.array([[10, 12, 8, 5, 3, 1, 10, 9, 8, 7]])
    >>> ref = BLEU()._compute_score_from_stats(s[0].tolist()).score
    >>> bool(abs(bleu_from_statistics(s)[0] - ref) < 1e-12)
    True
"""

from __future__ import annotations

import numpy as np

from mwzrepro.core.errors import InputError

__all__ = ["bleu_from_statistics", "MAX_ORDER"]

#: n-gram order of the pipeline's BLEU (sacrebleu default).
MAX_ORDER = 4

#: sacrebleu's floor for log(0) (``sacrebleu.utils.my_log``).
_LOG_ZERO = -9999999999.0


def bleu_from_statistics(summed: np.ndarray) -> np.ndarray:
    """Corpus BLEU (0–100) of each row of summed statistics, shape (B, 10) → (B,).

    Mirrors ``sacrebleu.metrics.BLEU.compute_bleu`` with ``smooth_method="exp"``: brevity
    penalty e^{1 − r/c} when c < r (0 when c = 0); precision 100·m_n/t_n; a zero match count
    at order n gets 100 / (2^k · t_n) for its k-th zero; orders after the first with t_n = 0
    contribute log 0 (sacrebleu's floor); no match at all gives 0. Rows agree with sacrebleu
    to rounding of the last bit (numpy's log/exp).
    """
    s = np.asarray(summed, dtype=np.float64)
    if s.ndim != 2 or s.shape[1] != 2 + 2 * MAX_ORDER:
        raise InputError(f"BLEU statistics must have shape (B, {2 + 2 * MAX_ORDER}), "
                         f"got {s.shape}")
    sys_len, ref_len = s[:, 0], s[:, 1]
    correct, total = s[:, 2:2 + MAX_ORDER], s[:, 2 + MAX_ORDER:]
    with np.errstate(divide="ignore", invalid="ignore"):
        bp = np.where(sys_len < ref_len,
                      np.where(sys_len > 0, np.exp(1 - ref_len / np.where(sys_len > 0,
                                                                          sys_len, 1.0)), 0.0),
                      1.0)
        logs = np.zeros_like(sys_len)
        smooth = np.ones_like(sys_len)
        stopped = np.zeros(len(s), dtype=bool)
        for n in range(MAX_ORDER):
            stopped |= total[:, n] == 0
            zero = correct[:, n] == 0
            smooth = np.where(~stopped & zero, smooth * 2, smooth)
            safe_total = np.where(total[:, n] > 0, total[:, n], 1.0)
            prec = np.where(zero, 100.0 / (smooth * safe_total), 100.0 * correct[:, n] / safe_total)
            prec = np.where(stopped, 0.0, prec)
            logs = logs + np.where(prec > 0, np.log(np.where(prec > 0, prec, 1.0)), _LOG_ZERO)
        score = bp * np.exp(logs / MAX_ORDER)
    return np.where(correct.sum(axis=1) == 0, 0.0, score)
