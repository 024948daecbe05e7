"""What a table declaration is, and the two checks made against it.

* :func:`validate` — the full check, made on every write (:func:`mwzrepro.core.io.write_table`):
  column set, value types, nullability and key uniqueness of a DataFrame, with pandera
  (imported only here, so commands that only read tables never load it).
* :func:`check_arrow_schema` — the cheap check, made on every read
  (:func:`mwzrepro.core.io.read_table`): the Parquet file's Arrow schema (column names, order,
  types, nullability) equals the declared one. A file written by ``write_table`` was fully
  validated when it was written, so its schema is all that needs checking.
"""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from mwzrepro.core.errors import SchemaError

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa

__all__ = [
    "Column",
    "TableSpec",
    "table",
    "DIALOGUE_ID",
    "TURN_ID",
    "arrow_schema",
    "check_arrow_schema",
    "empty_frame",
    "load_validator",
    "validate",
]

#: Logical column types (their Arrow storage types are given by :func:`arrow_schema`).
TYPES = ("string", "int32", "int64", "float64", "bool", "list<string>")


@dataclass(frozen=True)
class Column:
    """One column: logical type (one of :data:`TYPES`), nullability and meaning."""

    type: str
    doc: str
    nullable: bool = False


@dataclass(frozen=True)
class TableSpec:
    """A table: ordered columns, the key that identifies a row (rows are sorted by it on write),
    and a one-paragraph description."""

    name: str
    doc: str
    columns: dict[str, Column]
    key: tuple[str, ...]
    extra_ok: bool = field(default=False)


def table(name: str, doc: str, key: tuple[str, ...], /, **columns: Column) -> TableSpec:
    """A :class:`TableSpec` with the columns in keyword order.

    >>> t = table("pairs", "Example.", ("a",), a=Column("string", "id"), b=Column("int32", "n"))
    >>> list(t.columns), t.key
    (['a', 'b'], ('a',))
    """
    return TableSpec(name=name, doc=doc, columns=dict(columns), key=key)


#: The dialogue id column shared by most tables.
DIALOGUE_ID = Column("string", "dialogue id, lowercase, no .json")
#: The log-position column of turn-level canonical tables.
TURN_ID = Column("int32", "log position (even = user, odd = system)")


def _arrow_type(name: str) -> pa.DataType:
    import pyarrow as pa

    return {
        "string": pa.string(),
        "int32": pa.int32(),
        "int64": pa.int64(),
        "float64": pa.float64(),
        "bool": pa.bool_(),
        "list<string>": pa.list_(pa.string()),
    }[name]


def arrow_schema(spec: TableSpec) -> pa.Schema:
    """The Arrow schema a table is written with (column order as declared).

    >>> s = arrow_schema(table("t", "", (), a=Column("string", ""), b=Column("int32", "", True)))
    >>> [(f.name, str(f.type), f.nullable) for f in s]
    [('a', 'string', False), ('b', 'int32', True)]
    """
    import pyarrow as pa

    return pa.schema(
        [pa.field(n, _arrow_type(c.type), nullable=c.nullable) for n, c in spec.columns.items()]
    )


def check_arrow_schema(schema: pa.Schema, spec: TableSpec, where: str = "") -> None:
    """Check a Parquet file's Arrow schema against ``spec`` (names, order, types, nullability);
    the file's metadata is ignored.

    Raises:
        SchemaError: one line naming ``where``, the table and the first difference.

    >>> spec = table("t", "", (), a=Column("string", ""), n=Column("int32", ""))
    >>> check_arrow_schema(arrow_schema(spec), spec, "f.parquet")
    >>> import pyarrow as pa
    >>> bad = pa.schema([pa.field("a", pa.string(), False), pa.field("n", pa.int64(), False)])
    >>> check_arrow_schema(bad, spec, "f.parquet")
    Traceback (most recent call last):
    ...
    mwzrepro.core.errors.SchemaError: f.parquet: table 't': column 'n' is int64, expected int32
    """
    expected = arrow_schema(spec)
    if schema.names != expected.names:
        missing = [n for n in expected.names if n not in schema.names]
        extra = [n for n in schema.names if n not in expected.names]
        raise SchemaError(
            f"{where}: table '{spec.name}' expects columns {expected.names}; "
            f"missing {missing}, unexpected {extra}"
            + ("" if missing or extra else f", order {schema.names}")
        )
    for got, want in zip(schema, expected):
        if not got.type.equals(want.type) or got.nullable != want.nullable:
            null = " (nullable)" if got.nullable else ""
            wnull = " (nullable)" if want.nullable else ""
            raise SchemaError(f"{where}: table '{spec.name}': column '{got.name}' is "
                              f"{got.type}{null}, expected {want.type}{wnull}")


