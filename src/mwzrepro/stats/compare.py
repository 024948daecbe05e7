"""Compare two systems metric by metric: difference, its paired bootstrap interval, p-value.

:func:`compare` is the library call behind ``mwzrepro stats-compare`` (the pipeline's score
files) and ``mwzrepro compare A.json B.json`` / ``Evaluator.compare`` (two prediction files). Both systems are re-scored on the
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
from mwzrepro.stats.catalog import spec
from mwzrepro.stats.params import StatsParams
from mwzrepro.stats.significance import test_pair
from mwzrepro.stats.units import DialogueStats, dialogue_union

__all__ = ["MetricComparison", "compare", "format_comparison", "comparison_note"]


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
        params: resamples, seed, confidence and p-value method (defaults:
            :class:`~mwzrepro.stats.params.StatsParams`'s).
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
                      decimals: int = 2, fmt: str = "text",
                      params: StatsParams | None = None) -> str:
    """The comparison as text (aligned columns) or Markdown: metric (its title, e.g.
    ``FGA(0.5)``), A ± half-width, B ± half-width, A − B, the interval of the difference,
    p, and ``*`` where p < ``params.alpha`` (default parameters: :class:`StatsParams`).

    >>> from mwzrepro.stats.bootstrap import Interval
    >>> row = MetricComparison("inform", Interval(80.0, 77.5, 82.5), Interval(75.0, 72.4, 77.6),
    ...                        5.0, 2.1, 7.9, 0.001)
    >>> print(format_comparison([row], "A", "B", fmt="markdown"), end="")
    | metric | A | B | A − B | interval | p | sig. |
    |---|---|---|---|---|---|---|
    | Inform | 80.00 ±2.50 | 75.00 ±2.60 | +5.00 | [+2.10, +7.90] | 0.001 | * |

    Raises:
        ValueError: ``fmt`` is neither ``text`` nor ``markdown``.
    """
    params = params or StatsParams()
    head = ["metric", name_a, name_b, "A − B", "interval", "p", "sig."]
    body = []
    for r in rows:
        body.append([
            spec(r.metric).title(params.fga_lambda),
            f"{r.a.point:.{decimals}f} ±{r.a.half_width:.{decimals}f}",
            f"{r.b.point:.{decimals}f} ±{r.b.half_width:.{decimals}f}",
            f"{r.diff:+.{decimals}f}",
            f"[{r.lower:+.{decimals}f}, {r.upper:+.{decimals}f}]",
            f"{r.p:.3g}", "*" if r.p < params.alpha else ""])
    from mwzrepro.core.tables import grid_lines

    return "\n".join(grid_lines(head, body, fmt)) + "\n"


def comparison_note(params: StatsParams, dialogues: int, test_dialogues: int | None = None
                    ) -> str:
    """One line on how the comparison was made (resamples, seed, level and the meaning of ±,
    p-value method and correction as in ``params``), the same fields the JSON outputs carry;
    ``test_dialogues`` when the dialogues compared are fewer than the test set's.

    >>> comparison_note(StatsParams(correction="none"), 1000)
    'paired bootstrap over 1000 test dialogues: 1000 resamples, seed 0; 95 % percentile intervals, ± = half their width; p: normal, two-sided, correction: none; * = p < 0.05'
    >>> comparison_note(StatsParams(correction="none"), 200, 1000).split(":")[0]
    'paired bootstrap over the 200 of 1000 test dialogues both files cover'
    """
    over = (f"the {dialogues} of {test_dialogues} test dialogues both files cover"
            if test_dialogues is not None and dialogues != test_dialogues
            else f"{dialogues} test dialogues")
    return (f"paired bootstrap over {over}: {params.resamples} resamples, seed {params.seed}; "
            f"{100 * params.confidence:g} % percentile intervals, ± = half their width; "
            f"p: {params.pvalue}, two-sided, correction: {params.correction}; "
            f"* = p < {params.alpha:g}")
