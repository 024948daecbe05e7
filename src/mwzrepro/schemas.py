"""Every Parquet table of the pipeline: its columns, types, key and meaning, in one place.

Each table is a :class:`TableSpec`. :func:`validate` checks a DataFrame against it (column set,
types, nullability, key uniqueness) with pandera, and :mod:`mwzrepro.io` calls it on every write
and every read, so a table on disk always has exactly the shape documented here.

Conventions shared by all tables:

* ``dialogue_id``: the MultiWOZ file name, lowercased, without ``.json`` (``sng0073``,
  ``pmul4462``), as in the reference evaluator (spec-standard-evaluation §2.1).
* ``turn_id``: position in the dialogue's log, counting user and system utterances (0, 1, ...).
  Even positions are user turns, odd positions system turns.
* ``turn``: an index that counts only one speaker: for system-side tables (references,
  predictions, booked domains) the *i*-th system response (0-based); for belief states the
  user-turn index *t* of spec-dst-metrics §1 (the state after user utterance *t*).
* Strings are stored verbatim (no lowercasing) unless a column says otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd
import pyarrow as pa

__all__ = ["Column", "TableSpec", "TABLES", "SchemaError", "validate", "arrow_schema"]


class SchemaError(ValueError):
    """A DataFrame does not have the columns, types or key its table declares."""


#: Logical column types and their Arrow storage types.
_ARROW_TYPES: dict[str, pa.DataType] = {
    "string": pa.string(),
    "int32": pa.int32(),
    "int64": pa.int64(),
    "float64": pa.float64(),
    "bool": pa.bool_(),
    "list<string>": pa.list_(pa.string()),
}


@dataclass(frozen=True)
class Column:
    """One column: logical type (a key of ``_ARROW_TYPES``), nullability and meaning."""

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


def _spec(name: str, doc: str, key: tuple[str, ...], **columns: Column) -> TableSpec:
    return TableSpec(name=name, doc=doc, columns=dict(columns), key=key)


_DID = Column("string", "dialogue id, lowercase, no .json")
_TURN_ID = Column("int32", "log position (even = user, odd = system)")

TABLES: dict[str, TableSpec] = {
    t.name: t
    for t in [
        _spec(
            "dialogues",
            "One row per dialogue of a (version, split): where it came from and its length.",
            ("dialogue_id",),
            dialogue_id=_DID,
            source_id=Column("string", "dialogue id exactly as in the source file"),
            split=Column("string", "test, val or train"),
            n_turns=Column("int32", "number of log entries (user + system utterances)"),
        ),
        _spec(
            "turns",
            "Every utterance of a (version, split). Text verbatim from the source (2.0/2.1 "
            "ConvLab text is already tokenized; 2.2 text is not).",
            ("dialogue_id", "turn_id"),
            dialogue_id=_DID,
            turn_id=_TURN_ID,
            speaker=Column("string", "'user' or 'system'"),
            text=Column("string", "the utterance"),
        ),
        _spec(
            "spans",
            "Dialogue-act value spans, as character offsets into turns.text. 2.0/2.1 word "
            "indices (inclusive end) are converted on ingest. span_index keeps source order, "
            "which decides overlaps in delexicalization (spec-standard-evaluation §5.4).",
            ("dialogue_id", "turn_id", "span_index"),
            dialogue_id=_DID,
            turn_id=_TURN_ID,
            span_index=Column("int32", "order of the span within its turn in the source"),
            act=Column("string", "dialogue act as in the source, e.g. 'Restaurant-Inform'"),
            domain=Column("string", "lowercase act domain, e.g. 'restaurant', 'booking'"),
            slot=Column("string", "MultiWOZ 2.2 slot name, e.g. 'address', 'leaveat', 'ref'"),
            source_slot=Column("string", "slot name exactly as in the source, e.g. 'Addr'"),
            value=Column("string", "annotated value"),
            start=Column("int32", "first character of the span in text"),
            end=Column("int32", "one past the last character of the span"),
        ),
        _spec(
            "acts",
            "Every dialogue act (domain-intent, slot, value) of every turn, with or without span.",
            ("dialogue_id", "turn_id", "act_index"),
            dialogue_id=_DID,
            turn_id=_TURN_ID,
            act_index=Column("int32", "order within the turn in the source"),
            act=Column("string", "e.g. 'Restaurant-Inform', 'general-bye'"),
            domain=Column("string", "lowercase domain of the act"),
            intent=Column("string", "lowercase intent of the act, e.g. 'inform', 'request'"),
            slot=Column("string", "slot as in the source ('none' when the act has no slot)"),
            value=Column("string", "value as in the source ('?' for requests, 'none' if none)"),
        ),
        _spec(
            "states",
            "Belief state after each user turn, long format: one row per filled slot. Slot "
            "names are the spec-dst-metrics §2.2 canonical names ('leaveat', 'book people'). "
            "Values verbatim; the empty markers '' and 'not mentioned' are dropped on ingest, "
            "'none' and 'dontcare' are kept. position keeps the source's domain/slot order "
            "(the reference evaluator's domain estimation depends on it).",
            ("dialogue_id", "turn", "domain", "slot"),
            dialogue_id=_DID,
            turn=Column("int32", "user-turn index t"),
            domain=Column("string", "lowercase domain, all domains of the source"),
            slot=Column("string", "canonical slot name"),
            value=Column("string", "primary value"),
            alternatives=Column("list<string>", "all acceptable values (2.2); [value] otherwise"),
            position=Column("int32", "order of the slot within the turn's state in the source"),
        ),
        _spec(
            "booked",
            "Completed bookings recorded in 2.0/2.1 metadata (book.booked), per system turn.",
            ("dialogue_id", "turn", "domain"),
            dialogue_id=_DID,
            turn=Column("int32", "system-turn index"),
            domain=Column("string", "lowercase domain with a non-empty booked list"),
            n_booked=Column("int32", "length of the booked list"),
            position=Column("int32", "order of the domain in the turn's metadata"),
        ),
        _spec(
            "goals",
            "The user goal of each dialogue (2.0/2.1 'goal' field), long format. kind is one of "
            "info, reqt, book, fail_info, fail_book; reqt rows have an empty value.",
            ("dialogue_id", "domain", "kind", "position"),
            dialogue_id=_DID,
            domain=Column("string", "lowercase domain"),
            kind=Column("string", "info, reqt, book, fail_info or fail_book"),
            position=Column("int32", "order within (domain, kind) in the source"),
            slot=Column("string", "slot name as in the source, e.g. 'leaveAt', 'car type'"),
            value=Column("string", "value as in the source ('' for reqt)"),
        ),
        _spec(
            "references",
            "Span-based delexicalized reference responses, one row per system turn "
            "(spec-standard-evaluation §5.4 applied to this version's spans).",
            ("dialogue_id", "turn"),
            dialogue_id=_DID,
            turn=Column("int32", "system-turn index"),
            text=Column("string", "original system utterance"),
            delex=Column("string", "utterance with value spans replaced by [slot] placeholders"),
            reference=Column("string", "delex after response normalization (§3): the BLEU ref"),
        ),
        _spec(
            "predictions",
            "One system's outputs (mwzeval input format), one row per predicted system turn.",
            ("dialogue_id", "turn"),
            dialogue_id=_DID,
            turn=Column("int32", "system-turn index"),
            response=Column("string", "raw generated response"),
            response_norm=Column("string", "response after spec-standard-evaluation §3"),
            state_json=Column(
                "string", "predicted state as compact JSON (key order kept); null if absent", True
            ),
            active_domains=Column("list<string>", "given active domains; null if absent", True),
        ),
        _spec(
            "coverage",
            "How much of the test set a prediction file covers, per dialogue.",
            ("dialogue_id",),
            dialogue_id=_DID,
            expected_turns=Column("int32", "system turns in the test set"),
            predicted_turns=Column("int32", "system turns in the prediction file (0 = missing)"),
        ),
    ]
}


def arrow_schema(spec: TableSpec) -> pa.Schema:
    """The Arrow schema a table is written with (column order as declared)."""
    return pa.schema(
        [pa.field(n, _ARROW_TYPES[c.type], nullable=c.nullable) for n, c in spec.columns.items()]
    )


def validate(df: pd.DataFrame, table: str, where: str = "") -> pd.DataFrame:
    """Check ``df`` against table ``table`` and return it with columns in declared order.

    Args:
        df: the frame to check.
        table: a key of :data:`TABLES`.
        where: a file name or label for the error message.

    Returns:
        ``df`` restricted to and ordered by the declared columns.

    Raises:
        SchemaError: a column is missing or unexpected, a value has the wrong type, a
            non-nullable column has nulls, or the key is not unique (the message names
            ``where``, the column and the first offending key).
    """
    import pandera.pandas as pap
    from pandera.errors import SchemaError as PanderaSchemaError
    from pandera.errors import SchemaErrors

    spec = TABLES[table]
    label = f"{where}: " if where else ""
    missing = [c for c in spec.columns if c not in df.columns]
    extra = [c for c in df.columns if c not in spec.columns]
    if missing or (extra and not spec.extra_ok):
        raise SchemaError(
            f"{label}table '{table}' expects columns {list(spec.columns)}; "
            f"missing {missing}, unexpected {extra}"
        )
    checks = {}
    for name, col in spec.columns.items():
        if col.type == "string":
            dtype, chk = str, None
        elif col.type == "list<string>":
            dtype = None
            chk = pap.Check(
                lambda s: s.map(
                    lambda v: v is None
                    or (hasattr(v, "__iter__") and all(isinstance(x, str) for x in v))
                ),
                error="not a list of strings",
            )
        elif col.type == "bool":
            dtype, chk = bool, None
        else:
            dtype, chk = col.type, None
        checks[name] = pap.Column(
            dtype, checks=chk, nullable=col.nullable, coerce=col.type.startswith("int")
        )
    schema = pap.DataFrameSchema(checks, strict=False)
    try:
        out = schema.validate(df[list(spec.columns)].reset_index(drop=True), lazy=False)
    except (PanderaSchemaError, SchemaErrors) as exc:
        raise SchemaError(f"{label}table '{table}' invalid: {exc}") from None
    if spec.key:
        dup = out.duplicated(list(spec.key), keep="first")
        if dup.any():
            first = out.loc[dup.idxmax(), list(spec.key)].to_dict()
            raise SchemaError(
                f"{label}table '{table}': {int(dup.sum())} duplicate key(s) "
                f"{list(spec.key)}, first {first}"
            )
    return out
