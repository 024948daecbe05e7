"""Tables as plain columns: what the scorer passes instead of DataFrames.

A *table* here is either a ``pandas.DataFrame`` (the pipeline's Parquet tables) or a mapping
``{column name: list}`` (the scorer's, built without importing pandas: ``mwzrepro score``
starts in a fraction of the time). The MultiWOZ logic reads its columns through
:func:`column`, so one implementation serves both; it never imports pandas itself.

>>> column({"turn": [0, 1]}, "turn")
[0, 1]
>>> [is_missing(v) for v in (None, float("nan"), "", 0)]
[True, True, False, False]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["Columns", "column", "is_missing"]

#: A table as ``{column name: list of values}`` (every list one value per row).
Columns = Mapping[str, list]


def column(table: Any, name: str) -> list:
    """The values of column ``name`` of ``table`` (a DataFrame or :data:`Columns`) as a list
    of Python values (a DataFrame column via ``Series.tolist``). Raises ``KeyError`` for a
    missing column."""
    values = table[name]
    tolist = getattr(values, "tolist", None)
    return tolist() if tolist is not None else list(values)


def is_missing(value: Any) -> bool:
    """Whether a cell is null as pandas' ``isna`` counts a scalar: None, a float NaN or
    pandas' ``NA``."""
    if value is None:
        return True
    if isinstance(value, float):
        return value != value
    return type(value).__name__ == "NAType"
