"""Per-dialogue sufficient statistics: what the bootstrap resamples.

A corpus-level MultiWOZ figure is a function of sums over test dialogues, so resampling the
dialogues (the unit of a goal) only re-weights per-dialogue counts. :class:`DialogueStats`
holds one system's counts for one metric, one row per dialogue it covers:

* ``ratio`` metrics (Inform, Success, JGA, FGA(λ)): column 0 is the denominator (dialogues or
  turns), columns 1.. are numerator counts with ``weights``; the figure is
  ``100 · Σ_j w_j·c_j / c_0`` in percent. Inform and Success count one per dialogue
  (spec-standard-evaluation §9.3); JGA counts EXACT turns over turns (spec-dst-metrics §3);
  FGA counts EXACT turns plus TYPE2 turns per distance x with weight 1 − e^{−λx} (§6.4, §6.6).
* ``bleu``: sacrebleu's ten sufficient statistics (:mod:`mwzrepro.stats.bleu_stats`; the
  figure by :mod:`mwzrepro.stats.bleu_formula`).

All counts are integers, so resampled sums are exact; ``point`` is the pipeline's own number
(computed in the same order as the scorer that produced it).

Example:
    >>> import pandas as pd
    >>> t = pd.DataFrame({"setting": "standard", "dialogue_id": ["a", "b", "c", "d"],
    ...                   "domain": "total", "inform": [True, True, False, True],
    ...                   "success": [True, False, False, True]})
    >>> s = success_stats(t, "standard", "inform", "sys")
    >>> s.point, s.counts.tolist()
    (75.0, [[1, 1], [1, 1], [1, 0], [1, 1]])
    >>> float(s.values(s.counts.sum(axis=0, keepdims=True))[0])
    75.0
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from mwzrepro.core.errors import InputError
from mwzrepro.stats.bleu_formula import bleu_from_statistics

__all__ = ["DialogueStats", "success_stats", "dst_stats", "fga_type2_weight", "dialogue_union"]


@dataclass(frozen=True, eq=False)
class DialogueStats:
    """One system's per-dialogue sufficient statistics for one metric.

    Attributes:
        metric: metric id (``bleu``, ``inform``, ``success``, ``jga``, ``fga``).
        system: system name.
        kind: ``ratio`` or ``bleu`` (how summed counts become the figure, see module doc).
        dialogue_ids: the dialogues the system is scored on, sorted, unique.
        counts: int64 array of shape (len(dialogue_ids), k).
        weights: ``ratio`` only: float64 array (k − 1,) of numerator weights.
        point: the corpus figure on the full test set (BLEU 0–100; rates in percent).
        signature: the scorer's signature of ``point`` ("" when unknown).
    """

    metric: str
    system: str
    kind: str
    dialogue_ids: tuple[str, ...]
    counts: np.ndarray
    weights: np.ndarray | None
    point: float
    signature: str = ""

    def values(self, summed: np.ndarray) -> np.ndarray:
        """The figure for each row of summed counts (shape (B, k) → (B,)); a row whose
        denominator is 0 (only uncovered dialogues drawn) gives NaN."""
        summed = np.asarray(summed, dtype=np.float64)
        if self.kind == "bleu":
            return bleu_from_statistics(summed)
        num = summed[:, 1:] @ self.weights
        den = summed[:, 0]
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(den > 0, 100.0 * num / np.where(den > 0, den, 1.0), np.nan)

    def aligned(self, dialogue_ids: Sequence[str]) -> np.ndarray:
        """Counts laid out on ``dialogue_ids`` (shape (len(dialogue_ids), k), float64), zero
        rows for dialogues the system does not cover.

        Raises:
            InputError: the system covers a dialogue outside ``dialogue_ids``.
        """
        index = {d: i for i, d in enumerate(dialogue_ids)}
        out = np.zeros((len(dialogue_ids), self.counts.shape[1]), dtype=np.float64)
        try:
            rows = [index[d] for d in self.dialogue_ids]
        except KeyError as exc:
            raise InputError(f"{self.system}: {self.metric}: dialogue {exc.args[0]} is not in "
                             "the resampled test set") from None
        out[rows] = self.counts
        return out

    def restricted(self, dialogue_ids: Collection[str]) -> DialogueStats:
        """These statistics on the rows of ``dialogue_ids`` only, the full-sample figure
        (``point``) recomputed from the kept counts (the figure on those dialogues alone; NaN
        when none is kept); ``self`` when it covers none outside them."""
        keep = [i for i, d in enumerate(self.dialogue_ids) if d in dialogue_ids]
        if len(keep) == len(self.dialogue_ids):
            return self
        counts = self.counts[keep]
        point = float(self.values(counts.sum(axis=0, keepdims=True))[0]) if keep \
            else float("nan")
        return dataclasses.replace(self, dialogue_ids=tuple(self.dialogue_ids[i] for i in keep),
                                   counts=counts, point=point)


def dialogue_union(stats: Sequence[DialogueStats]) -> tuple[str, ...]:
    """The sorted union of the dialogues of ``stats``: the paired bootstrap's test set."""
    return tuple(sorted({d for s in stats for d in s.dialogue_ids}))


