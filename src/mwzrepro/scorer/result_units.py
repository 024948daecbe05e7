"""The units of a result dict (:meth:`mwzrepro.scorer.results.EvaluationResult.to_dict`):
``percent`` (every rate 0–100) or ``mwzeval`` (the reference evaluator's own units, where slot
precision and recall are fractions; spec-standard-evaluation §13)."""

from __future__ import annotations

from typing import Any

__all__ = ["UNITS", "with_units"]

#: Unit conventions accepted by :meth:`EvaluationResult.to_dict`.
UNITS = ("percent", "mwzeval")


def with_units(result: dict[str, Any], units: str) -> dict[str, Any]:
    """A result dict (:meth:`EvaluationResult.to_dict`) in ``units`` (``percent`` or
    ``mwzeval``): only slot precision and recall of ``dst`` differ (percent = 100 × the
    reference evaluator's fraction).

    >>> r = {"dst": {"slot_precision": 0.5, "slot_recall": 0.25}, "units": "mwzeval"}
    >>> with_units(r, "percent")["dst"]
    {'slot_precision': 50.0, 'slot_recall': 25.0}
    >>> with_units(with_units(r, "percent"), "mwzeval") == r
    True
    """
    if units not in UNITS:
        raise ValueError(f"units must be one of {UNITS}, got {units!r}")
    if result.get("units") == units:
        return result
    out = dict(result, units=units)
    if out.get("dst"):
        dst = dict(out["dst"])
        for k in ("slot_precision", "slot_recall"):
            dst[k] = 100 * dst[k] if units == "percent" else dst[k] / 100
        out["dst"] = dst
    return out