_EMPTY_DTYPES = {"string": "str", "int32": "int32", "int64": "int64", "float64": "float64",
                 "bool": "bool", "list<string>": "object"}


def empty_frame(spec: TableSpec) -> pd.DataFrame:
    """A frame with no rows and the declared columns and dtypes (what :func:`validate`
    returns for an empty table; an empty frame carries no values to infer types from).

    >>> df = empty_frame(table("t", "", (), a=Column("string", ""), b=Column("int32", "")))
    >>> len(df), [str(t) for t in df.dtypes]
    (0, ['str', 'int32'])
    """
    import pandas as pd

    return pd.DataFrame({n: pd.Series([], dtype=_EMPTY_DTYPES[c.type])
                         for n, c in spec.columns.items()})


def _list_of_strings(series: pd.Series) -> pd.Series:
    return series.map(
        lambda v: v is None or (hasattr(v, "__iter__") and all(isinstance(x, str) for x in v))
    )


@functools.lru_cache(maxsize=1)
def load_validator() -> None:
    """Import pandera, which :func:`validate` uses, and register its pandas backend (once per
    process; a process about to fork workers that write tables calls it first, so they
    inherit both: :func:`mwzrepro.core.io.load_writer`).

    Pandera's data-synthesis strategies (``schema.strategy()``, which we never call) import
    hypothesis when it is installed (the ``test`` extra installs it): 0.1 s, about as much
    as the rest of pandera, in every process that writes a table. So pandera is loaded with
    hypothesis hidden, as in an environment without it, unless the process has imported
    hypothesis already (a test run); hypothesis stays importable afterwards.

    >>> import sys
    >>> load_validator()
    >>> "pandera.backends.pandas.builtin_checks" in sys.modules
    True
    """
    hide = "hypothesis" not in sys.modules
    if hide:
        sys.modules["hypothesis"] = None  # type: ignore[assignment]  # "import hypothesis" fails
    try:
        import pandas as pd
        import pandera.errors  # noqa: F401
        import pandera.pandas as pap

        # the first validation registers the pandas backend (and imports its checks)
        pap.DataFrameSchema({"x": pap.Column(str, checks=pap.Check(lambda s: s.notna()))}
                            ).validate(pd.DataFrame({"x": ["x"]}))
    finally:
        if hide and sys.modules.get("hypothesis", False) is None:
            del sys.modules["hypothesis"]


def validate(df: pd.DataFrame, spec: TableSpec, where: str = "") -> pd.DataFrame:
    """Check ``df`` against ``spec`` and return it with columns in declared order.

    Args:
        df: the frame to check.
        spec: the table declaration.
        where: a file name or label for the error message.

    Returns:
        ``df`` restricted to and ordered by the declared columns, integer columns coerced to
        their declared width, index reset.

    Raises:
        SchemaError: a column is missing or unexpected, a value has the wrong type, a
            non-nullable column has nulls, or the key is not unique (the message names
            ``where``, the column and the first offending key).
    """
    load_validator()
    import pandera.pandas as pap
    from pandera.errors import SchemaError as PanderaSchemaError
    from pandera.errors import SchemaErrors

    label = f"{where}: " if where else ""
    missing = [c for c in spec.columns if c not in df.columns]
    extra = [c for c in df.columns if c not in spec.columns]
    if missing or (extra and not spec.extra_ok):
        raise SchemaError(
            f"{label}table '{spec.name}' expects columns {list(spec.columns)}; "
            f"missing {missing}, unexpected {extra}"
        )
    checks = {}
    for name, col in spec.columns.items():
        chk = None
        if col.type == "string":
            dtype = str
        elif col.type == "list<string>":
            dtype = None
            chk = pap.Check(_list_of_strings, error="not a list of strings")
        elif col.type == "bool":
            dtype = bool
        else:
            dtype = col.type
        checks[name] = pap.Column(
            dtype, checks=chk, nullable=col.nullable, coerce=col.type.startswith("int")
        )
    if len(df) == 0:
        df = empty_frame(spec)
    schema = pap.DataFrameSchema(checks, strict=False)
    try:
        out = schema.validate(df[list(spec.columns)].reset_index(drop=True), lazy=False)
    except (PanderaSchemaError, SchemaErrors) as exc:
        raise SchemaError(f"{label}table '{spec.name}' invalid: {exc}") from None
    if spec.key:
        dup = out.duplicated(list(spec.key), keep="first")
        if dup.any():
            first = out.loc[dup.idxmax(), list(spec.key)].to_dict()
            raise SchemaError(
                f"{label}table '{spec.name}': {int(dup.sum())} duplicate key(s) "
                f"{list(spec.key)}, first {first}"
            )
    return out
