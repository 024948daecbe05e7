"""Every Parquet table of the pipeline: its columns, types, key and meaning, in one place.

Each table is a :class:`TableSpec`, declared in :mod:`~mwzrepro.core.schemas.dataset`
(canonical dataset tables), :mod:`~mwzrepro.core.schemas.evaluation` (scores and evaluation
resources) or :mod:`~mwzrepro.core.schemas.derived` (correction, unseen-entity test set,
entity bias). :mod:`mwzrepro.core.io` validates a DataFrame fully (:func:`validate`) on every
write and checks the file's Arrow schema (:func:`check_arrow_schema`) on every read, so a table
on disk always has exactly the shape documented here.

Conventions shared by all tables:

* ``dialogue_id``: the MultiWOZ file name, lowercased, without ``.json`` (``sng0073``,
  ``pmul4462``), as in the reference evaluator (spec-standard-evaluation §2.1).
* ``turn_id``: position in the dialogue's log, counting user and system utterances (0, 1, ...).
  Even positions are user turns, odd positions system turns.
* ``turn``: an index that counts only one speaker: for system-side tables (references,
  predictions, booked domains) the *i*-th system response (0-based); for belief states the
  user-turn index *t* of spec-dst-metrics §1 (the state after user utterance *t*).
* Strings are stored verbatim (no lowercasing) unless a column says otherwise.

>>> TABLES["turns"].key
('dialogue_id', 'turn_id')
>>> [c for c in TABLES["coverage"].columns]
['dialogue_id', 'expected_turns', 'predicted_turns']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mwzrepro.core.errors import SchemaError
from mwzrepro.core.schemas import dataset, derived, evaluation
from mwzrepro.core.schemas import spec as _spec
from mwzrepro.core.schemas.spec import Column, TableSpec, arrow_schema

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa

__all__ = [
    "Column",
    "TableSpec",
    "TABLES",
    "SchemaError",
    "validate",
    "arrow_schema",
    "check_arrow_schema",
]

#: Every table by name.
TABLES: dict[str, TableSpec] = {
    t.name: t for group in (dataset, evaluation, derived) for t in group.TABLES
}


def validate(df: pd.DataFrame, table: str, where: str = "") -> pd.DataFrame:
    """Check ``df`` against table ``table`` (a key of :data:`TABLES`) and return it with
    columns in declared order; see :func:`mwzrepro.core.schemas.spec.validate`.

    Raises:
        SchemaError: the frame does not match the table (names ``where``, the column and the
            first offending key).
    """
    return _spec.validate(df, TABLES[table], where)


def check_arrow_schema(schema: pa.Schema, table: str, where: str = "") -> None:
    """Check a Parquet file's Arrow schema against table ``table`` (names, order, types,
    nullability); see :func:`mwzrepro.core.schemas.spec.check_arrow_schema`.

    Raises:
        SchemaError: one line naming ``where``, the table and the first difference.
    """
    _spec.check_arrow_schema(schema, TABLES[table], where)
