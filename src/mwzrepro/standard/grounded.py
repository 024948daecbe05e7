"""The ``grounded`` Inform/Success setting of lexicalized responses (spec addendum
to spec-standard-evaluation §9, signature field ``set:grounded``, with ``lex:<rule>-<state>``
as every lexicalized score).

**Why.** After delexicalization, ``standard`` scores the *state*: a response that names the
wrong restaurant, or gives an invented phone number, scores exactly like the right one
(``NAME`` offers the state's query result, ``PHONE`` provides the phone). For lexicalized
output — how LLM-based systems answer — the text is the answer, so this setting reads the
venues and values the text gives, linked to the database by lex:1
(:meth:`mwzrepro.prepare.delex.delexicalize_responses.Delexicalizer.link`).

**The rule.** Identical to ``standard`` (§9.2, :func:`mwzrepro.standard.inform_success.
evaluate_dialogue`: same turn loop, active domains, replacement rule of offers, subset rule,
fuzzy matching, booked-domain rule for references, auto-matched taxi/police/hospital, the
train goal without a ``TRAINID`` request, rates), except:

1. *Offered venues.* In a turn whose response names database venues of a goal domain (a
   ``name`` span linked to venues of that domain; for train, a ``trainid`` span whose id is
   in the database), this turn's found venues are the named ones (their ids, in the order
   named), not the state's query result. A turn that names none of that domain keeps
   ``standard``'s rule (``NAME``/``TRAINID`` in the response → the state's query result) only
   while the response has a ``NAME`` (``TRAINID``) that is *not* linked — a placeholder the
   file already had, or a bracketed name the rule could not link; when every name of the
   response is linked to venues of other domains, the domain is not offered in that turn.
2. *Inform.* A goal with a ``name`` is no longer matched automatically: its goal venues are
   the query of its informable slots, name included, and the subset rule applies to the
   offered venues. A name goal whose domain was never offered (the system never named a
   venue of it, e.g. the user named it and the system answered about "it") keeps
   ``standard``'s automatic match — nothing named, nothing contradicted.
3. *Success.* A requestable counts as provided only when the response gives its value for
   the venue in focus: the venues of the domain named in this response, else the last
   venues of the domain named earlier in the dialogue — by the system or by the user (``what
   is the phone number of the Gonville?``) — else the venue of the state's
   ``name`` (the one the conversation is about although the system never named it):
   phone, address and postcode must equal that venue's field up to formatting
   (:func:`~mwzrepro.standard.grounded_values.same_value`); ``TRAINID`` needs a named train
   id that satisfies the goal's constraints; ``REFERENCE`` needs a value of booking-reference
   shape (lex:1 rule 2 — references are generated, so any is right). A placeholder the file
   already had gives no value and provides nothing. Police and hospital contact values are
   checked against the stations' facts; taxi has no database (its phone and car are
   generated), so taxi keeps ``standard``'s crediting.

>>> from mwzrepro.prepare.delex.delexicalize_responses import Span
>>> class DB:
...     domains = ("restaurant",)
...     def query(self, domain, c):
...         return ["1"] if c.get("food") == "thai" or c.get("name") == "bangkok city" else []
...     def entities(self, domain):
...         return [{"id": "1", "name": "bangkok city", "phone": "01223354382"},
...                 {"id": "2", "name": "nandos", "phone": "01223327908"}]
>>> goal = {"restaurant": {"informable": {"food": "thai"}, "requestable": ["PHONE"]}}
>>> def run(name, ref, phone):
...     spans = (Span("name", name, 0, 6, (("restaurant", ref),)), Span("phone", phone, 15, 22))
...     return evaluate_grounded_dialogue(goal, [[]], ["NAME , phone PHONE ."],
...         [{"restaurant": {"food": "thai"}}], [["restaurant"]], [spans], DB())
>>> o = run("Bangkok City", "1", "01223 354382"); o.inform["total"], o.success["total"]
(True, True)
>>> run("Nandos", "2", "01223 327908").inform["total"]      # the wrong venue, named
False
>>> run("Bangkok City", "1", "01223 111111").success["total"]  # an invented phone
False
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mwzrepro.prepare.delex.delexicalize_responses import Span
from mwzrepro.standard.grounded_values import state_venue, venue_records
from mwzrepro.standard.inform_success import (
    AUTO_MATCHED_DOMAINS,
    DB_DOMAINS,
    MATCHED,
    NAME_DOMAINS,
    REQUESTABLES,
    DialogueOutcome,
    outcome_of,
)

__all__ = ["SETTING", "named_venues", "evaluate_grounded_dialogue",
           "grounded_dialogue_rows"]

#: The setting's name (the ``set`` field of its signatures).
SETTING = "grounded"

#: Requestable placeholder → the span slot whose value provides it.
_VALUE_SLOTS = {"PHONE": "phone", "ADDRESS": "address", "POST": "postcode"}
_CHECKED_DOMAINS = NAME_DOMAINS | {"police", "hospital"}


def named_venues(spans: Sequence[Span]) -> dict[str, list[str]]:
    """``{domain: [entity id, ...]}`` of the venues and trains a response names (``name``
    and ``trainid`` spans with entities; taxi endpoints are not offers), ids in first-named
    order.

    >>> named_venues([Span("name", "ask", 0, 6, (("restaurant", "3"),)),
    ...               Span("trainid", "TR1234", 9, 18, (("train", "TR1234"),))])
    {'restaurant': ['3'], 'train': ['TR1234']}
    """
    out: dict[str, list[str]] = {}
    for span in spans:
        if span.slot in ("name", "trainid"):
            for domain, eid in span.entities:
                ids = out.setdefault(domain, [])
                if eid not in ids:
                    ids.append(eid)
    return out


def _focus_venues(domain: str, named_now: Mapping[str, list[str]],
                  named_before: Mapping[str, list[str]], state: Mapping[str, Any],
                  database: Any) -> list[tuple[str, str]]:
    """The venues in focus of ``domain`` in a turn (rule 3 of the module docstring):
    ``[(domain, entity id), ...]``."""
    ids = named_now.get(domain) or named_before.get(domain)
    if not ids and domain in ("police", "hospital"):
        from mwzrepro.prepare.delex.value_lexicon import STATIONS

        ids = [STATIONS[domain]["name"]]
    if not ids and domain in NAME_DOMAINS:
        return state_venue(domain, state, database)
    return [(domain, i) for i in ids or ()]


def _credited(domain: str, mention: str, spans: Sequence[Span], focus: list[tuple[str, str]],
              booked_now: Sequence[str], train_goal: list[str] | None,
              records: Any) -> tuple[bool, list[dict[str, Any]]]:
    """Whether ``mention`` is provided for ``domain`` in this turn, with the value checks."""
    if mention == "REFERENCE":
        return domain in booked_now and any(s.slot == "ref" for s in spans), []
    if mention == "TRAINID":
        if domain != "train":
            return True, []
        ids = [eid for s in spans if s.slot == "trainid" for _, eid in s.entities]
        return any(i in (train_goal or ()) for i in ids), []
    if domain not in _CHECKED_DOMAINS:
        return True, []
    slot = _VALUE_SLOTS[mention]
    checks = []
    for span in spans:
        if span.slot == slot:
            for ref in focus:
                ok = records.check(ref, slot, span.text)
                if ok is not None:
                    checks.append({"slot": slot, "text": span.text, "venue": list(ref),
                                   "correct": ok})
    return any(c["correct"] for c in checks), checks


def evaluate_grounded_dialogue(
    goal: Mapping[str, Mapping[str, Any]],
    booked: Sequence[Sequence[str]],
    responses: Sequence[str],
    states: Sequence[Mapping[str, Mapping[str, str]]],
    active_domains: Sequence[Sequence[str]],
    links: Sequence[Sequence[Span]],
    database: Any,
    trace: list[dict[str, Any]] | None = None,
    user_named: Sequence[Mapping[str, list[str]]] = (),
) -> DialogueOutcome:
    """Inform and Success of one dialogue in the grounded setting (module docstring).

    Args:
        goal, booked, responses, states, active_domains: as
            :func:`mwzrepro.standard.inform_success.evaluate_dialogue`.
        links: per turn the entity-linked spans of the response (lex:1 ``link``).
        database: the venue database (``query``, ``domains``, ``entities``).
        trace: if given, one record per (turn, active goal domain): ``{"turn", "domain",
            "named": ids this response names or None, "rule": "named" | "state" | None,
            "found", "offered", "provided", "checks": [{"slot", "text", "venue",
            "correct"}]}``.
        user_named: per turn the venues the user utterance before it names
            (:func:`named_venues` of its spans): they move the focus, never offer.

    Returns:
        :class:`~mwzrepro.standard.inform_success.DialogueOutcome` (``offered`` as there).
    """
    records = venue_records(database)
    offered: dict[str, Any] = {d: [] for d in goal}
    provided: dict[str, set[str]] = {d: set() for d in goal}
    named_before: dict[str, list[str]] = {}
    train_goal = (database.query("train", goal["train"]["informable"])
                  if "train" in goal else None)
    for t, (response, state, booked_now, active, spans) in enumerate(
            zip(responses, states, booked, active_domains, links)):
        named_before.update(user_named[t] if t < len(user_named) else {})
        named_now = named_venues(spans)
        linked = [s for s in spans if s.entities]
        loose_name = response.count("NAME") > sum(s.slot == "name" for s in linked)
        loose_train = response.count("TRAINID") > sum(s.slot == "trainid" for s in linked)
        mentions = [x for x in REQUESTABLES if x in response]
        for domain in goal:
            if domain not in active:
                continue
            found, rule = None, None
            if domain in named_now and domain in DB_DOMAINS:
                found, rule = named_now[domain], "named"
            elif (loose_name and domain in NAME_DOMAINS) or (loose_train and domain == "train"):
                found = database.query(domain, state[domain]) if domain in state else []
                rule = "state"
            if found is not None:
                previous = offered[domain]
                if not previous or any(v not in found for v in previous):
                    offered[domain] = list(found)
            focus = (_focus_venues(domain, named_now, named_before, state, database)
                     if domain in _CHECKED_DOMAINS and any(x in _VALUE_SLOTS for x in mentions)
                     else [])        # only the values of PHONE, ADDRESS, POST read it
            credited, checks = [], []
            for x in mentions:
                ok, c = _credited(domain, x, spans, focus, booked_now, train_goal, records)
                checks += c
                if ok:
                    credited.append(x)
            provided[domain].update(credited)
            if trace is not None:
                trace.append({"turn": t, "domain": domain, "named": named_now.get(domain),
                              "rule": rule, "found": found, "offered": list(offered[domain]),
                              "provided": credited, "checks": checks})
        for domain, ids in named_now.items():
            named_before[domain] = ids

    for domain, g in goal.items():
        never = isinstance(offered[domain], list) and not offered[domain]
        if domain in AUTO_MATCHED_DOMAINS or ("name" in g["informable"] and never):
            offered[domain] = MATCHED
        elif domain == "train" and never and "TRAINID" not in g["requestable"]:
            offered[domain] = MATCHED

    return outcome_of(goal, offered, provided, database.query)


def grounded_dialogue_rows(
    dialogues: Mapping[str, Mapping[str, Sequence[Any]]],
    links: Mapping[str, Sequence[Sequence[Span]]],
    goals: Mapping[str, Mapping[str, Mapping[str, Any]]],
    booked: Mapping[str, Sequence[Sequence[str]]],
    database: Any,
    user_named: Mapping[str, Sequence[Mapping[str, list[str]]]] | None = None,
    memo: Any = None,
) -> list[dict[str, Any]]:
    """Rows ``{setting: "grounded", dialogue_id, domain, inform, success}`` of every dialogue
    (as :func:`mwzrepro.standard.inform_success.dialogue_rows`, ``memo`` too; ``links`` keyed
    by the same dialogue ids; a dialogue without goal is skipped — the standard rows of the
    same call already rejected it)."""
    rows: list[dict[str, Any]] = []
    for did, d in dialogues.items():
        if did not in goals or did not in booked:
            continue

        def outcome(db: Any, did: str = did, d: Mapping[str, Any] = d) -> DialogueOutcome:
            return evaluate_grounded_dialogue(goals[did], booked[did], d["responses"],
                                              d["states"], d["active_domains"], links[did], db,
                                              user_named=(user_named or {}).get(did, ()))

        out = (outcome(database) if memo is None
               else memo.value(("grounded",), did, database, outcome))
        for domain, ok in out.inform.items():
            rows.append({"setting": SETTING, "dialogue_id": did, "domain": domain,
                         "inform": ok, "success": out.success[domain]})
    return rows
