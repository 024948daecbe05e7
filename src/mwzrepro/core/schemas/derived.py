"""Tables derived from a dataset: the annotation-consistency correction
(spec-annotation-consistency §6-§9), the unseen-entity test set and its reports, and the
entity-bias measures (spec-unseen-entity-test-set §4-§11). Conventions:
:mod:`mwzrepro.core.schemas`."""

from __future__ import annotations

from mwzrepro.core.schemas.spec import DIALOGUE_ID, Column, TableSpec, table

TABLES: tuple[TableSpec, ...] = (
    # --- tables: annotation consistency ---
    table(
        "states_corrected",
        "Corrected belief states B'_t (spec-annotation-consistency §6): the columns of "
        "'states' plus provenance. alternatives holds the merged detection list (§6.4).",
        ("dialogue_id", "turn", "domain", "slot"),
        dialogue_id=DIALOGUE_ID,
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
    table(
        "consistency_changes",
        "Change log of the annotation-consistency correction (§6.6 item 2): one row per "
        "value of each non-empty detection, before carry-forward.",
        ("dialogue_id", "turn", "domain", "slot", "rank"),
        dialogue_id=DIALOGUE_ID,
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
    table(
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
    table(
        "consistency_units",
        "Every user turn of a corrected split with its context, the unit of the manual "
        "verification sample (spec-annotation-consistency §9.3).",
        ("dialogue_id", "turn"),
        dialogue_id=DIALOGUE_ID,
        turn=Column("int32", "user-turn index t"),
        system_text=Column("string", "S_t ('' at t = 0)"),
        user_text=Column("string", "U_t"),
        original=Column("string", "O_t as 'domain-slot=value; ...'"),
        added=Column("string", "added or filled slots of B'_t as 'domain-slot=value; ...'"),
        modified=Column("bool", "the turn has at least one added or filled slot"),
    ),
    # --- tables: unseen entities and entity bias ---
    table(
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
    table(
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
    table(
        "unseen_mapping",
        "Mapping report of the unseen-entity test set (§9 item 2): one row per (dialogue, "
        "entity) with its replacement and the number of rewritten mentions and values.",
        ("dialogue_id", "family", "canonical"),
        dialogue_id=DIALOGUE_ID,
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
    table(
        "unseen_leaks",
        "Leak report of the unseen-entity test set (§9 item 3): residual variants in text "
        "and structured fields, span errors, nested spans, overlapping mentions, unresolved "
        "booking names.",
        ("dialogue_id", "leak_index"),
        dialogue_id=DIALOGUE_ID,
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
    table(
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
    table(
        "entity_bias_values",
        "Value distribution behind entity_bias: counts per (slot, value).",
        ("version", "split", "slot", "value"),
        version=Column("string", "dataset version"),
        split=Column("string", "split"),
        slot=Column("string", "canonical domain-slot"),
        value=Column("string", "counted value (lowercase, first alternative)"),
        count=Column("int64", "user turns (or dialogues) holding the value"),
    ),
)
