"""Seeded paired bootstrap over test dialogues: percentile confidence intervals.

One :class:`Resampler` per test set draws ``B`` resamples of its ``D`` dialogues with
replacement (numpy ``default_rng(seed)``) and keeps them as a (B, D) matrix of
multiplicities. Every system and metric is re-scored on the *same* resamples (the pairing
that significance tests need) by one matrix product: multiplicities × per-dialogue counts
(:mod:`mwzrepro.stats.units`) → summed counts per resample → figure per resample. Nothing is
re-scored from text.

The interval is the percentile interval of the B figures (Efron & Tibshirani 1993, §13.3):
the ``(1 − c)/2`` and ``(1 + c)/2`` quantiles (numpy's linear interpolation), around the
full-sample figure.

Example:
    >>> import numpy as np
    >>> from mwzrepro.stats.units import DialogueStats
    >>> ids = tuple(f"d{i}" for i in range(4))
    >>> s = DialogueStats("inform", "sys", "ratio", ids, np.array([[1, 1]] * 4), np.ones(1),
    ...                   100.0)
    >>> r = Resampler(ids, resamples=50, seed=1).replicate(s)
    >>> r.interval
    Interval(point=100.0, lower=100.0, upper=100.0)
    >>> Resampler(ids, 50, 1).counts.sum(axis=1).tolist() == [4] * 50
    True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from mwzrepro.core.errors import InputError
from mwzrepro.core.signature import Signature
from mwzrepro.stats.params import StatsParams
from mwzrepro.stats.units import DialogueStats

__all__ = ["Interval", "Replicates", "Resampler", "resample_counts", "percentile_interval",
           "interval_signature", "format_interval"]


@dataclass(frozen=True)
class Interval:
    """A full-sample figure and its bootstrap interval, in the figure's unit."""

    point: float
    lower: float
    upper: float

    @property
    def half_width(self) -> float:
        """(upper − lower) / 2: the ``±`` printed next to the figure."""
        return (self.upper - self.lower) / 2

    def as_dict(self) -> dict[str, float]:
        """``{"point", "lower", "upper", "half_width"}`` for metrics JSON."""
        return {"point": self.point, "lower": self.lower, "upper": self.upper,
                "half_width": self.half_width}


@dataclass(frozen=True, eq=False)
class Replicates:
    """One system's figure on every resample (``values``, shape (B,)) and its interval;
    ``stats`` is None when read back from a ``stats-resample`` file (mwzrepro.stats.family)."""

    stats: DialogueStats | None
    values: np.ndarray
    interval: Interval


def resample_counts(n: int, resamples: int, seed: int) -> np.ndarray:
    """Multiplicities of ``resamples`` bootstrap resamples of ``n`` items: an int64 array of
    shape (resamples, n) whose row b counts how often each item is drawn (rows sum to n).

    Drawn as ``default_rng(seed).integers(0, n, (resamples, n))``, so the same arguments give
    the same matrix on every platform numpy supports.

    Raises:
        InputError: n < 1 or resamples < 1.
    """
    if n < 1 or resamples < 1:
        raise InputError(f"cannot resample {n} dialogue(s) {resamples} time(s)")
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, n, size=(resamples, n))
    flat = draws + (np.arange(resamples, dtype=np.int64) * n)[:, None]
    return np.bincount(flat.ravel(), minlength=resamples * n).reshape(resamples, n)


def percentile_interval(values: np.ndarray, point: float, confidence: float) -> Interval:
    """The percentile interval of bootstrap figures ``values`` (NaN resamples ignored) at
    level ``confidence`` around ``point``.

    >>> percentile_interval(np.arange(101.0), 50.0, 0.5)
    Interval(point=50.0, lower=25.0, upper=75.0)

    Raises:
        InputError: every resample is NaN.
    """
    v = np.asarray(values, dtype=np.float64)
    if np.isnan(v).all():
        raise InputError("no resample defines the figure (every draw missed the system)")
    lo, hi = np.nanquantile(v, [(1 - confidence) / 2, (1 + confidence) / 2])
    return Interval(float(point), float(lo), float(hi))


class Resampler:
    """The shared resamples of one test set.

    Args:
        dialogue_ids: the test dialogues (the resampling unit), any order; kept sorted.
        resamples: B.
        seed: seed of the draw.

    Attributes:
        dialogue_ids: sorted tuple of the test dialogues.
        counts: (B, D) int64 multiplicities (:func:`resample_counts`).
    """

    def __init__(self, dialogue_ids: Iterable[str], resamples: int, seed: int) -> None:
        self.dialogue_ids = tuple(sorted(set(dialogue_ids)))
        self.counts = resample_counts(len(self.dialogue_ids), resamples, seed)
        self._counts_f = self.counts.astype(np.float64)

    @classmethod
    def from_params(cls, dialogue_ids: Iterable[str], params: StatsParams) -> Resampler:
        """A resampler with ``params.resamples`` and ``params.seed``."""
        return cls(dialogue_ids, params.resamples, params.seed)

    def values(self, stats: DialogueStats) -> np.ndarray:
        """The figure of ``stats`` on every resample, shape (B,); dialogues the system does not
        cover count zero (so Inform is over the covered dialogues drawn, as on the full set).
        """
        summed = self._counts_f @ stats.aligned(self.dialogue_ids)
        return stats.values(summed)

    def replicate(self, stats: DialogueStats, confidence: float = 0.95) -> Replicates:
        """:meth:`values` and the percentile interval around ``stats.point``."""
        values = self.values(stats)
        return Replicates(stats, values, percentile_interval(values, stats.point, confidence))

    def replicate_all(self, stats: Sequence[DialogueStats],
                      confidence: float = 0.95) -> dict[str, Replicates]:
        """:meth:`replicate` for each system of one metric, keyed by system.

        Raises:
            InputError: two entries for one system.
        """
        out: dict[str, Replicates] = {}
        for s in stats:
            if s.system in out:
                raise InputError(f"{s.metric}: system {s.system} given twice")
            out[s.system] = self.replicate(s, confidence)
        return out


def interval_signature(label: str, upstream: str, params: StatsParams,
                       vary: Sequence[str] = ("system",)) -> str:
    """Signature of bootstrap intervals: the scorer's signature ``upstream`` without the
    fields that vary between systems, named ``<label>-CI``, plus the resampling fields
    (:meth:`StatsParams.signature_fields`).

    >>> interval_signature("BLEU", "BLEU|system:a|ver:mwz21|tok:13a|v:0.1.0", StatsParams())
    'BLEU-CI|ver:mwz21|tok:13a|unit:dialogue|bs:1000|seed:0|ci:percentile|conf:0.95|v:0.1.0'
    """
    fields: dict[str, object] = {}
    if upstream:
        fields.update(Signature.parse(upstream).without(vary).fields)
    fields.update(params.signature_fields())
    return Signature(f"{label}-CI", fields).format()


def format_interval(interval: Interval, decimals: int, style: str = "pm") -> str:
    """``76.6 ±2.6`` (style ``pm``) or ``76.6 [74.0, 79.2]`` (style ``bounds``).

    >>> format_interval(Interval(76.6, 74.0, 79.2), 1)
    '76.6 ±2.6'
    >>> format_interval(Interval(76.6, 74.0, 79.2), 1, "bounds")
    '76.6 [74.0, 79.2]'
    """
    p = f"{interval.point:.{decimals}f}"
    if style == "bounds":
        return f"{p} [{interval.lower:.{decimals}f}, {interval.upper:.{decimals}f}]"
    return f"{p} ±{interval.half_width:.{decimals}f}"