def success_stats(table: pd.DataFrame, setting: str, metric: str, system: str,
                  signature: str = "") -> DialogueStats:
    """Inform or Success of one setting as per-dialogue counts ``[1, hit]``.

    Args:
        table: a ``success_dialogues`` table (columns setting, dialogue_id, domain, inform,
            success); the ``domain == "total"`` rows are used.
        setting: ``standard`` or ``optimistic``.
        metric: ``inform`` or ``success``.
        system: system name (for messages and the result).
        signature: the scorer's signature of the figure.

    Returns:
        :class:`DialogueStats` whose ``point`` is ``100 · hits / dialogues`` unrounded (the
        reference evaluator rounds it to one decimal, spec-standard-evaluation §9.3).

    Raises:
        InputError: no row for ``setting``; ``metric`` unknown.
    """
    if metric not in ("inform", "success"):
        raise InputError(f"{system}: unknown dialogue metric {metric!r}")
    rows = table[(table["setting"] == setting) & (table["domain"] == "total")]
    if rows.empty:
        raise InputError(f"{system}: no {setting!r} dialogues in the success table")
    rows = rows.sort_values("dialogue_id", kind="mergesort")
    hits = rows[metric].astype(bool).to_numpy()
    counts = np.column_stack([np.ones(len(rows), np.int64), hits.astype(np.int64)])
    point = 100 * int(hits.sum()) / len(rows)
    return DialogueStats(metric, system, "ratio", tuple(rows["dialogue_id"]), counts,
                         np.ones(1), point, signature)


def fga_type2_weight(x: float, lam: float) -> float:
    """FGA weight 1 − e^{−λx} of a TYPE2 turn at distance ``x`` (spec-dst-metrics §6.4),
    evaluated as ``-expm1(-λx)``; ``x = inf`` (paper_literal variant) weighs 1 for λ > 0.

    >>> round(fga_type2_weight(2.0, 0.5), 6)
    0.632121

    Raises:
        InputError: λ < 0, or λ = 0 with x = ∞ (undefined, §9 D1).
    """
    if lam < 0:
        raise InputError(f"FGA λ must be ≥ 0, got {lam}")
    if math.isinf(x):
        if lam == 0:
            raise InputError("FGA(λ=0) is undefined for a TYPE2 turn with x = ∞")
        return 1.0
    return -math.expm1(-lam * x)


def dst_stats(turns: pd.DataFrame, metric: str, system: str, lam: float = 0.5,
              signature: str = "") -> DialogueStats:
    """JGA or FGA(λ) as per-dialogue turn counts.

    Args:
        turns: a ``dst_turns`` table (columns dialogue_id, turn, kind, x, ...).
        metric: ``jga`` (columns [turns, EXACT]) or ``fga`` (columns [turns, EXACT,
            TYPE2 at x_1, TYPE2 at x_2, ...], distances ascending).
        system: system name.
        lam: FGA's λ (ignored for JGA).
        signature: the scorer's signature.

    Returns:
        :class:`DialogueStats`; ``point`` in percent, 100 × the scorer's fraction
        (``#M1 / #Turns`` for JGA; ``fsum(#M1, n_x·w_x) / #Turns`` for FGA, §6.6).

    Raises:
        InputError: an empty table; ``metric`` unknown; a TYPE2 turn without distance.
    """
    if metric not in ("jga", "fga"):
        raise InputError(f"{system}: unknown DST metric {metric!r}")
    if turns.empty:
        raise InputError(f"{system}: no DST turns to resample")
    did = turns["dialogue_id"].astype(str)
    ids, inverse = np.unique(did.to_numpy(), return_inverse=True)
    kind = turns["kind"].to_numpy()
    n = np.bincount(inverse, minlength=len(ids))
    m1 = np.bincount(inverse, weights=(kind == "EXACT"), minlength=len(ids))
    cols = [n, m1]
    weights = [1.0]
    total_m1 = int((kind == "EXACT").sum())
    if metric == "fga":
        type2 = kind == "TYPE2"
        x = turns["x"].to_numpy(dtype=np.float64)
        if np.isnan(x[type2]).any():
            raise InputError(f"{system}: a TYPE2 turn has no distance x")
        parts = [float(total_m1)]
        for dist in np.unique(x[type2]):
            sel = type2 & (x == dist)
            cols.append(np.bincount(inverse, weights=sel, minlength=len(ids)))
            w = fga_type2_weight(float(dist), lam)
            weights.append(w)
            parts.append(int(sel.sum()) * w)
        point = 100 * (math.fsum(parts) / len(turns))
    else:
        point = 100 * (total_m1 / len(turns))
    counts = np.column_stack(cols).astype(np.int64)
    return DialogueStats(metric, system, "ratio", tuple(str(i) for i in ids), counts,
                         np.asarray(weights), point, signature)
