"""Evaluation tables: corpus-level scores of every metric, the reference evaluator's
resources and per-dialogue Inform/Success (spec-standard-evaluation §5, §9-§10), and per-turn
DST outcomes (spec-dst-metrics §3-§7). Conventions: :mod:`mwzrepro.core.schemas`."""

from __future__ import annotations

from mwzrepro.core.schemas.spec import DIALOGUE_ID, Column, TableSpec, table

TABLES: tuple[TableSpec, ...] = (
    # --- tables: spine (bleu, tables) ---
    table(
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
    table(
        "eval_goals",
        "User goals in the reference evaluator's structure (spec-standard-evaluation §5.2), "
        "derived from the goals table. kind: informable (normalized slot name and value), "
        "requestable (unified name PHONE/ADDRESS/POST/REFERENCE/TRAINID in slot, value ''), "
        "booking (raw slot/value), present (marker row of a domain with no other rows).",
        ("dialogue_id", "domain", "kind", "position"),
        dialogue_id=DIALOGUE_ID,
        domain=Column("string", "goal domain"),
        kind=Column("string", "informable, requestable, booking or present"),
        position=Column("int32", "order within (dialogue, domain, kind)"),
        slot=Column("string", "slot name (informable: normalized, e.g. 'arrive')"),
        value=Column("string", "value (informable: normalized per §4.2)"),
    ),
    table(
        "booked_domains",
        "Domains (taxi excluded) with a completed booking at each system turn, from the "
        "booked table (spec-standard-evaluation §5.3); one row per system turn.",
        ("dialogue_id", "turn"),
        dialogue_id=DIALOGUE_ID,
        turn=Column("int32", "system-turn index"),
        domains=Column("list<string>", "booked domains in metadata order"),
    ),
    table(
        "gold_states",
        "Gold dialogue state of each system turn in the reference evaluator's normalized "
        "form (§4, §5.4): the state after the preceding user turn, dontcare slots dropped, "
        "slot names like 'bookpeople', 'arrive', domain/slot order as in the source.",
        ("dialogue_id", "turn"),
        dialogue_id=DIALOGUE_ID,
        turn=Column("int32", "system-turn index"),
        state_json=Column("string", "normalized state as compact JSON (key order kept)"),
    ),
    table(
        "turn_domains",
        "Ground-truth active domains of each system turn (DAMD turn-domain heuristic on "
        "the corpus states and system acts; the optimistic setting, §10 item 3).",
        ("dialogue_id", "turn"),
        dialogue_id=DIALOGUE_ID,
        turn=Column("int32", "system-turn index"),
        domains=Column("list<string>", "turn domains"),
    ),
    table(
        "success_dialogues",
        "Inform and Success of one system per dialogue and goal domain ('total' = all "
        "domains), per setting (spec-standard-evaluation §9-§10). Signatures in metadata.",
        ("setting", "dialogue_id", "domain"),
        setting=Column("string", "standard or optimistic"),
        dialogue_id=DIALOGUE_ID,
        domain=Column("string", "goal domain or 'total'"),
        inform=Column("bool", "the domain's venues match the goal (Inform)"),
        success=Column("bool", "Inform on all domains and every requested slot given"),
    ),
    table(
        "success_inputs",
        "One system's Inform/Success inputs on one version, prepared once for every fuzzy "
        "threshold (mwzrepro.standard.success_inputs; phase success-inputs): per system turn "
        "the normalized response, the normalized state the scorer uses (predicted or gold) and "
        "the standard setting's active domains. Sources, dialogue order, the "
        "threshold-independent scores rows and inform.matching in metadata.",
        ("dialogue_id", "turn"),
        dialogue_id=DIALOGUE_ID,
        turn=Column("int32", "system-turn index"),
        response=Column("string", "normalized response (spec-standard-evaluation §3)"),
        state=Column("string", "normalized state as compact JSON (key order kept; an array "
                     "is a tuple of alternatives)"),
        active_domains=Column("list<string>", "active domains of the standard setting"),
    ),
    table(
        "stats_replicates",
        "One metric family's figures of one version on every bootstrap resample "
        "(mwzrepro.stats.family; stats-resample): the figure in its unit (BLEU 0-100, rates "
        "in percent), NaN where the resample misses the system. Full-sample figures, "
        "signatures and the number of test dialogues in metadata.",
        ("figure", "system", "resample"),
        figure=Column("string", "figure key, e.g. 'inform-optimistic'"),
        system=Column("string", "system name"),
        resample=Column("int32", "resample index b (0 .. B-1)"),
        value=Column("float64", "the figure on resample b (NaN: undefined)", True),
    ),
    # --- tables: dst ---
    table(
        "dst_turns",
        "Per-turn DST outcomes of one scored run (spec-dst-metrics §3-§7): exact and local "
        "match, FGA kind and distance, wrong slots, AGA counts. Corpus figures and "
        "signatures are in the file metadata. -1 marks a count unknown for flag input.",
        ("dialogue_id", "turn"),
        dialogue_id=DIALOGUE_ID,
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
)
