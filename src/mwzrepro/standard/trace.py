"""The Inform/Success trace of one dialogue: what the reference evaluator's algorithm
(spec-standard-evaluation §9.2) saw and decided turn by turn — the paper's Appendix A
(Nekvinda & Dušek 2021, Table 7; spec-paper-tables §3; worked example §9.4).

The trace is recorded by :func:`mwzrepro.standard.inform_success.evaluate_dialogue` itself
(its ``trace`` argument), so it can never disagree with the scores. Per turn:

* the user utterance before the system turn and the ground-truth response (when given);
* the normalized generated response (§3) and the state used (§4, predicted or gold);
* the active domains (§8);
* per active goal domain: the change of the offered venues — ``-`` (no ``NAME``/``TRAINID``
  placeholder, no query), ``set`` (first offer), ``no update`` (the previous offer is a subset
  of this turn's query result, §9.2), ``replaced`` (a new offer, possibly empty);
* per active goal domain: the requestables credited in this turn (``REFERENCE`` only where
  the corpus has a booking, §9.2) and all provided so far.

At the end: the goal venues (the database query of the goal's informable slots, §6), the
offered venues, and Inform/Success per goal domain (:class:`DialogueTrace`).

Example (the §9.4 shape on a two-venue toy database):
    >>> class DB:
    ...     def query(self, domain, c):
    ...         return ["1", "2"] if c.get("area") is None else ["1"]
    >>> goal = {"restaurant": {"informable": {"food": "chinese"}, "requestable": ["POST"]}}
    >>> t = trace_dialogue("d1", goal, [[], []], ["NAME is nice.", "NAME, POST."],
    ...     [{"restaurant": {"food": "chinese", "area": "centre"}}] * 2,
    ...     [["restaurant"], ["restaurant"]], DB())
    >>> [turn.offers["restaurant"].change for turn in t.turns]
    ['set', 'no update']
    >>> t.goal_venues["restaurant"], t.outcome.inform["total"], t.outcome.success["total"]
    (['1', '2'], True, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mwzrepro.standard.inform_success import (
    DB_DOMAINS,
    DialogueOutcome,
    VenueQuery,
    evaluate_dialogue,
    reduce_constraints,
)

__all__ = ["OfferChange", "TraceTurn", "DialogueTrace", "trace_dialogue", "dialogue_row"]


@dataclass(frozen=True)
class OfferChange:
    """The offered venues of one goal domain across one turn.

    Attributes:
        change: ``-`` (not queried), ``set``, ``no update`` or ``replaced``.
        found: the query result of this turn (None when not queried).
        offered: the offered venue ids after the turn.
    """

    change: str
    found: list[str] | None
    offered: list[str]


@dataclass(frozen=True)
class TraceTurn:
    """One system turn of the trace (module docstring).

    Attributes:
        turn: system-turn index (0-based).
        user: the user utterance before it ("" when unknown).
        reference: the ground-truth (normalized, delexicalized) response ("" when unknown).
        response: the normalized generated response.
        state: the state used ``{domain: {slot: value}}``.
        active_domains: the turn's active domains.
        offers: ``{goal domain: OfferChange}`` for the active goal domains.
        provided: ``{goal domain: [requestables credited in this turn]}``.
        provided_so_far: ``{goal domain: sorted requestables provided up to this turn}``.
    """

    turn: int
    user: str
    reference: str
    response: str
    state: Mapping[str, Mapping[str, str]]
    active_domains: list[str]
    offers: dict[str, OfferChange] = field(default_factory=dict)
    provided: dict[str, list[str]] = field(default_factory=dict)
    provided_so_far: dict[str, list[str]] = field(default_factory=dict)


@dataclass(frozen=True)
class DialogueTrace:
    """The whole trace of one dialogue.

    Attributes:
        dialogue_id: the dialogue.
        setting: ``standard`` or ``optimistic``.
        goal: ``{domain: {"informable": {...}, "requestable": [...]}}`` (§5.2).
        goal_venues: ``{domain: venue ids of the goal query}`` for domains with a database.
        turns: one :class:`TraceTurn` per system turn.
        outcome: Inform/Success per goal domain and the final offered venues
            (:class:`~mwzrepro.standard.inform_success.DialogueOutcome`; ``None`` offered =
            matched automatically).
        provided: ``{goal domain: sorted requestables provided}`` at the end.
    """

    dialogue_id: str
    setting: str
    goal: Mapping[str, Mapping[str, Any]]
    goal_venues: dict[str, list[str]]
    turns: list[TraceTurn]
    outcome: DialogueOutcome
    provided: dict[str, list[str]]


def _change(previous: list[str], record: Mapping[str, Any]) -> OfferChange:
    found, offered = record["found"], record["offered"]
    if found is None:
        kind = "-"
    elif not previous:
        kind = "set"
    elif offered == previous:
        kind = "no update"
    else:
        kind = "replaced"
    return OfferChange(kind, None if found is None else list(found), list(offered))


def trace_dialogue(
    dialogue_id: str,
    goal: Mapping[str, Mapping[str, Any]],
    booked: Sequence[Sequence[str]],
    responses: Sequence[str],
    states: Sequence[Mapping[str, Mapping[str, str]]],
    active_domains: Sequence[Sequence[str]],
    database: VenueQuery,
    setting: str = "standard",
    user_utterances: Sequence[str] | None = None,
    references: Sequence[str] | None = None,
) -> DialogueTrace:
    """Run Inform/Success on one dialogue and record its trace (module docstring).

    Args:
        dialogue_id: the dialogue id.
        goal, booked, responses, states, active_domains, database, setting: as for
            :func:`~mwzrepro.standard.inform_success.evaluate_dialogue`.
        user_utterances: the user utterance before each system turn (optional).
        references: the ground-truth response of each system turn (optional).

    Returns:
        :class:`DialogueTrace` over the common prefix of the turn sequences (the turns the
        algorithm scans).

    Raises:
        ConfigError: unknown ``setting``.
    """
    records: list[dict[str, Any]] = []
    outcome = evaluate_dialogue(goal, booked, responses, states, active_domains, database,
                                setting, trace=records)
    by_turn: dict[int, list[dict[str, Any]]] = {}
    for rec in records:
        by_turn.setdefault(rec["turn"], []).append(rec)
    n = min(len(responses), len(states), len(booked), len(active_domains))
    offered: dict[str, list[str]] = {d: [] for d in goal}
    provided: dict[str, set[str]] = {d: set() for d in goal}
    turns = []
    for t in range(n):
        offers, credited = {}, {}
        for rec in by_turn.get(t, []):
            d = rec["domain"]
            offers[d] = _change(offered[d], rec)
            offered[d] = list(rec["offered"])
            credited[d] = list(rec["provided"])
            provided[d].update(rec["provided"])
        turns.append(TraceTurn(
            turn=t,
            user=user_utterances[t] if user_utterances is not None and t < len(
                user_utterances) else "",
            reference=references[t] if references is not None and t < len(references) else "",
            response=responses[t], state=states[t], active_domains=list(active_domains[t]),
            offers=offers, provided=credited,
            provided_so_far={d: sorted(v) for d, v in provided.items() if v},
        ))
    venues = {}
    for domain, g in goal.items():
        if domain in DB_DOMAINS:
            constraints = g["informable"]
            if setting == "optimistic":
                constraints = reduce_constraints(domain, constraints)
            venues[domain] = list(database.query(domain, constraints))
    return DialogueTrace(dialogue_id, setting, goal, venues, turns, outcome,
                         {d: sorted(v) for d, v in provided.items()})


def dialogue_row(trace: DialogueTrace) -> dict[str, Any]:
    """One per-dialogue result row: ``dialogue_id``, ``setting``, ``inform`` and ``success``
    (``{goal domain: bool, ..., "total": bool}``), ``offered`` (``{domain: venue ids}``, None
    = matched automatically), ``goal_venues``, ``requested`` (``{domain: [requestables]}``)
    and ``provided`` (``{domain: [requestables]}``)."""
    return {
        "dialogue_id": trace.dialogue_id,
        "setting": trace.setting,
        "inform": dict(trace.outcome.inform),
        "success": dict(trace.outcome.success),
        "offered": {d: v for d, v in trace.outcome.offered.items()},
        "goal_venues": dict(trace.goal_venues),
        "requested": {d: list(g.get("requestable", [])) for d, g in trace.goal.items()},
        "provided": dict(trace.provided),
    }
