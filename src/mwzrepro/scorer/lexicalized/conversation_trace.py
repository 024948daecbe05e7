"""``mwzrepro explain FILE DIALOGUE_ID`` for a conversation file: the conversation turn by
turn, with the active domains (rule 2 of :mod:`mwzrepro.standard.conversation`), the venues
each response names (goal venue or not), each value it gives marked correct or WRONG against
the database, the booked domains (rule 3), the offers after the turn, and the outcome.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mwzrepro.core.errors import InputError

__all__ = ["explain_conversation"]


def _venue_label(database: Any, domain: str, eid: str) -> str:
    from mwzrepro.standard.grounded_values import venue_records

    rows = venue_records(database).get((domain, eid))
    name = rows[0].get("name") if rows and domain != "train" else eid
    return f"{domain}:{name or eid}"


def explain_conversation(traces: Mapping[str, Mapping[str, Any]], dialogue_id: str,
                         database: Any) -> str:
    """The text block of one conversation (module docstring); ``traces`` as
    :func:`~mwzrepro.scorer.lexicalized.conversations.score_conversations` fills them.

    Raises:
        InputError: the dialogue is not in the file.
    """
    from mwzrepro.core.ids import canonical_dialogue_id
    from mwzrepro.standard.grounded import named_venues

    did = canonical_dialogue_id(dialogue_id)
    if did not in traces:
        raise InputError(f"dialogue {dialogue_id} is not in the conversation file")
    t = traces[did]
    out, goal, conv = t["outcome"], t["goal"], t["conversation"]
    goal_venues = {d: set(database.query(d, g["informable"])) for d, g in goal.items()
                   if d in ("restaurant", "hotel", "attraction", "train")}
    lines = [f"conversation {did} — {len(conv.turns)} turns, scored against the goal "
             "(set:conversation)"]
    for d, g in goal.items():
        lines.append(f"  goal {d}: {g['informable']}  requestables {g['requestable']}")
    offers = {}
    for r in out.trace:
        offers.setdefault(r["turn"], {})[r["domain"]] = r
    for i, ((user, system), linked) in enumerate(zip(conv.turns, t["systems"])):
        lines += [f"turn {i}  active {out.active[i] or '–'}"
                  + (f"  booked {out.booked[i]}" if out.booked[i] else ""),
                  f"  user:    {user}", f"  system:  {system}"]
        for domain, ids in named_venues(linked.spans).items():
            marks = [f"{_venue_label(database, domain, e)}"
                     + ("" if domain not in goal_venues else
                        " (goal venue)" if e in goal_venues[domain] else " (NOT a goal venue)")
                     for e in ids]
            lines.append(f"  names:   {', '.join(marks)}")
        for c in (c for c in t["checks"] if c["turn"] == i):
            lines.append(f"  value:   {c['slot']} {c['text']!r} of "
                         f"{_venue_label(database, *c['venue'])}: "
                         f"{'correct' if c['correct'] else 'WRONG'}")
        for domain, r in offers.get(i, {}).items():
            if r["provided"] or r["found"] is not None:
                lines.append(f"  {domain}: offered {r['offered']}"
                             + (f", provides {r['provided']}" if r["provided"] else ""))
    inform, success = out.outcome.inform, out.outcome.success
    lines.append("outcome: " + ", ".join(
        f"{d} Inform {'yes' if inform[d] else 'no'} Success {'yes' if success[d] else 'no'}"
        for d in inform))
    return "\n".join(lines) + "\n"

