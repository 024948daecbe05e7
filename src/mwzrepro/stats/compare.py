"""Compare two systems metric by metric: difference, its paired bootstrap interval, p-value.

:func:`compare` is the library call behind ``mwzrepro stats-compare`` (and a later
``mwzrepro compare A.json B.json`` / ``Evaluator.compare``). Both systems are re-scored on the
same seeded resamples of the test dialogues (:class:`mwzrepro.stats.bootstrap.Resampler`), so
with the same test set, resamples and seed the numbers equal the pairwise tables'
(uncorrected p-values: each metric is its own question here).

Example:
    >>> import numpy as np
    >>> from mwzrepro.stats.units import DialogueStats
    >>> ids = tuple(f"d{i}" for i in range(200))
    >>> hit = lambda k: DialogueStats("inform", "x", "ratio", ids,
    ...     np.array([[1, int(i < k)] for i in range(200)]), np.ones(1), 100 * k / 200)
    >>> [row] = compare({"inform": hit(180)}, {"inform": hit(100)}, StatsParams(resamples=200))
    >>> round(row.diff, 1), row.p < 1e-6
    (40.0, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from mwzrepro.core.errors import InputError
from mwzrepro.stats.bootstrap import Interval, Resampler
from mwzrepro.stats.params import StatsParams
from mwzrepro.stats.significance import test_pair
from mwzrepro.stats.units import DialogueStats, dialogue_union

__all__ = ["MetricComparison", "compare", "format_comparison"]


@dataclass(frozen=True)
class MetricComparison:
    """A − B for one metric.

    Attributes:
        metric: metric id.
        a, b: each system's figure and bootstrap interval (the metric's unit).
        diff: A − B on the full test set.
        lower, upper: percentile interval of the paired differences.
        p: two-sided p-value (``StatsParams.pvalue``), uncorrected.
    """

    metric: str
    a: Interval
    b: Interval
    diff: float
    lower: float
    upper: float
    p: float

    def as_dict(self) -> dict[str, object]:
        """JSON-ready dict."""
        return {"metric": self.metric, "a": self.a.as_dict(), "b": self.b.as_dict(),
                "diff": self.diff, "lower": self.lower, "upper": self.upper, "p": self.p}


def compare(a: Mapping[str, DialogueStats], b: Mapping[str, DialogueStats],
            params: StatsParams | None = None,
            dialogue_ids: Iterable[str] | None = None) -> list[MetricComparison]:
    """Compare system A with system B on every metric both have.

    Args:
        a, b: ``{metric id: DialogueStats}`` of each system.
        params: resamples, seed, confidence and p-value method (defaults: issue 14's).
        dialogue_ids: the test dialogues to resample (default: every dialogue either system
            covers in any metric). Pass the full test set to reproduce the pipeline tables.

    Returns:
        one :class:`MetricComparison` per common metric, in ``a``'s order.

    Raises:
        InputError: the systems share no metric.
    """
    params = params or StatsParams()
    metrics = [m for m in a if m in b]
    if not metrics:
        raise InputError(f"no metric in common: {sorted(a)} vs {sorted(b)}")
    ids = set(dialogue_union([*a.values(), *b.values()]))
    if dialogue_ids is not None:
        ids |= set(dialogue_ids)
    resampler = Resampler.from_params(ids, params)
    out = []
    for m in metrics:
        ra = resampler.replicate(a[m], params.confidence)
        rb = resampler.replicate(b[m], params.confidence)
        diff, lo, hi, p = test_pair(ra, rb, params)
        out.append(MetricComparison(m, ra.interval, rb.interval, diff, lo, hi, p))
    return out


def format_comparison(rows: Iterable[MetricComparison], name_a: str, name_b: str,
                      decimals: int = 2) -> str:
    """A plain-text table: metric, A ± half-width, B ± half-width, A − B, interval, p."""
    head = f"{'metric':<20} {name_a:>16} {name_b:>16} {'A-B':>8} {'interval':>18} {'p':>9}"
    lines = [head]
    for r in rows:
        fa = f"{r.a.point:.{decimals}f} ±{r.a.half_width:.{decimals}f}"
        fb = f"{r.b.point:.{decimals}f} ±{r.b.half_width:.{decimals}f}"
        ci = f"[{r.lower:.{decimals}f}, {r.upper:.{decimals}f}]"
        lines.append(f"{r.metric:<20} {fa:>16} {fb:>16} {r.diff:>+8.{decimals}f} {ci:>18} "
                     f"{r.p:>9.3g}")
    return "\n".join(lines) + "\n"
