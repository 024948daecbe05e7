"""Table builders of the stats area: intervals, pairwise significance, adjacent steps of a
ranking, and ranking stability. Each returns a DataFrame for
:func:`mwzrepro.core.tables.render_table` (or a long CSV), plus the notes that go under it.

Example:
    >>> from mwzrepro.stats.significance import PairTest
    >>> t = [PairTest("inform", "a", "b", 2.0, 0.5, 3.5, 0.01, 0.02, True)]
    >>> significance_matrix(t, ["a", "b"], 1).to_dict("records")
    [{'system': 'a', 'a': '', 'b': '+2.0*'}, {'system': 'b', 'a': '-2.0*', 'b': ''}]
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import pandas as pd

from mwzrepro.stats.bootstrap import Replicates, format_interval
from mwzrepro.stats.catalog import RANKED_METRICS, spec
from mwzrepro.stats.params import StatsParams
from mwzrepro.stats.ranking import RankComparison, rank_table
from mwzrepro.stats.significance import PairTest

__all__ = ["ci_table", "significance_matrix", "pairs_frame", "adjacent_table",
           "adjacent_counts", "tau_table", "ranks_frame", "significance_notes"]


def ci_table(results: Mapping[str, Mapping[str, Replicates]], params: StatsParams,
             style: str = "pm") -> pd.DataFrame:
    """One row per system, one column per figure: ``76.6 ±2.6`` (or ``76.6 [74.0, 79.2]``).

    Args:
        results: ``{figure key: {system: Replicates}}`` (keys of
            :data:`mwzrepro.stats.catalog.METRICS`).
        params: for FGA's λ in the column title.
        style: ``pm`` or ``bounds`` (:func:`mwzrepro.stats.bootstrap.format_interval`).

    Returns:
        DataFrame with column ``system`` (sorted) then one string column per figure; ``–``
        where a system has no such figure (no predicted states for JGA/FGA).
    """
    systems = sorted({s for reps in results.values() for s in reps})
    data: dict[str, list[str]] = {"system": systems}
    for key, reps in results.items():
        m = spec(key)
        data[m.title(params.fga_lambda)] = [
            format_interval(reps[s].interval, m.decimals, style) if s in reps else "–"
            for s in systems]
    return pd.DataFrame(data)


def significance_matrix(tests: Sequence[PairTest], order: Sequence[str],
                        decimals: int) -> pd.DataFrame:
    """Pairwise differences as a square table: cell (row A, column B) = A − B with ``*`` when
    the corrected p-value is below alpha; empty diagonal.

    Returns:
        DataFrame with column ``system`` then one string column per system of ``order``.
    """
    cell: dict[tuple[str, str], str] = {}
    for t in tests:
        mark = "*" if t.significant else ""
        cell[(t.a, t.b)] = f"{t.diff:+.{decimals}f}{mark}"
        cell[(t.b, t.a)] = f"{-t.diff:+.{decimals}f}{mark}"
    data: dict[str, list[str]] = {"system": list(order)}
    for col in order:
        data[col] = [cell.get((row, col), "") for row in order]
    return pd.DataFrame(data)


def pairs_frame(tests: Mapping[str, Sequence[PairTest]]) -> pd.DataFrame:
    """Every test of every figure, long format (full precision, for the CSV).

    Returns:
        columns ``figure``, ``a``, ``b``, ``diff``, ``lower``, ``upper``, ``p``,
        ``p_adjusted``, ``significant``.
    """
    rows = [{"figure": key, **{k: v for k, v in t.as_dict().items() if k != "metric"}}
            for key, ts in tests.items() for t in ts]
    return pd.DataFrame(rows, columns=["figure", "a", "b", "diff", "lower", "upper", "p",
                                       "p_adjusted", "significant"])


def adjacent_table(adjacent: Mapping[str, Sequence[PairTest]],
                   results: Mapping[str, Mapping[str, Replicates]],
                   params: StatsParams) -> pd.DataFrame:
    """The ranking of each figure with a test of each step to the next system.

    Returns:
        columns ``figure``, ``rank``, ``system``, ``value`` (``76.6 ±2.6``), ``next``,
        ``diff`` (system − next), ``interval`` (of the paired difference), ``p``,
        ``p (corr.)``, ``significant`` (bool); the last system of a ranking has no test.
    """
    rows = []
    for key, tests in adjacent.items():
        m = spec(key)
        reps = results[key]
        steps = {t.a: t for t in tests}
        order = [t.a for t in tests] + ([tests[-1].b] if tests else list(reps))
        for rank, system in enumerate(order, start=1):
            t = steps.get(system)
            rows.append({
                "figure": m.title(params.fga_lambda), "rank": rank, "system": system,
                "value": format_interval(reps[system].interval, m.decimals),
                "next": t.b if t else "",
                "diff": round(t.diff, 6) if t else math.nan,
                "interval": f"[{_signed(t.lower, m.decimals)}, {_signed(t.upper, m.decimals)}]"
                if t else "",
                "p": t.p if t else math.nan,
                "p (corr.)": t.p_adjusted if t else math.nan,
                "significant": bool(t.significant) if t else None,
            })
    return pd.DataFrame(rows, columns=["figure", "rank", "system", "value", "next", "diff",
                                       "interval", "p", "p (corr.)", "significant"])


def _signed(value: float, decimals: int) -> str:
    """``+1.2`` / ``-1.2``, with a rounded negative zero shown as ``+0.0``."""
    return f"{round(value, decimals) + 0.0:+.{decimals}f}"


def adjacent_counts(adjacent: Mapping[str, Sequence[PairTest]]) -> dict[str, tuple[int, int]]:
    """``{figure key: (significant steps, steps)}``."""
    return {k: (sum(t.significant for t in ts), len(ts)) for k, ts in adjacent.items()}


def significance_notes(params: StatsParams, family: str) -> list[str]:
    """Footer lines explaining a significance table (test, correction, family)."""
    test = ("Wald test with the paired bootstrap standard error" if params.pvalue == "normal"
            else "shifted paired bootstrap, (c+1)/(B+1)")
    return [
        f"Paired bootstrap over test dialogues: {params.resamples} resamples, seed "
        f"{params.seed}; two-sided p-values ({test}); {params.correction} correction over "
        f"{family}; * / significant = corrected p < {params.alpha:g}.",
    ]


def tau_table(comparisons: Sequence[RankComparison]) -> pd.DataFrame:
    """Kendall's τ-b between every pair of conditions of every metric.

    Returns:
        columns ``metric``, ``condition A``, ``condition B``, ``systems``, ``tau_b``,
        ``largest move`` (ranks), ``moved`` (``system a→b`` of the systems moving most).
    """
    rows = [{"metric": RANKED_METRICS.get(c.metric, c.metric), "condition A": c.a,
             "condition B": c.b, "systems": c.systems, "tau_b": c.tau,
             "largest move": c.max_move,
             "moved": ", ".join(f"{s} {ra:g}→{rb:g}" for s, ra, rb in c.movers)}
            for c in comparisons]
    return pd.DataFrame(rows, columns=["metric", "condition A", "condition B", "systems",
                                       "tau_b", "largest move", "moved"])


def ranks_frame(conditions: Mapping[str, Mapping[str, Mapping[str, float]]]) -> pd.DataFrame:
    """Rank of every system under every (metric, condition): column ``system`` then one
    column ``<Metric> <condition>`` per condition (NaN where not scored)."""
    out: pd.DataFrame | None = None
    for metric, conds in conditions.items():
        t = rank_table(conds)
        t.columns = ["system"] + [f"{RANKED_METRICS.get(metric, metric)} {c}" for c in conds]
        out = t if out is None else out.merge(t, on="system", how="outer")
    if out is None:
        return pd.DataFrame({"system": []})
    return out.sort_values("system", kind="mergesort").reset_index(drop=True)
