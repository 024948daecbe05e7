"""Inform and Success rates (spec-standard-evaluation §9, §10), per dialogue and per domain.

Two settings:

``standard`` — the reference evaluator's algorithm (MultiWOZ_Evaluation 2022-06-10, §9),
    every special case included: venues are (re)offered only in turns whose active domains
    contain the goal domain and whose response has ``NAME`` (restaurant, hotel, attraction) or
    ``TRAINID`` (train); a later offer replaces the previous one unless the previous offer is
    still a subset of the new query result (an empty result replaces it too); ``REFERENCE``
    counts only in turns where the domain is booked in the corpus; goals with a ``name`` and
    the taxi/police/hospital domains are matched automatically; a train goal without
    ``TRAINID`` request is matched when no train was ever offered; a domain informs iff the
    offered venues are a **subset** of the goal venues; Success is only counted for dialogues
    that inform on every goal domain.

``optimistic`` — the paper's Section 5.1 variant (§10; its code was never published, so this
    is our reading): identical except that (1) a domain informs iff the offered venues
    **intersect** the goal venues; (2) **reduced search**: a query whose constraints contain
    a venue ``name`` (restaurant, hotel, attraction) or a ``trainid`` (train), with a value
    that is not a dontcare marker, looks the entity up by that slot alone; (3) the active
    domains are the ground-truth turn domains (:func:`mwzrepro.standard.active_domains.turn_domains`),
    chosen by the caller.

Input of one dialogue: its goal (:mod:`mwzrepro.standard.goals` structure), booked domains per turn
(:mod:`mwzrepro.standard.booked`), and per turn the normalized response (§3), the normalized state
(§4) and the active domains. The database is any object with
``query(domain, constraints) -> list of venue ids`` (:class:`mwzrepro.core.venue_database.VenueDatabase`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from mwzrepro.core.errors import ConfigError, InputError

__all__ = [
    "SETTINGS",
    "REQUESTABLES",
    "DialogueOutcome",
    "VenueQuery",
    "reduce_constraints",
    "evaluate_dialogue",
    "outcome_of",
    "MATCHED",
    "dialogue_rows",
    "rates_of_rows",
    "rate",
]

#: The two settings (the ``set`` field of the signatures).
SETTINGS = ("standard", "optimistic")

#: Requestable placeholders checked in responses, in the reference evaluator's order (§9.2).
REQUESTABLES = ("PHONE", "ADDRESS", "POST", "REFERENCE", "TRAINID")

#: Domains whose venue is identified by a ``NAME`` placeholder.
NAME_DOMAINS = frozenset({"restaurant", "hotel", "attraction"})

#: Domains with a venue database (Inform compares venues only there).
DB_DOMAINS = frozenset({"restaurant", "hotel", "attraction", "train"})

#: Domains matched automatically (no database, no entity to offer).
AUTO_MATCHED_DOMAINS = frozenset({"taxi", "police", "hospital"})

#: Raw constraint values the database treats as "unconstrained" (§6 step 2); the reduced
#: search of the optimistic setting never reduces to such a value.
DONTCARE_MARKERS = frozenset(
    {"dontcare", "not mentioned", "don't care", "dont care", "do n't care", "do not care"}
)

#: The offer marker of a domain matched automatically (:func:`outcome_of`).
MATCHED = "MATCHED"


class VenueQuery(Protocol):
    """Anything with the venue database's query method (spec §6)."""

    def query(self, domain: str, constraints: Mapping[str, Any]) -> list[str]:
        """Ids of the ``domain`` venues matching ``constraints`` ``{slot: value}``."""
        ...


@dataclass(frozen=True)
class DialogueOutcome:
    """Inform and Success of one dialogue.

    ``inform``: ``{goal domain: bool}`` plus ``"total"`` (all domains true).
    ``success``: the same keys; all false when ``inform["total"]`` is false (the reference
    evaluator records no success entries then, which counts as 0).
    ``offered``: per goal domain the offered venue ids at the end of the dialogue, or
    ``None`` when the domain was matched automatically (for diagnostics).
    """

    inform: dict[str, bool]
    success: dict[str, bool]
    offered: dict[str, list[str] | None] = field(default_factory=dict)


def reduce_constraints(domain: str, constraints: Mapping[str, Any]) -> Mapping[str, Any]:
    """The optimistic setting's reduced search (§10 item 2).

    Returns ``{"name": v}`` for restaurant/hotel/attraction constraints with a ``name``, and
    ``{"trainid": v}`` for train constraints with a ``trainid``, unless ``v`` is a dontcare
    marker (:data:`DONTCARE_MARKERS`); otherwise ``constraints`` unchanged.
    """
    key = "trainid" if domain == "train" else "name" if domain in NAME_DOMAINS else None
    if key is not None:
        value = constraints.get(key)
        if value is not None and value not in DONTCARE_MARKERS:
            return {key: value}
    return constraints


