"""Reading the ``scores`` rows of the standard evaluation (columns metric, setting, key,
value, signature; one frame per system and version) for its tables: one value, one
signature, one field of a signature.

>>> import pandas as pd
>>> sc = pd.DataFrame({"metric": ["inform"], "setting": ["standard"], "key": ["total"],
...                    "value": [81.0], "signature": ["inform|state:pred"]})
>>> score_value(sc, "inform", "standard"), score_value(sc, "success", "standard")
(81.0, None)
>>> signature_field(score_signature(sc, "inform", "standard"), "state")
'pred'
"""

from __future__ import annotations

import weakref
from typing import Any

import pandas as pd

__all__ = ["score_value", "score_signature", "signature_field"]


#: ``id(scores) -> ({(metric, setting, key): first value}, {(metric, setting): first
#: signature})`` of a live scores frame (dropped when the frame is collected): each frame is
#: looked up hundreds of times, and a boolean mask over it per cell cost about 1 s of
#: ``tables-standard``.
_LOOKUPS: dict[int, tuple[dict[tuple[str, str, str], Any], dict[tuple[str, str], str]]] = {}


def _lookup(scores: pd.DataFrame) -> tuple[dict[tuple[str, str, str], Any],
                                           dict[tuple[str, str], str]]:
    hit = _LOOKUPS.get(id(scores))
    if hit is None:
        values: dict[tuple[str, str, str], Any] = {}
        sigs: dict[tuple[str, str], str] = {}
        for m, s, k, v, g in zip(scores["metric"].tolist(), scores["setting"].tolist(),
                                 scores["key"].tolist(), scores["value"].tolist(),
                                 scores["signature"].tolist()):
            values.setdefault((m, s, k), v)
            sigs.setdefault((m, s), g)
        hit = _LOOKUPS[id(scores)] = (values, sigs)
        weakref.finalize(scores, _LOOKUPS.pop, id(scores), None)
    return hit


def score_value(scores: pd.DataFrame, metric: str, setting: str, key: str = "total") -> Any:
    """The first value (float) of the row (metric, setting, key) of ``scores``; None when
    there is none."""
    hit = _lookup(scores)[0].get((metric, setting, key), _MISSING)
    return None if hit is _MISSING else float(hit)


def score_signature(scores: pd.DataFrame, metric: str, setting: str) -> str | None:
    """The signature of the first row of (metric, setting) of ``scores``; None when there
    is none."""
    return _lookup(scores)[1].get((metric, setting))


_MISSING = object()


def signature_field(sig: str | None, name: str) -> str:
    """The value of field ``name`` of a signature (``''`` when absent or no signature).

    >>> signature_field("inform|ver:mwz22|state:pred|dom:gold", "state")
    'pred'
    """
    if not sig:
        return ""
    for part in sig.split("|")[1:]:
        k, _, v = part.partition(":")
        if k == name:
            return v
    return ""
