"""Paired significance tests between systems on shared bootstrap resamples.

For systems A and B scored on the same resamples (:class:`mwzrepro.stats.bootstrap.Resampler`)
the paired differences δ*_b = A*_b − B*_b estimate the sampling distribution of the observed
difference δ = A − B. Two two-sided p-values (``stats.pvalue``):

* ``normal``: p = erfc(|δ| / (√2 · se)), se the standard deviation of δ*_b (a Wald test
  with the bootstrap standard error; Efron & Tibshirani 1993, §16.4). Resolution is not
  limited by B.
* ``empirical``: the shifted-bootstrap null δ*_b − mean(δ*) (Koehn 2004; sacrebleu's
  ``paired_bs`` shifts the same way): p = (1 + #{|δ*_b − mean| ≥ |δ|}) / (B + 1).

A family of tests (every pair of systems of one metric, or the adjacent pairs of one ranking)
is corrected with Holm's step-down procedure (Holm 1979), Bonferroni, or not at all; a pair
is significant when its corrected p-value is below ``stats.alpha``.

Example:
    >>> holm([0.01, 0.04, 0.03, 0.005])
    [0.03, 0.06, 0.06, 0.02]
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass

import numpy as np

from mwzrepro.core.errors import ConfigError
from mwzrepro.stats.bootstrap import Replicates, percentile_interval
from mwzrepro.stats.params import StatsParams

__all__ = ["PairTest", "paired_pvalue", "holm", "adjust_pvalues", "test_pair",
           "pairwise_tests", "adjacent_tests", "ranking_order"]


@dataclass(frozen=True)
class PairTest:
    """One paired comparison A − B of one metric.

    Attributes:
        metric: metric id.
        a, b: system names.
        diff: A − B on the full test set (the metric's unit: BLEU points or percent points).
        lower, upper: percentile interval of the paired bootstrap differences.
        p: two-sided p-value before correction.
        p_adjusted: p-value after the family's correction (≤ 1).
        significant: ``p_adjusted < alpha``.
    """

    metric: str
    a: str
    b: str
    diff: float
    lower: float
    upper: float
    p: float
    p_adjusted: float
    significant: bool

    def as_dict(self) -> dict[str, object]:
        """The fields as a JSON-ready dict."""
        return asdict(self)


def paired_pvalue(a: np.ndarray, b: np.ndarray, observed: float, method: str = "normal") -> float:
    """Two-sided p-value of the observed difference ``observed`` = A − B from paired bootstrap
    figures ``a`` and ``b`` (shape (B,); resamples where either is NaN are dropped).

    >>> a = np.array([1.0, 2.0, 3.0, 4.0]); b = np.zeros(4)
    >>> round(paired_pvalue(a, b, 2.5), 6)
    0.052808
    >>> paired_pvalue(a, b, 2.5, "empirical")
    0.2

    Raises:
        ConfigError: unknown ``method``.
    """
    # equivalent mutants: a Replicates' values are float64 already
    d = np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64)  # pragma: no mutate
    d = d[~np.isnan(d)]
    if method == "normal":
        se = float(np.std(d, ddof=1)) if len(d) > 1 else 0.0
        if se == 0.0:
            return 1.0 if observed == 0 else 0.0
        return math.erfc(abs(observed) / (math.sqrt(2.0) * se))
    if method == "empirical":
        null = d - d.mean()
        count = int(np.sum(np.abs(null) >= abs(observed)))
        return (count + 1) / (len(d) + 1)
    raise ConfigError(f"stats.pvalue: unknown method {method!r} (normal or empirical)")


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (same order as ``pvalues``): the i-th smallest
    p times (m − i + 1), made non-decreasing in that order, capped at 1 (R's
    ``p.adjust(method = "holm")``)."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: (pvalues[i], i))
    out = [0.0] * m  # pragma: no mutate (equivalent: every entry is assigned below)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        out[i] = running
    return out


def adjust_pvalues(pvalues: Sequence[float], method: str) -> list[float]:
    """Correct one family of p-values: ``holm``, ``bonferroni`` (p·m capped at 1) or ``none``.

    >>> adjust_pvalues([0.01, 0.04], "bonferroni")
    [0.02, 0.08]

    Raises:
        ConfigError: unknown ``method``.
    """
    if method == "holm":
        return holm(pvalues)
    if method == "bonferroni":
        return [min(1.0, p * len(pvalues)) for p in pvalues]
    if method == "none":
        return [float(p) for p in pvalues]
    raise ConfigError(f"stats.correction: unknown method {method!r}")


def test_pair(a: Replicates, b: Replicates, params: StatsParams) -> tuple[float, float, float,
                                                                        float]:
    """``(diff, lower, upper, p)`` of A − B: full-sample difference, percentile interval of
    the paired differences at ``params.confidence``, uncorrected p-value (``params.pvalue``)."""
    diff = a.interval.point - b.interval.point
    ci = percentile_interval(a.values - b.values, diff, params.confidence)
    return diff, ci.lower, ci.upper, paired_pvalue(a.values, b.values, diff, params.pvalue)


def _family(metric: str, pairs: Sequence[tuple[str, str]], reps: Mapping[str, Replicates],
            params: StatsParams) -> list[PairTest]:
    raw = [test_pair(reps[x], reps[y], params) for x, y in pairs]
    adjusted = adjust_pvalues([r[3] for r in raw], params.correction)
    return [PairTest(metric, x, y, d, lo, hi, p, pa, pa < params.alpha)
            for (x, y), (d, lo, hi, p), pa in zip(pairs, raw, adjusted)]


def ranking_order(reps: Mapping[str, Replicates]) -> list[str]:
    """Systems by full-sample figure, best (highest) first; ties by name."""
    return sorted(reps, key=lambda s: (-reps[s].interval.point, s))


def pairwise_tests(metric: str, reps: Mapping[str, Replicates], params: StatsParams,
                   systems: Sequence[str] | None = None) -> list[PairTest]:
    """Every pair (A, B) with A before B in ``systems`` (default: :func:`ranking_order`),
    corrected as one family of k(k − 1)/2 tests.

    Returns:
        :class:`PairTest` list in pair order (row-major over ``systems``).
    """
    order = list(systems) if systems is not None else ranking_order(reps)
    pairs = [(order[i], order[j]) for i in range(len(order)) for j in range(i + 1, len(order))]
    return _family(metric, pairs, reps, params)


def adjacent_tests(metric: str, reps: Mapping[str, Replicates],
                   params: StatsParams) -> list[PairTest]:
    """The k − 1 neighbouring pairs of the ranking (:func:`ranking_order`), A ranked just above
    B, corrected as their own family: which steps of a leaderboard are real."""
    order = ranking_order(reps)
    return _family(metric, list(zip(order, order[1:])), reps, params)
