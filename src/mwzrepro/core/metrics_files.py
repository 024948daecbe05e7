"""The two files of a tables step's summary: the full record and its numbers-only projection.

A tables step (``tables-bleu``, ``tables-standard``, ``stats-ranking``, ...) summarises its
figures in one nested record: every figure, its signature, notes, labels and lists. DVC diffs
metrics files leaf by leaf and prints strings too, so a record declared under ``metrics:``
made ``dvc metrics diff`` hundreds of characters wide (issue 30). The step therefore writes

* the **record** (``results/records/<name>.json``): the whole summary, signatures included;
  the report's provenance page and later steps (``stats-ranking``) read it;
* the **metrics file** (``results/metrics/<name>.json``, declared under ``metrics:`` in
  ``dvc.yaml``): the same nesting with every number of the record and nothing else, so
  ``dvc metrics diff`` lists changed figures only. Strings (signatures, labels), booleans,
  ``null`` and lists stay in the record; a dict left empty is dropped.

Both are written from one dict by :func:`write_metrics`, so they never disagree.

>>> numbers_only({"bleu": {"ubar": 17.35, "sig": "BLEU|v:0.1.0"}, "ok": True, "ids": [1, 2],
...               "notes": {"a": "x"}, "n": 3})
{'bleu': {'ubar': 17.35}, 'n': 3}
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from typing import Any

__all__ = ["numbers_only", "write_metrics"]


def numbers_only(record: Mapping[str, Any]) -> dict[str, Any]:
    """The numeric leaves of ``record`` (int and finite float; not bool) in the same nesting
    and order; other leaves and dicts left empty are dropped.

    >>> numbers_only({"tau": float("nan"), "x": {"y": None}, "z": 0})
    {'z': 0}
    """
    out: dict[str, Any] = {}
    for key, value in record.items():
        if isinstance(value, Mapping):
            inner = numbers_only(value)
            if inner:
                out[key] = inner
        elif isinstance(value, (int, float)) and not isinstance(value, bool) \
                and math.isfinite(value):
            out[key] = value
    return out


def write_metrics(record: Mapping[str, Any], metrics: str | os.PathLike[str],
                  record_path: str | os.PathLike[str] | None) -> None:
    """Write ``record`` whole to ``record_path`` and its numbers (:func:`numbers_only`) to
    ``metrics``; both deterministic, indented JSON (:func:`mwzrepro.core.io.write_json`).
    Without ``record_path`` (a command run by hand), ``metrics`` gets the whole record."""
    from mwzrepro.core.io import write_json

    if record_path is None:
        write_json(record, metrics)
        return
    write_json(record, record_path)
    write_json(numbers_only(record), metrics)
