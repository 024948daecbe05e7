"""Canonical dataset tables: what ``ingest``, ``redelex`` and ``predictions`` write for one
(version, split) or one system (dialogues, turns, spans, acts, states, booked, goals,
references, predictions, coverage). Conventions: :mod:`mwzrepro.core.schemas`."""

from __future__ import annotations

from mwzrepro.core.schemas.spec import DIALOGUE_ID, TURN_ID, Column, TableSpec, table

TABLES: tuple[TableSpec, ...] = (
    table(
        "dialogues",
        "One row per dialogue of a (version, split): where it came from and its length.",
        ("dialogue_id",),
        dialogue_id=DIALOGUE_ID,
        source_id=Column("string", "dialogue id exactly as in the source file"),
        split=Column("string", "test, val or train"),
        n_turns=Column("int32", "number of log entries (user + system utterances)"),
    ),
    table(
        "turns",
        "Every utterance of a (version, split). Text verbatim from the source (2.0/2.1 "
        "ConvLab text is already tokenized; 2.2 text is not).",
        ("dialogue_id", "turn_id"),
        dialogue_id=DIALOGUE_ID,
        turn_id=TURN_ID,
        speaker=Column("string", "'user' or 'system'"),
        text=Column("string", "the utterance"),
    ),
    table(
        "spans",
        "Dialogue-act value spans, as character offsets into turns.text. 2.0/2.1 word "
        "indices (inclusive end) are converted on ingest. span_index keeps source order, "
        "which decides overlaps in delexicalization (spec-standard-evaluation §5.4).",
        ("dialogue_id", "turn_id", "span_index"),
        dialogue_id=DIALOGUE_ID,
        turn_id=TURN_ID,
        span_index=Column("int32", "order of the span within its turn in the source"),
        act=Column("string", "dialogue act as in the source, e.g. 'Restaurant-Inform'"),
        domain=Column("string", "lowercase act domain, e.g. 'restaurant', 'booking'"),
        slot=Column("string", "MultiWOZ 2.2 slot name, e.g. 'address', 'leaveat', 'ref'"),
        source_slot=Column("string", "slot name exactly as in the source, e.g. 'Addr'"),
        value=Column("string", "annotated value"),
        start=Column("int32", "first character of the span in text"),
        end=Column("int32", "one past the last character of the span"),
    ),
    table(
        "acts",
        "Every dialogue act (domain-intent, slot, value) of every turn, with or without span.",
        ("dialogue_id", "turn_id", "act_index"),
        dialogue_id=DIALOGUE_ID,
        turn_id=TURN_ID,
        act_index=Column("int32", "order within the turn in the source"),
        act=Column("string", "e.g. 'Restaurant-Inform', 'general-bye'"),
        domain=Column("string", "lowercase domain of the act"),
        intent=Column("string", "lowercase intent of the act, e.g. 'inform', 'request'"),
        slot=Column("string", "slot as in the source ('none' when the act has no slot)"),
        value=Column("string", "value as in the source ('?' for requests, 'none' if none)"),
    ),
    table(
        "states",
        "Belief state after each user turn, long format: one row per filled slot. Slot "
        "names are the spec-dst-metrics §2.2 canonical names ('leaveat', 'book people'). "
        "Values verbatim; the empty markers '', 'not mentioned' and 'none' are dropped on "
        "ingest, 'dontcare' (and its spellings) is kept. position keeps the source's "
        "domain/slot order "
        "(the reference evaluator's domain estimation depends on it).",
        ("dialogue_id", "turn", "domain", "slot"),
        dialogue_id=DIALOGUE_ID,
        turn=Column("int32", "user-turn index t"),
        domain=Column("string", "lowercase domain, all domains of the source"),
        slot=Column("string", "canonical slot name"),
        value=Column("string", "primary value"),
        alternatives=Column("list<string>", "all acceptable values (2.2); [value] otherwise"),
        position=Column("int32", "order of the slot within the turn's state in the source"),
    ),
    table(
        "booked",
        "Completed bookings recorded in 2.0/2.1 metadata (book.booked), per system turn.",
        ("dialogue_id", "turn", "domain"),
        dialogue_id=DIALOGUE_ID,
        turn=Column("int32", "system-turn index"),
        domain=Column("string", "lowercase domain with a non-empty booked list"),
        n_booked=Column("int32", "length of the booked list"),
        position=Column("int32", "order of the domain in the turn's metadata"),
    ),
    table(
        "goals",
        "The user goal of each dialogue (2.0/2.1 'goal' field), long format. kind is one of "
        "info, reqt, book, fail_info, fail_book; reqt rows have an empty value.",
        ("dialogue_id", "domain", "kind", "position"),
        dialogue_id=DIALOGUE_ID,
        domain=Column("string", "lowercase domain"),
        kind=Column("string", "info, reqt, book, fail_info or fail_book"),
        position=Column("int32", "order within (domain, kind) in the source"),
        slot=Column("string", "slot name as in the source, e.g. 'leaveAt', 'car type'"),
        value=Column("string", "value as in the source ('' for reqt)"),
    ),
    table(
        "references",
        "Span-based delexicalized reference responses, one row per system turn "
        "(spec-standard-evaluation §5.4 applied to this version's spans).",
        ("dialogue_id", "turn"),
        dialogue_id=DIALOGUE_ID,
        turn=Column("int32", "system-turn index"),
        text=Column("string", "original system utterance"),
        delex=Column("string", "utterance with value spans replaced by [slot] placeholders"),
        reference=Column("string", "delex after response normalization (§3): the BLEU ref"),
    ),
    table(
        "predictions",
        "One system's outputs (mwzeval input format), one row per predicted system turn.",
        ("dialogue_id", "turn"),
        dialogue_id=DIALOGUE_ID,
        turn=Column("int32", "system-turn index"),
        response=Column("string", "raw generated response"),
        response_norm=Column("string", "response after spec-standard-evaluation §3"),
        state_json=Column(
            "string", "predicted state as compact JSON (key order kept); null if absent", True
        ),
        active_domains=Column("list<string>", "given active domains; null if absent", True),
    ),
    table(
        "coverage",
        "How much of the test set a prediction file covers, per dialogue.",
        ("dialogue_id",),
        dialogue_id=DIALOGUE_ID,
        expected_turns=Column("int32", "system turns in the test set"),
        predicted_turns=Column("int32", "system turns in the prediction file (0 = missing)"),
    ),
)
