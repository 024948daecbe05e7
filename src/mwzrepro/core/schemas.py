"""Every Parquet table of the pipeline: its columns, types, key and meaning, in one place.

Each table is a :class:`TableSpec`. :func:`validate` checks a DataFrame against it (column set,
types, nullability, key uniqueness) with pandera, and :mod:`mwzrepro.core.io` calls it on every write
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
from typing import TYPE_CHECKING

from mwzrepro.core.errors import SchemaError

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa

__all__ = ["Column", "TableSpec", "TABLES", "SchemaError", "validate", "arrow_schema"]


#: Logical column types (their Arrow storage types are given by :func:`arrow_schema`).
_TYPES = ("string", "int32", "int64", "float64", "bool", "list<string>")


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


@dataclass(frozen=True)
class Column:
    """One column: logical type (one of ``_TYPES``), nullability and meaning."""

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


def _spec(name: str, doc: str, key: tuple[str, ...], /, **columns: Column) -> TableSpec:
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
            "Values verbatim; the empty markers '', 'not mentioned' and 'none' are dropped on "
            "ingest, 'dontcare' (and its spellings) is kept. position keeps the source's domain/slot order "
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
        # --- tables: spine (bleu, tables) ---
        _spec(
            "scores",
            "Corpus-level numbers of one (metric family, version, system), long format. "
            "value is in the metric's own unit (BLEU 0-100; rates as percentages; counts as "
            "plain numbers); signature records every setting behind it.",
            ("system", "version", "metric", "setting", "key"),
            system=Column("string", "system name (prediction file stem), or 'oracle'"),
            version=Column("string", "dataset version of the references/goals, e.g. mwz21"),
            metric=Column("string", "e.g. 'bleu', 'inform', 'success', 'dialogues'"),
            setting=Column("string", "e.g. 'standard', 'optimistic'; '' if not applicable"),
            key=Column("string", "'total' or a domain/sub-key"),
            value=Column("float64", "the number"),
            signature=Column("string", "Signature.format() of the number"),
        ),
        # --- tables: standard evaluation ---
        _spec(
            "eval_goals",
            "User goals in the reference evaluator's structure (spec-standard-evaluation §5.2), "
            "derived from the goals table. kind: informable (normalized slot name and value), "
            "requestable (unified name PHONE/ADDRESS/POST/REFERENCE/TRAINID in slot, value ''), "
            "booking (raw slot/value), present (marker row of a domain with no other rows).",
            ("dialogue_id", "domain", "kind", "position"),
            dialogue_id=_DID,
            domain=Column("string", "goal domain"),
            kind=Column("string", "informable, requestable, booking or present"),
            position=Column("int32", "order within (dialogue, domain, kind)"),
            slot=Column("string", "slot name (informable: normalized, e.g. 'arrive')"),
            value=Column("string", "value (informable: normalized per §4.2)"),
        ),
        _spec(
            "booked_domains",
            "Domains (taxi excluded) with a completed booking at each system turn, from the "
            "booked table (spec-standard-evaluation §5.3); one row per system turn.",
            ("dialogue_id", "turn"),
            dialogue_id=_DID,
            turn=Column("int32", "system-turn index"),
            domains=Column("list<string>", "booked domains in metadata order"),
        ),
        _spec(
            "gold_states",
            "Gold dialogue state of each system turn in the reference evaluator's normalized "
            "form (§4, §5.4): the state after the preceding user turn, dontcare slots dropped, "
            "slot names like 'bookpeople', 'arrive', domain/slot order as in the source.",
            ("dialogue_id", "turn"),
            dialogue_id=_DID,
            turn=Column("int32", "system-turn index"),
            state_json=Column("string", "normalized state as compact JSON (key order kept)"),
        ),
        _spec(
            "turn_domains",
            "Ground-truth active domains of each system turn (DAMD turn-domain heuristic on "
            "the corpus states and system acts; the optimistic setting, §10 item 3).",
            ("dialogue_id", "turn"),
            dialogue_id=_DID,
            turn=Column("int32", "system-turn index"),
            domains=Column("list<string>", "turn domains"),
        ),
        _spec(
            "success_dialogues",
            "Inform and Success of one system per dialogue and goal domain ('total' = all "
            "domains), per setting (spec-standard-evaluation §9-§10). Signatures in metadata.",
            ("setting", "dialogue_id", "domain"),
            setting=Column("string", "standard or optimistic"),
            dialogue_id=_DID,
            domain=Column("string", "goal domain or 'total'"),
            inform=Column("bool", "the domain's venues match the goal (Inform)"),
            success=Column("bool", "Inform on all domains and every requested slot given"),
        ),
        # --- tables: dst ---
        _spec(
            "dst_turns",
            "Per-turn DST outcomes of one scored run (spec-dst-metrics §3-§7): exact and local "
            "match, FGA kind and distance, wrong slots, AGA counts. Corpus figures and "
            "signatures are in the file metadata. -1 marks a count unknown for flag input.",
            ("dialogue_id", "turn"),
            dialogue_id=_DID,
            turn=Column("int32", "user-turn index t"),
            exact=Column("bool", "B_t = B'_t after rewriting (§3)"),
            local=Column("bool", "local-match test LM or LM_flag (undefined at t = 0: False)"),
            kind=Column("string", "EXACT, TYPE1 or TYPE2 (§6.3)"),
            x=Column("float64", "TYPE2 distance t - t_err (inf only for paper_literal)", True),
            n_wrong=Column("int32", "|W_t|: slots wrong of 30 (SA_t = 1 - n_wrong/30)"),
            gold_slots=Column("int32", "|N_t|: non-empty gold slots (-1 unknown)"),
            hits=Column("int32", "|N_t ∩ B'_t| (-1 unknown)"),
            union=Column("int32", "|N_t ∪ B'_t| (-1 unknown, flag input)"),
            rewrites=Column("int32", "predicted values rewritten to the gold spelling (§2.7)"),
        ),
        # --- tables: annotation consistency ---
        _spec(
            "states_corrected",
            "Corrected belief states B'_t (spec-annotation-consistency §6): the columns of "
            "'states' plus provenance. alternatives holds the merged detection list (§6.4).",
            ("dialogue_id", "turn", "domain", "slot"),
            dialogue_id=_DID,
            turn=Column("int32", "user-turn index t"),
            domain=Column("string", "lowercase domain"),
            slot=Column("string", "canonical slot name"),
            value=Column("string", "primary value"),
            alternatives=Column("list<string>", "all values written (primary first)"),
            position=Column("int32", "order of the slot in the 2.0/2.1 metadata layout"),
            origin=Column("string", "'original', 'added' (slot absent in O_t) or 'filled' "
                          "(replaced an original dontcare, §6.3)"),
            rule=Column("string", "rule id of the primary value (§7); null if original", True),
            side=Column("string", "'user', 'system' or 'override'; null if original", True),
            detected_turn=Column("int32", "user turn of the detection carried here; -1 if "
                                 "original"),
            replaced_value=Column("string", "the original value replaced (dontcare)", True),
        ),
        _spec(
            "consistency_changes",
            "Change log of the annotation-consistency correction (§6.6 item 2): one row per "
            "value of each non-empty detection, before carry-forward.",
            ("dialogue_id", "turn", "domain", "slot", "rank"),
            dialogue_id=_DID,
            turn=Column("int32", "user-turn index t of the detection"),
            domain=Column("string", "lowercase domain"),
            slot=Column("string", "canonical slot name"),
            rank=Column("int32", "position in the merged value list (0 = primary)"),
            value=Column("string", "label written"),
            applied=Column("bool", "written to the state under multi_value_policy"),
            rule=Column("string", "rule id (§7) or 'override'"),
            side=Column("string", "'user', 'system' (rule set that fired) or 'override'"),
            evidence=Column("string", "utterance holding the evidence: 'user' (U_t), "
                            "'system' (S_t) or 'override'"),
            surface=Column("string", "matched text of that utterance, original case", True),
            start=Column("int32", "first character of surface in the utterance; -1 if none"),
            end=Column("int32", "one past the last character; -1 if none"),
            span=Column("bool", "would be written as a span in the 2.2 layout (§6.5)"),
        ),
        _spec(
            "consistency_counts",
            "Table 1 / Table 6 counts of one corrected (version, split) (§8): the 24 rows of "
            "the paper's tables; slot 'total' = domain total, domain 'total' = all.",
            ("row",),
            row=Column("int32", "row number in the paper's order (0-23)"),
            domain=Column("string", "domain, or 'total'"),
            slot=Column("string", "slot, 'total' for a domain total, '' for the overall total"),
            dialogues=Column("int32", "dialogues with at least one counted change"),
            dialogue_base=Column("int32", "dialogues whose corrected state has a slot of the "
                                 "domain (any slot for the total)"),
            dialogue_pct=Column("float64", "percent of dialogue_base; NaN if 0", True),
            turns=Column("int32", "user turns with at least one counted change"),
            turn_base=Column("int32", "user turns whose corrected state has a slot of the "
                             "domain (any slot for the total)"),
            turn_pct=Column("float64", "percent of turn_base; NaN if 0", True),
            detections=Column("int32", "turns at which a rule fired (summed on total rows)"),
            user_detections=Column("int32", "detections whose primary value is user-side"),
            system_detections=Column("int32", "detections whose primary value is system-side"),
            user_share_pct=Column("float64", "percent of detections from the user side", True),
        ),
        _spec(
            "consistency_units",
            "Every user turn of a corrected split with its context, the unit of the manual "
            "verification sample (spec-annotation-consistency §9.3).",
            ("dialogue_id", "turn"),
            dialogue_id=_DID,
            turn=Column("int32", "user-turn index t"),
            system_text=Column("string", "S_t ('' at t = 0)"),
            user_text=Column("string", "U_t"),
            original=Column("string", "O_t as 'domain-slot=value; ...'"),
            added=Column("string", "added or filled slots of B'_t as 'domain-slot=value; ...'"),
            modified=Column("bool", "the turn has at least one added or filled slot"),
        ),
        # --- tables: unseen entities and entity bias ---
        _spec(
            "sgd_pool",
            "SGD replacement candidates per family after keying and cleaning "
            "(spec-unseen-entity-test-set §4.1-4.2), before the unseen filter.",
            ("family", "key"),
            family=Column("string", "ATTR, HOTEL, REST, FOOD, CITY, PLACE, DEPT or ATYPE"),
            key=Column("string", "pool key: lowercase, apostrophes and spaces normalised"),
            surface=Column("string", "most frequent raw spelling (ties: smallest)"),
            sources=Column("list<string>", "SGD 'Service:slot' sources of the key"),
            n_raw=Column("int64", "raw SGD occurrences behind the key"),
            categories=Column("list<string>", "Travel_1 categories next to an ATTR name"),
        ),
        _spec(
            "unseen_pool",
            "The sgd_pool rows with the unseen test of §5 applied against the MultiWOZ seen set "
            "of one base test set.",
            ("family", "key"),
            family=Column("string", "family"),
            key=Column("string", "pool key"),
            surface=Column("string", "surface written into text"),
            sources=Column("list<string>", "SGD 'Service:slot' sources"),
            n_raw=Column("int64", "raw SGD occurrences"),
            categories=Column("list<string>", "Travel_1 categories (ATTR)"),
            admissible=Column("bool", "passes U1, U2 (and U3 when training text is given)"),
            reason=Column("string", "first failed test ('U1', 'U2: ...', 'U3'), '' if admissible"),
        ),
        _spec(
            "unseen_mapping",
            "Mapping report of the unseen-entity test set (§9 item 2): one row per (dialogue, "
            "entity) with its replacement and the number of rewritten mentions and values.",
            ("dialogue_id", "family", "canonical"),
            dialogue_id=_DID,
            family=Column("string", "entity family"),
            canonical=Column("string", "database name, station, or N(value)"),
            variants=Column("list<string>", "N-normalised variants used to find mentions"),
            raw_values=Column("list<string>", "raw annotated values mapped to the entity"),
            replacement_key=Column("string", "SGD pool key chosen (§7)"),
            replacement_surface=Column("string", "its surface"),
            sgd_sources=Column("list<string>", "SGD 'Service:slot' sources of the replacement"),
            n_text=Column("int32", "utterance mentions rewritten"),
            n_message=Column("int32", "goal-message mentions rewritten"),
            n_state=Column("int32", "state values rewritten (all turns)"),
            n_act=Column("int32", "dialogue-act values rewritten"),
            n_span=Column("int32", "span values rewritten"),
            n_goal=Column("int32", "goal values rewritten"),
            n_booked=Column("int32", "booked names rewritten"),
            grounded=Column("bool", "at least one utterance mention"),
        ),
        _spec(
            "unseen_leaks",
            "Leak report of the unseen-entity test set (§9 item 3): residual variants in text "
            "and structured fields, span errors, nested spans, overlapping mentions, unresolved "
            "booking names.",
            ("dialogue_id", "leak_index"),
            dialogue_id=_DID,
            leak_index=Column("int32", "order within the dialogue"),
            kind=Column("string", "text_residual, structured, structured_other_slot, "
                        "span_error, nested_span, overlap_error or unresolved_booking_name"),
            location=Column("string", "e.g. 'turn 5', 'goal message 1', 'state taxi-departure "
                            "turn 3'"),
            family=Column("string", "family of the entity concerned ('' if none)"),
            canonical=Column("string", "canonical of the entity concerned ('' if none)"),
            text=Column("string", "the offending text or value"),
            detail=Column("string", "why it is listed; residuals say 'defect' or why not"),
        ),
        _spec(
            "entity_bias",
            "Entity-bias measures of one (version, split) in Table 2 shape "
            "(spec-unseen-entity-test-set §11): one row per slot, ascending H1/H0.",
            ("version", "split", "slot"),
            version=Column("string", "dataset version, e.g. mwz21"),
            split=Column("string", "split, e.g. test, val, test_unseen"),
            rank=Column("int32", "1 = least uniform (lowest H1/H0); NA slots last"),
            slot=Column("string", "canonical domain-slot, e.g. 'hotel-book stay'"),
            table2_slot=Column("string", "Table 2 name, e.g. 'hotel-stay'"),
            r=Column("int64", "R: distinct values observed"),
            n=Column("int64", "counts (user turns, or dialogues under bias_count_unit)"),
            top_value=Column("string", "most frequent value; null when none", True),
            top_share=Column("float64", "fraction of counts of the top value; null when none",
                             True),
            h1_h0=Column("float64", "normalised Shannon entropy (fraction); null when R < 2",
                         True),
            hinf_h0=Column("float64", "normalised min-entropy (fraction); null when R < 2",
                           True),
            paper_h1_h0=Column("float64", "paper Table 2 (training split)"),
            paper_hinf_h0=Column("float64", "paper Table 2 (training split)"),
        ),
        _spec(
            "entity_bias_values",
            "Value distribution behind entity_bias: counts per (slot, value).",
            ("version", "split", "slot", "value"),
            version=Column("string", "dataset version"),
            split=Column("string", "split"),
            slot=Column("string", "canonical domain-slot"),
            value=Column("string", "counted value (lowercase, first alternative)"),
            count=Column("int64", "user turns (or dialogues) holding the value"),
        ),
    ]
}


_EMPTY_DTYPES = {"string": "str", "int32": "int32", "int64": "int64", "float64": "float64",
                 "bool": "bool", "list<string>": "object"}


def arrow_schema(spec: TableSpec) -> pa.Schema:
    """The Arrow schema a table is written with (column order as declared)."""
    import pyarrow as pa

    return pa.schema(
        [pa.field(n, _arrow_type(c.type), nullable=c.nullable) for n, c in spec.columns.items()]
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

    import pandas as pd

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
    if len(df) == 0:  # an empty table carries no values to infer types from
        df = pd.DataFrame({n: pd.Series([], dtype=_EMPTY_DTYPES[c.type])
                           for n, c in spec.columns.items()})
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
