"""Ranking stability: how the order of systems changes between evaluation conditions.

A *condition* is one way of computing a metric (a dataset version, a setting, corrected
annotations, a reference style). For one metric, every pair of conditions is compared on the
systems both rank: Kendall's τ-b between the two figure vectors (Kendall 1945; ties in
either ranking handled by the τ-b denominator), and the systems whose rank moves most. Rank 1
is the highest figure; tied figures share their average rank.

Example:
    >>> round(kendall_tau_b([12, 2, 1, 12, 2], [1, 4, 7, 1, 0]), 10)
    -0.4714045208
    >>> ranks({"a": 80.0, "b": 90.0, "c": 80.0})
    {'a': 2.5, 'b': 1.0, 'c': 2.5}
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import pandas as pd

__all__ = ["kendall_tau_b", "ranks", "RankComparison", "compare_rankings", "rank_table",
           "rank_spread"]


def kendall_tau_b(x: Sequence[float], y: Sequence[float]) -> float:
    """Kendall's τ-b of two paired sequences: (n_c − n_d) / √((n_0 − n_x)(n_0 − n_y)), where
    n_c / n_d count concordant / discordant pairs, n_0 = n(n − 1)/2 and n_x / n_y the pairs tied
    in x / in y. NaN when a sequence is constant or shorter than 2.

    >>> kendall_tau_b([1, 2, 3], [3, 2, 1])
    -1.0

    Raises:
        ValueError: the sequences differ in length.
    """
    if len(x) != len(y):
        raise ValueError(f"τ-b needs paired sequences, got lengths {len(x)} and {len(y)}")
    n = len(x)
    conc = disc = tie_x = tie_y = 0
    for i in range(n):
        for j in range(i + 1, n):
            dx = (x[i] > x[j]) - (x[i] < x[j])
            dy = (y[i] > y[j]) - (y[i] < y[j])
            if dx == 0:
                tie_x += 1
            if dy == 0:
                tie_y += 1
            if dx and dy:
                if dx == dy:
                    conc += 1
                else:
                    disc += 1
    n0 = n * (n - 1) // 2
    denom = math.sqrt((n0 - tie_x) * (n0 - tie_y))
    return (conc - disc) / denom if denom > 0 else math.nan


def ranks(values: Mapping[str, float]) -> dict[str, float]:
    """Rank of each system, 1 = highest figure, ties averaged; keys in ``values`` order."""
    ordered = sorted(values.values(), reverse=True)
    first: dict[float, int] = {}
    count: dict[float, int] = {}
    for pos, v in enumerate(ordered, start=1):
        first.setdefault(v, pos)
        count[v] = count.get(v, 0) + 1
    return {s: first[v] + (count[v] - 1) / 2 for s, v in values.items()}


@dataclass(frozen=True)
class RankComparison:
    """Two conditions of one metric compared on their common systems.

    Attributes:
        metric: metric id.
        a, b: condition names.
        systems: number of systems ranked under both.
        tau: Kendall's τ-b between the two figure vectors (NaN if undefined).
        max_move: the largest |rank_a − rank_b| (ranks among the common systems).
        movers: ``(system, rank_a, rank_b)`` of the systems moving ``max_move``, by name.
    """

    metric: str
    a: str
    b: str
    systems: int
    tau: float
    max_move: float
    movers: tuple[tuple[str, float, float], ...]

    def as_dict(self) -> dict[str, object]:
        """JSON-ready dict (movers as ``{"system", "rank_a", "rank_b"}``)."""
        return {"metric": self.metric, "a": self.a, "b": self.b, "systems": self.systems,
                "tau": self.tau, "max_move": self.max_move,
                "movers": [{"system": s, "rank_a": ra, "rank_b": rb}
                           for s, ra, rb in self.movers]}


def compare_rankings(metric: str, conditions: Mapping[str, Mapping[str, float]],
                     comparable: Callable[[str, str], bool] | None = None
                     ) -> list[RankComparison]:
    """Every pair of ``conditions`` (``{condition: {system: figure}}``, pairs in the mapping's
    order) compared on their common systems (:class:`RankComparison`); with ``comparable``,
    only the pairs it accepts (e.g. conditions of one dataset version)."""
    names = list(conditions)
    out = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if comparable is not None and not comparable(a, b):
                continue
            common = sorted(set(conditions[a]) & set(conditions[b]))
            va = {s: conditions[a][s] for s in common}
            vb = {s: conditions[b][s] for s in common}
            tau = kendall_tau_b([va[s] for s in common], [vb[s] for s in common])
            ra, rb = ranks(va), ranks(vb)
            moves = {s: abs(ra[s] - rb[s]) for s in common}
            top = max(moves.values(), default=0.0)
            movers = tuple((s, ra[s], rb[s]) for s in common if top > 0 and moves[s] == top)
            out.append(RankComparison(metric, a, b, len(common), tau, top, movers))
    return out


def rank_table(conditions: Mapping[str, Mapping[str, float]]) -> pd.DataFrame:
    """Rank of every system under every condition.

    Returns:
        DataFrame with column ``system`` (sorted) and one float column per condition (rank
        among the systems that condition scores; NaN where it does not score the system).
    """
    systems = sorted({s for v in conditions.values() for s in v})
    data: dict[str, list[object]] = {"system": systems}
    for name, values in conditions.items():
        r = ranks(values)
        data[name] = [r.get(s, math.nan) for s in systems]
    return pd.DataFrame(data)


def rank_spread(conditions: Mapping[str, Mapping[str, float]]) -> dict[str, float]:
    """Per system, max − min of its rank over the conditions that score it (ranks among all
    systems of each condition; conditions scoring different system sets are not comparable
    here, use :func:`compare_rankings`)."""
    table = rank_table(conditions).set_index("system")
    spread = (table.max(axis=1) - table.min(axis=1)).fillna(0.0)
    return {s: float(v) for s, v in spread.items()}
