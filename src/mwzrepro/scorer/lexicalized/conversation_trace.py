"""``mwzrepro explain FILE DIALOGUE_ID`` for a conversation file: the conversation turn by
turn, with the active domains (rule 2 of :mod:`mwzrepro.standard.conversation`), the venues
each response names (goal venue or not), each value it gives marked correct or WRONG against
the database, the booked domains (rule 3), the offers after the turn, and the outcome.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mwzrepro.core.errors import InputError

__all__ = ["conversation_trace", "explain_conversation"]


def _venue_label(database: Any, domain: str, eid: str) -> str:
    from mwzrepro.standard.grounded_values import venue_records

    rows = venue_records(database).get((domain, eid))
    name = rows[0].get("name") if rows and domain != "train" else eid
    return f"{domain}:{name or eid}"


def conversation_trace(traces: Mapping[str, Mapping[str, Any]], dialogue_id: str,
                       database: Any) -> dict[str, Any]:
    """The trace of one conversation (``explain --format json``): ``{"dialogue_id", "goal":
    {domain: {"informable", "requestable"}}, "turns": [{"turn", "user", "system", "active",
    "booked", "named": [{"domain", "venue", "goal_venue": bool or None}], "values": [{"slot",
    "text", "venue", "correct"}], "offers": {domain: {"offered", "provided"}}}], "outcome":
    {"inform", "success"}}``; ``traces`` as :func:`~mwzrepro.scorer.lexicalized.conversations.
    score_conversations` fills them.

    Raises:
        InputError: the dialogue is not in the file.
    """
    from mwzrepro.core.ids import canonical_dialogue_id
    from mwzrepro.standard.grounded import named_venues
    from mwzrepro.standard.inform_success import DB_DOMAINS

    did = canonical_dialogue_id(dialogue_id)
    if did not in traces:
        raise InputError(f"dialogue {dialogue_id} is not in the conversation file")
    t = traces[did]
    out, goal, conv = t["outcome"], t["goal"], t["conversation"]
    goal_venues = {d: set(database.query(d, g["informable"])) for d, g in goal.items()
                   if d in DB_DOMAINS}
    offers: dict[int, dict[str, Any]] = {}
    for r in out.trace:
        if r["provided"] or r["found"] is not None:
            offers.setdefault(r["turn"], {})[r["domain"]] = {"offered": r["offered"],
                                                             "provided": r["provided"]}
    turns = []
    for i, ((user, system), linked) in enumerate(zip(conv.turns, t["systems"])):
        named = [{"domain": d, "venue": _venue_label(database, d, e),
                  "goal_venue": None if d not in goal_venues else e in goal_venues[d]}
                 for d, ids in named_venues(linked.spans).items() for e in ids]
        values = [{"slot": c["slot"], "text": c["text"],
                   "venue": _venue_label(database, *c["venue"]), "correct": c["correct"]}
                  for c in t["checks"] if c["turn"] == i]
        turns.append({"turn": i, "user": user, "system": system, "active": out.active[i],
                      "booked": out.booked[i], "named": named, "values": values,
                      "offers": offers.get(i, {})})
    return {"dialogue_id": did,
            "goal": {d: {"informable": g["informable"], "requestable": g["requestable"]}
                     for d, g in goal.items()},
            "turns": turns, "outcome": {"inform": out.outcome.inform,
                                        "success": out.outcome.success}}


def explain_conversation(traces: Mapping[str, Mapping[str, Any]], dialogue_id: str,
                         database: Any) -> str:
    """The text block of one conversation (module docstring; :func:`conversation_trace`).

    Raises:
        InputError: the dialogue is not in the file.
    """
    tr = conversation_trace(traces, dialogue_id, database)
    lines = [f"conversation {tr['dialogue_id']} — {len(tr['turns'])} turns, scored against "
             "the goal (set:conversation)"]
    for d, g in tr["goal"].items():
        lines.append(f"  goal {d}: {g['informable']}  requestables {g['requestable']}")
    for turn in tr["turns"]:
        lines += [f"turn {turn['turn']}  active {turn['active'] or '–'}"
                  + (f"  booked {turn['booked']}" if turn["booked"] else ""),
                  f"  user:    {turn['user']}", f"  system:  {turn['system']}"]
        by_domain: dict[str, list[str]] = {}
        for n in turn["named"]:
            mark = {None: "", True: " (goal venue)", False: " (NOT a goal venue)"}
            by_domain.setdefault(n["domain"], []).append(n["venue"] + mark[n["goal_venue"]])
        lines += [f"  names:   {', '.join(marks)}" for marks in by_domain.values()]
        lines += [f"  value:   {c['slot']} {c['text']!r} of {c['venue']}: "
                  f"{'correct' if c['correct'] else 'WRONG'}" for c in turn["values"]]
        lines += [f"  {d}: offered {r['offered']}"
                  + (f", provides {r['provided']}" if r["provided"] else "")
                  for d, r in turn["offers"].items()]
    inform, success = tr["outcome"]["inform"], tr["outcome"]["success"]
    lines.append("outcome: " + ", ".join(
        f"{d} Inform {'yes' if inform[d] else 'no'} Success {'yes' if success[d] else 'no'}"
        for d in inform))
    return "\n".join(lines) + "\n"