def evaluate_dialogue(
    goal: Mapping[str, Mapping[str, Any]],
    booked: Sequence[Sequence[str]],
    responses: Sequence[str],
    states: Sequence[Mapping[str, Mapping[str, str]]],
    active_domains: Sequence[Sequence[str]],
    database: VenueQuery,
    setting: str = "standard",
    trace: list[dict[str, Any]] | None = None,
) -> DialogueOutcome:
    """Inform and Success of one dialogue (§9.2; optimistic variant §10, module docstring).

    Args:
        goal: ``{domain: {"informable": {slot: value}, "requestable": [UNIFIED, ...], ...}}``.
        booked: per system turn, the domains booked in the corpus by then.
        responses: normalized responses (placeholders are uppercase unified names).
        states: normalized states ``{domain: {slot: value}}``, one per turn.
        active_domains: active domains, one list per turn.
        database: venue database (``query(domain, constraints) -> ids``).
        setting: ``standard`` or ``optimistic``.
        trace: if given, one record per (turn, active goal domain) is appended, in scan
            order: ``{"turn": t, "domain": D, "found": venue ids of this turn's query or
            None (no NAME/TRAINID placeholder), "offered": offered ids after the turn,
            "provided": requestables credited in this turn}`` — the Inform/Success trace of
            the paper's Appendix A (:mod:`mwzrepro.standard.trace`).

    The turn loop runs over the common prefix of ``responses``, ``states``, ``booked`` and
    ``active_domains`` (extra turns are ignored, as in the reference evaluator, §2.3).

    Returns:
        :class:`DialogueOutcome`.

    Raises:
        ConfigError: unknown ``setting``.
    """
    if setting not in SETTINGS:
        raise ConfigError(f"unknown Inform/Success setting {setting!r}; expected {SETTINGS}")
    optimistic = setting == "optimistic"

    def query(domain: str, constraints: Mapping[str, Any]) -> list[str]:
        if optimistic:
            constraints = reduce_constraints(domain, constraints)
        return database.query(domain, constraints)

    offered: dict[str, Any] = {d: [] for d in goal}
    provided: dict[str, set[str]] = {d: set() for d in goal}
    for t, (response, state, booked_now, active) in enumerate(
            zip(responses, states, booked, active_domains)):
        mentions = [x for x in REQUESTABLES if x in response]
        offers_venue = "NAME" in response
        offers_train = "TRAINID" in response
        for domain in goal:
            if domain not in active:
                continue
            found = None
            if (offers_venue and domain in NAME_DOMAINS) or (offers_train and domain == "train"):
                found = query(domain, state[domain]) if domain in state else []
                previous = offered[domain]
                if not previous or any(v not in found for v in previous):
                    offered[domain] = found
            credited = [x for x in mentions if x != "REFERENCE" or domain in booked_now]
            provided[domain].update(credited)
            if trace is not None:
                trace.append({"turn": t, "domain": domain, "found": found,
                              "offered": list(offered[domain]), "provided": credited})

    for domain, g in goal.items():
        if "name" in g["informable"] or domain in AUTO_MATCHED_DOMAINS:
            offered[domain] = MATCHED
        elif (domain == "train" and isinstance(offered[domain], list) and not offered[domain]
              and "TRAINID" not in g["requestable"]):
            offered[domain] = MATCHED
    return outcome_of(goal, offered, provided, query, optimistic)


def outcome_of(goal: Mapping[str, Mapping[str, Any]], offered: Mapping[str, Any],
               provided: Mapping[str, set[str]],
               query: Callable[[str, Mapping[str, Any]], Sequence[str]],
               optimistic: bool = False) -> DialogueOutcome:
    """Inform and Success of a dialogue from its offers at the end (§9.2 final step):
    ``offered`` per goal domain is a list of venue ids or :data:`MATCHED`; ``provided`` the
    requestables credited; ``query(domain, constraints)`` gives the goal venues. Inform of a
    domain: matched, or offered venues ⊆ (optimistic: ∩) goal venues; Success only when
    every domain informs."""
    inform: dict[str, bool] = {}
    for domain, g in goal.items():
        venues = offered[domain]
        if venues == MATCHED:
            ok = True
        elif domain in DB_DOMAINS and venues:
            goal_venues = set(query(domain, g["informable"]))
            ok = bool(set(venues) & goal_venues) if optimistic else set(venues) <= goal_venues
        else:
            ok = False
        inform[domain] = ok
    inform["total"] = all(inform.values())

    if inform["total"]:
        success = {d: set(g["requestable"]) <= provided[d] for d, g in goal.items()}
        success["total"] = all(success.values())
    else:
        success = dict.fromkeys(inform, False)
    return DialogueOutcome(
        inform, success, {d: None if v == MATCHED else list(v) for d, v in offered.items()}
    )


