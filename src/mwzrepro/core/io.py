"""Deterministic, atomic file output: Parquet tables, JSON and text.

Every artefact of the pipeline is written through this module so that the same inputs give
byte-identical files (design.md, "Determinism"):

* Parquet: validated against its :mod:`mwzrepro.core.schemas` table, rows sorted by the table key,
  no index, explicit Arrow schema, fixed codec, no pandas metadata (so the pandas version is not
  written into the file), user metadata as sorted JSON under the key ``mwzrepro``. Reading
  checks only the file's Arrow schema against the table (the rows were validated when the
  file was written), which keeps pandera out of jobs that only read tables.
* JSON: sorted keys only where asked, fixed indentation, trailing newline, UTF-8.
* Metrics: a tables step's summary record (every figure with its signature, notes, lists) goes
  whole to ``results/records/<name>.json`` and its numbers only to ``results/metrics/<name>.json``,
  the file DVC diffs (:func:`write_metrics`: strings under ``metrics:`` would make
  ``dvc metrics diff`` hundreds of characters wide, and lists, such as the Kendall τ of each
  pair of conditions, are not diffed at all).
* Every file is written to a temporary sibling and renamed into place, so a failure never leaves
  a half-written output.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mwzrepro.core.schemas import TABLES, arrow_schema, check_arrow_schema, validate
from mwzrepro.core.schemas.spec import empty_frame

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "atomic_path",
    "numbers_only",
    "write_metrics",
    "write_table",
    "load_writer",
    "read_table",
    "read_metadata",
    "write_json",
    "write_text",
    "dumps_json",
]

_META_KEY = b"mwzrepro"


@contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path next to ``path``; rename it onto ``path`` if the block succeeds.

    The parent directory is created. On any exception the temporary file is removed and
    ``path`` is left untouched.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp_path, 0o666 & ~umask)  # mkstemp creates 0600; give the usual mode
        os.replace(tmp_path, target)
    except BaseException:
        tmp_path.unlink(missing_ok=True)
        raise


def write_table(
    df: pd.DataFrame,
    path: str | os.PathLike[str],
    table: str,
    metadata: dict[str, Any] | None = None,
) -> None:
    """Validate ``df`` as table ``table``, sort it by the key and write it atomically.

    Args:
        df: rows of the table (any row order, any index).
        path: destination ``.parquet`` file.
        table: a key of :data:`mwzrepro.core.schemas.TABLES`.
        metadata: JSON-serialisable provenance (signature, parameters) stored in the file.

    Raises:
        mwzrepro.core.schemas.SchemaError: ``df`` does not match the table.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    spec = TABLES[table]
    df = validate(df, table, where=str(path))
    if spec.key:
        df = df.sort_values(list(spec.key), kind="mergesort")
    df = df.reset_index(drop=True)
    arrays = {}
    schema = arrow_schema(spec)
    for fld in schema:
        values = df[fld.name]
        if pa.types.is_list(fld.type):
            data = [None if v is None else list(v) for v in values.tolist()]
            arrays[fld.name] = pa.array(data, type=fld.type)
            continue
        # Columnar conversion; from_pandas: NaN, None and pd.NA become nulls.
        array = pa.array(values, type=fld.type, from_pandas=True)
        if isinstance(array, pa.ChunkedArray):  # pyarrow-backed pandas strings
            array = array.combine_chunks()
        arrays[fld.name] = array
    tbl = pa.Table.from_pydict(arrays, schema=schema)
    meta = {"table": table, **(metadata or {})}
    tbl = tbl.replace_schema_metadata({_META_KEY: dumps_json(meta, indent=None).encode()})
    with atomic_path(path) as tmp:
        pq.write_table(
            tbl,
            tmp,
            compression="zstd",
            compression_level=3,
            use_dictionary=True,
            write_statistics=True,
        )


def load_writer() -> None:
    """Import what :func:`write_table` needs (pyarrow's Parquet writer and the validation's
    pandera) now: workers forked afterwards (:mod:`mwzrepro.core.workers`) inherit the modules
    instead of each importing them again (about 0.2 s each)."""
    import pyarrow.parquet  # noqa: F401

    from mwzrepro.core.schemas.spec import load_validator

    load_validator()


def read_table(path: str | os.PathLike[str], table: str) -> pd.DataFrame:
    """Read a Parquet file written by :func:`write_table` as table ``table``.

    Only the file's Arrow schema is checked (column names, order, types, nullability; see
    :func:`mwzrepro.core.schemas.check_arrow_schema`): :func:`write_table` validated the rows
    when it wrote the file. The frame equals what :func:`write_table` was given after its
    validation: declared columns in order, a fresh index, ``list<string>`` cells as Python
    lists of ``str`` (``None`` where null).

    Raises:
        FileNotFoundError: ``path`` does not exist.
        mwzrepro.core.schemas.SchemaError: the file's schema does not match the table.
    """
    import pyarrow.parquet as pq

    tbl = pq.read_table(path)
    check_arrow_schema(tbl.schema, table, where=str(path))
    if tbl.num_rows == 0:
        return empty_frame(TABLES[table])
    # list<string> columns straight to Python lists (pandas would make NumPy arrays first)
    lists = [n for n, c in TABLES[table].columns.items() if c.type == "list<string>"]
    values = {name: tbl.column(name).to_pylist() for name in lists}
    df = tbl.drop_columns(lists).to_pandas() if lists else tbl.to_pandas()
    for name in lists:  # in column order, so each lands at its declared position
        df.insert(tbl.schema.get_field_index(name), name, values[name])
    return df


def read_metadata(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The provenance dictionary stored by :func:`write_table` (``{}`` if none)."""
    import pyarrow.parquet as pq

    meta = pq.read_schema(path).metadata or {}
    raw = meta.get(_META_KEY)
    return json.loads(raw) if raw else {}


def dumps_json(obj: Any, indent: int | None = 2, sort_keys: bool = False) -> str:
    """Deterministic JSON text (UTF-8, no ASCII escaping, fixed separators)."""
    seps = (",", ": ") if indent is not None else (",", ":")
    return json.dumps(obj, indent=indent, sort_keys=sort_keys, ensure_ascii=False, separators=seps)


def write_json(obj: Any, path: str | os.PathLike[str], sort_keys: bool = False) -> None:
    """Write ``obj`` as indented JSON with a trailing newline, atomically."""
    write_text(dumps_json(obj, indent=2, sort_keys=sort_keys) + "\n", path)


def write_text(text: str, path: str | os.PathLike[str]) -> None:
    """Write UTF-8 ``text`` atomically (``\\n`` line ends)."""
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8", newline="\n")


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
    if record_path is None:
        write_json(record, metrics)
        return
    write_json(record, record_path)
    write_json(numbers_only(record), metrics)
