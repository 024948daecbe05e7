"""``mwzrepro explain FILE ID --lexicalized --setting grounded``: the grounded Inform/Success
of one dialogue turn by turn (the addendum of :mod:`mwzrepro.standard.grounded`) — per turn the
response as given, the venues it names with their database records, each value it gives
marked correct or wrong against the venue it belongs to, and per active goal domain the
grounded offered set (named, or the state's query where no venue is linked) and the
requestables provided; then per goal domain why it informs or fails (matched automatically,
offered ⊆ goal venues, or which offered venue breaks which goal constraint) and Success.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from mwzrepro.core.errors import InputError
from mwzrepro.core.ids import canonical_dialogue_id
from mwzrepro.core.venue_database import ID_FIELD

if TYPE_CHECKING:
    from mwzrepro.scorer.context import ScoringContext

__all__ = ["grounded_trace", "format_grounded_trace"]

_RECORD_FIELDS = ("area", "pricerange", "food", "type", "stars", "entrancefee", "address",
                  "postcode", "phone", "departure", "destination", "day", "leave", "arrive",
                  "price")


def _why_inform(domain: str, goal: Mapping[str, Any], offered: list[str] | None,
               goal_venues: list[str], database: Any) -> str:
    """Why one goal domain informs or fails in the grounded setting (one phrase).

    >>> class DB:
    ...     def query(self, domain, c):
    ...         return ["1"] if c.get("area") in (None, "centre") else []
    ...     def entities(self, domain):
    ...         return [{"id": "1", "area": "centre"}, {"id": "2", "area": "north"}]
    >>> _why_inform("hotel", {"informable": {"area": "centre"}}, ["2"], ["1"], DB())
    "fails: 2 is no goal venue (area: 'north', goal 'centre')"
    """
    if offered is None:
        return "informs: matched automatically (no database domain, or a name goal never named)"
    if not offered:
        return "fails: no venue offered"
    bad = [v for v in offered if v not in goal_venues]
    if not bad:
        return f"informs: offered {', '.join(offered)} ⊆ goal venues"
    rows = {str(e.get(ID_FIELD[domain])): e for e in database.entities(domain)}
    reasons = []
    for v in bad[:3]:
        row = rows.get(v, {})
        slot = next((k for k, want in goal["informable"].items()
                     if v not in database.query(domain, {k: want})), None)
        reasons.append(f"{v} is no goal venue" + (
            "" if slot is None else f" ({slot}: {row.get(slot)!r}, goal {goal['informable'][slot]!r})"))
    return "fails: " + "; ".join(reasons)


def grounded_trace(ctx: ScoringContext, data: Mapping[str, Any], dialogue_id: str,
                   source: str = "<predictions>") -> dict[str, Any]:
    """The grounded trace of one dialogue of a lexicalized prediction mapping.

    Returns:
        ``{"dialogue_id", "goal", "turns": [{"turn", "user", "given", "delexicalized",
        "named": [{"domain", "id", "record"}], "values": [{"slot", "text", "venue",
        "correct"}], "domains": [trace record of
        :func:`~mwzrepro.standard.grounded.evaluate_grounded_dialogue`]}], "result":
        {domain: {"offered", "goal_venues", "why", "inform", "success"}}, "total": {...}}``.

    Raises:
        InputError: the dialogue is not in ``data`` (or the input is invalid, as
            :meth:`~mwzrepro.scorer.evaluator.Evaluator.evaluate`).
    """
    from mwzrepro.scorer.lexicalized.grounding import link_predictions, user_named
    from mwzrepro.scorer.lexicalized.delexicalize_pass import lex_state_source
    from mwzrepro.standard.grounded import evaluate_grounded_dialogue, named_venues
    from mwzrepro.standard.grounded_values import venue_records
    from mwzrepro.standard.grounding_metrics import corpus_attribute_checks

    did = canonical_dialogue_id(dialogue_id)
    raw = next((k for k in data if canonical_dialogue_id(k) == did), None)
    prep = ctx._prepare(data, source)[1]
    if raw is None or did not in prep.dialogues:
        raise InputError(f"{source}: dialogue {dialogue_id} is not in the predictions")
    # the file's state source, as scoring links it (not this dialogue's alone)
    links = link_predictions({raw: data[raw]}, ctx.resources, lex_state_source(data))[did]
    d, ev, db = prep.dialogues[did], ctx.resources.eval, ctx._database()
    users = user_named(ctx.resources).get(did, [])
    records: list[dict[str, Any]] = []
    outcome = evaluate_grounded_dialogue(ev.goals[did], ev.booked[did], d["responses"],
                                         d["states"], d["active_domains"],
                                         [r.spans for r in links], db, records, users)
    venues = venue_records(db)
    utterances = ctx.resources.user_utterances(did)
    values: dict[int, list[dict[str, Any]]] = {}
    for _, t, check in corpus_attribute_checks({did: d}, {did: links}, db, {did: users}):
        values.setdefault(t, []).append(check)
    turns = []
    for t in range(len(d["states"])):
        linked = links[t]
        named = named_venues(linked.spans)
        turns.append({
            "turn": t, "user": utterances[t] if t < len(utterances) else "",
            "given": data[raw][t].get("response", ""), "delexicalized": linked.text,
            "named": [{"domain": dom, "id": i, "record": {
                k: v for k, v in (venues.get((dom, i)) or [{}])[0].items()
                if k in _RECORD_FIELDS or k == "name"}} for dom, ids in named.items()
                for i in ids],
            "values": values.get(t, []),
            "domains": [r for r in records if r["turn"] == t]})
    result = {}
    for domain, g in ev.goals[did].items():
        goal_venues = db.query(domain, g["informable"]) if domain in db.domains else []
        offered = outcome.offered.get(domain)
        result[domain] = {"offered": offered, "goal_venues": goal_venues,
                          "why": _why_inform(domain, g, offered, goal_venues, db),
                          "inform": outcome.inform[domain],
                          "success": outcome.success[domain]}
    return {"dialogue_id": did, "goal": ev.goals[did], "turns": turns, "result": result,
            "total": {"inform": outcome.inform["total"],
                      "success": outcome.success["total"]}}


def format_grounded_trace(trace: Mapping[str, Any]) -> str:
    """The text of ``explain --setting grounded`` (:func:`grounded_trace`)."""
    out = [f"dialogue {trace['dialogue_id']} — grounded Inform/Success (lexicalized text "
           "checked against the database)"]
    for dom, g in trace["goal"].items():
        out.append(f"goal {dom}: informable {dict(g.get('informable', {}))}, requestable "
                   f"{list(g.get('requestable', []))}")
    for t in trace["turns"]:
        out += ["", f"turn {t['turn']}"]
        if t["user"]:
            out.append(f"  user:       {t['user']}")
        out.append(f"  given:      {t['given']}")
        for n in t["named"]:
            record = ", ".join(f"{k} {v}" for k, v in n["record"].items() if k != "name")
            out.append(f"  named:      {n['domain']} {n['id']} {n['record'].get('name', '')}"
                       f" — {record}")
        for v in t["values"]:
            mark = "correct" if v["correct"] else "WRONG"
            out.append(f"  value:      {v['slot']} {v['text']!r}: {mark} "
                       f"({v['venue'][0]} {v['venue'][1]})")
        for r in t["domains"]:
            how = {"named": "named", "state": "state query (no linked name)",
                   None: "unchanged"}[r["rule"]]
            out.append(f"  {r['domain']}: offered {' '.join(r['offered']) or '∅'} ({how})"
                       + (f"; provided +{' +'.join(r['provided'])}" if r["provided"] else ""))
    out += ["", "result"]
    for dom, r in trace["result"].items():
        out.append(f"  {dom}: {r['why']}; goal venues {len(r['goal_venues'])}; inform "
                   f"{r['inform']}, success {r['success']}")
    out.append(f"  total: inform {trace['total']['inform']}, success "
               f"{trace['total']['success']}")
    return "\n".join(out) + "\n"