#: Columns of the ``success_dialogues`` table: the keys of :func:`dialogue_rows`.
DIALOGUE_COLUMNS = ["setting", "dialogue_id", "domain", "inform", "success"]



def dialogue_rows(
    dialogues: Mapping[str, Mapping[str, Sequence[Any]]],
    goals: Mapping[str, Mapping[str, Mapping[str, Any]]],
    booked: Mapping[str, Sequence[Sequence[str]]],
    database: VenueQuery,
    setting: str = "standard",
    where: str = "",
    memo: Any = None,
) -> list[dict[str, Any]]:
    """Inform/Success of every dialogue, one row per (dialogue, goal domain or ``total``).

    Args:
        dialogues: ``{dialogue_id: {"responses": [...], "states": [...],
            "active_domains": [...]}}`` (see :func:`evaluate_dialogue`); iteration order is
            kept in the output.
        goals, booked: resources keyed by dialogue id (:mod:`mwzrepro.standard.goals`,
            :mod:`mwzrepro.standard.booked`).
        database: venue database.
        setting: ``standard`` or ``optimistic``.
        where: label (file, system) for error messages.
        memo: each dialogue's outcome from an earlier run where it holds
            (:meth:`DialogueScoreMemo.value <mwzrepro.scorer.lexicalized.
            dialogue_score_memo.DialogueScoreMemo.value>`); None: every dialogue evaluated.

    Returns:
        rows ``{setting, dialogue_id, domain, inform (bool), success (bool)}``.

    Raises:
        InputError: a dialogue has no goal or no booked-domain list (message names it).
    """
    rows: list[dict[str, Any]] = []
    for did, d in dialogues.items():
        if did not in goals:
            raise InputError(f"{where}: dialogue {did} has no goal")
        if did not in booked:
            raise InputError(f"{where}: dialogue {did} has no booked-domain list")
        def outcome(db: VenueQuery, did: str = did, d: Mapping[str, Any] = d
                    ) -> DialogueOutcome:
            return evaluate_dialogue(goals[did], booked[did], d["responses"], d["states"],
                                     d["active_domains"], db, setting)

        out = (outcome(database) if memo is None
               else memo.value(("success", setting), did, database, outcome))
        for domain, ok in out.inform.items():
            rows.append({"setting": setting, "dialogue_id": did, "domain": domain,
                         "inform": ok, "success": out.success[domain]})
    return rows


def rate(hits: int, count: int) -> float:
    """A rate in percent, rounded like the reference evaluator (§9.3):
    ``round(100 * hits / count, 1)`` on Python floats (round-half-even on the binary value).

    Raises:
        ZeroDivisionError: ``count`` is 0.
    """
    return round(100 * hits / count, 1)



def rates_of_rows(per_dialogue: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, float]]:
    """Corpus Inform/Success rates (percent, one decimal, §9.3) from :func:`dialogue_rows`
    of one setting.

    Returns:
        ``{"inform": {domain: rate, ..., "total": rate}, "success": {...}}``; per domain the
        denominator is the number of dialogues whose goal contains it; domains sorted, then
        ``total``.

    Raises:
        ValueError: rows of several settings are mixed.

    >>> rows = [{"setting": "standard", "domain": d, "inform": i, "success": False}
    ...         for d, i in (("hotel", True), ("total", True), ("hotel", False), ("total", False))]
    >>> rates_of_rows(rows)
    {'inform': {'hotel': 50.0, 'total': 50.0}, 'success': {'hotel': 0.0, 'total': 0.0}}
    """
    if len({r["setting"] for r in per_dialogue}) > 1:
        raise ValueError("rates_of_rows(): rows of several settings; select one setting first")
    counts: dict[str, list[int]] = {}
    for r in per_dialogue:
        c = counts.setdefault(r["domain"], [0, 0, 0])
        c[0] += 1
        c[1] += bool(r["inform"])
        c[2] += bool(r["success"])
    keys = sorted(k for k in counts if k != "total") + (["total"] if "total" in counts else [])
    out: dict[str, dict[str, float]] = {"inform": {}, "success": {}}
    for key in keys:
        n, inform, success = counts[key]
        out["inform"][key] = rate(inform, n)
        out["success"][key] = rate(success, n)
    return out
