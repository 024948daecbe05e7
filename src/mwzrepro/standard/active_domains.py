"""Active domains per system turn (spec-standard-evaluation §8 and §10 item 3).

A turn's active domains decide for which goal domains its response is checked by
Inform/Success (§9.2). Four sources:

* **provided** (§8.1): the system's own ``active_domains`` lists, used as given;
* **estimated** (§8.2): :func:`estimate_from_states`, the reference evaluator's estimation from
  the (normalized) states — at most one domain per turn;
* **slot-names** (§8.3): :func:`domains_from_slot_names`, the domain prefixes of the raw
  response's placeholders (``[restaurant_name]`` → restaurant); the leaderboard's SOLOIST;
* **ground-truth** (§10 item 3, the paper's optimistic setting): :func:`turn_domains`, the
  turn-domain heuristic of the DAMD code base applied to the corpus annotation.

Types: a dialogue's states are a list (one per system turn) of ``{domain: {slot: value}}``;
domains are returned as one list of lowercase domain names per turn.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from mwzrepro.core.errors import InputError

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "DOMAIN_SOURCES",
    "SYSTEM_DOMAIN_SOURCES",
    "SLOT_NAME_DOMAINS",
    "estimate_from_states",
    "domains_from_slot_names",
    "turn_domains",
    "build_turn_domains",
]

#: Names of the active-domain sources (the ``dom`` field of Inform/Success signatures).
#: ``auto`` is the reference evaluator's rule (§2.2): provided if every turn of every
#: dialogue has ``active_domains``, estimated otherwise.
DOMAIN_SOURCES = ("auto", "provided", "estimated", "slot-names", "ground-truth")

#: Active-domain sources a system's standard setting may use (§8; ``ground-truth`` is the
#: optimistic setting's, never a system's).
SYSTEM_DOMAIN_SOURCES = tuple(s for s in DOMAIN_SOURCES if s != "ground-truth")

#: Domains recognized as placeholder prefixes by the slot-name helper (§8.3).
SLOT_NAME_DOMAINS = frozenset(
    {"restaurant", "hotel", "attraction", "train", "taxi", "police", "hospital"}
)

_BRACKET = re.compile(r"\[([\w\s]+)\]")


def estimate_from_states(states: Sequence[Mapping[str, Mapping[str, str]]]) -> list[list[str]]:
    """The reference evaluator's active-domain estimation for one dialogue (§8.2, exact).

    A domain *changes* at a turn if its slot/value pairs contain a pair that was not in the
    previous remembered state (additions and changes, not removals). The current domain
    switches to a changed domain when the current one did not change (the changed domain
    with most slots wins; ties: first in state order); when nothing changed and the
    previous turn had several changed domains, the first of them still in the state and
    different from the current one becomes current. Turns before the first change get
    ``[]`` and do not update the remembered state (quirk kept).

    Args:
        states: normalized states of the dialogue's turns, in order (domain order matters).

    Returns:
        One list per turn: ``[]`` or ``[current domain]``.
    """
    out: list[list[str]] = []
    current: str | None = None
    prev_state: Mapping[str, Mapping[str, str]] = {}
    prev_changed: list[str] = []
    for state in states:
        # consecutive turns often share one state object: nothing changed then
        changed = [] if state is prev_state else [
            d for d, slots in state.items()
            if slots != (prev := prev_state.get(d, {}))  # equal: nothing added or changed
            and set(slots.items()) - set(prev.items())
        ]
        if not changed:
            if current is None:
                out.append([])
                continue
            if len(prev_changed) > 1:
                prev_changed = [d for d in prev_changed if d in state and d != current]
                if prev_changed:
                    current = prev_changed[0]
        elif current not in changed:
            current = max(changed, key=lambda d: len(state[d]))  # max keeps the first on ties
        prev_state = state
        prev_changed = changed
        out.append([current])
    return out


def domains_from_slot_names(raw_response: str) -> list[str]:
    """Domains of the placeholders of one **raw** response (§8.3 helper).

    Lowercases the response, takes every bracket content matching ``[`` + word/space
    characters + ``]``, keeps the part before the first ``_`` if it is one of
    :data:`SLOT_NAME_DOMAINS` (``[value_name]`` gives nothing).

    Returns:
        The distinct domains, sorted (the helper builds a set; only membership matters).
    """
    found = {m.group(1).split("_", 1)[0] for m in _BRACKET.finditer(raw_response.lower())}
    return sorted(found & SLOT_NAME_DOMAINS)


def turn_domains(
    states: Sequence[Mapping[str, Mapping[str, str]]],
    act_domains: Sequence[Sequence[str]],
) -> list[list[str]]:
    """Ground-truth turn domains of one dialogue, the optimistic setting's active domains
    (§10 item 3; DAMD's turn-domain heuristic, our exact choice below).

    For each system turn *i*, in order:

    1. ``bs``: the domains whose accumulated belief state (``states[i]``, the corpus state
       after user turn *i*, ``dontcare`` values kept) is non-empty and differs from the
       previous turn's (new domain, or any slot added, changed or removed), in state order;
    2. ``da``: the distinct domains of the system dialogue acts of turn *i*, in act order;
       ``general`` is removed if ``da`` has more than one domain, then ``booking`` likewise;
    3. domains = ``bs`` followed by the ``da`` domains not yet listed, except ``booking``;
    4. if that is empty: the previous turn's domains (``["general"]`` before the first turn);
    5. if there are exactly two domains and one is ``general``: drop ``general``;
    6. if there are exactly two domains and the previous turn had exactly one, equal to the
       second: swap them (the continuing domain first).

    DAMD iterates a Python ``set`` of act domains (arbitrary order); we use act order, which
    only affects the order of the returned lists, never their membership (the only thing
    Inform/Success reads).

    Args:
        states: the corpus belief state of every system turn (``{domain: {slot: value}}``).
        act_domains: per system turn, the lowercase domains of its dialogue acts in order
            (e.g. ``["restaurant", "booking", "general"]``).

    Returns:
        One list of domains per turn.

    Raises:
        InputError: ``states`` and ``act_domains`` differ in length.
    """
    if len(states) != len(act_domains):
        raise InputError(
            f"turn_domains: {len(states)} states but {len(act_domains)} act lists"
        )
    out: list[list[str]] = []
    prev_state: Mapping[str, Mapping[str, str]] = {}
    prev: list[str] = ["general"]
    for state, acts in zip(states, act_domains):
        domains = [
            d for d, slots in state.items()
            if slots and (d not in prev_state or dict(prev_state[d]) != dict(slots))
        ]
        da = list(dict.fromkeys(acts))
        for drop in ("general", "booking"):
            if len(da) != 1 and drop in da:
                da.remove(drop)
        domains += [d for d in da if d != "booking" and d not in domains]
        if not domains:
            domains = list(prev)
        if len(domains) == 2 and "general" in domains:
            domains.remove("general")
        if len(domains) == 2 and len(prev) == 1 and prev[0] == domains[1]:
            domains = domains[::-1]
        out.append(domains)
        prev = domains
        prev_state = state
    return out


def build_turn_domains(
    states: pd.DataFrame, acts: pd.DataFrame, dialogues: pd.DataFrame
) -> pd.DataFrame:
    """The ``turn_domains`` table: ground-truth turn domains (:func:`turn_domains`) of every
    system turn of a version's split.

    Args:
        states: canonical ``states`` table (raw values, ``dontcare`` kept; turn = user-turn
            index = system-turn index of the state it precedes).
        acts: canonical ``acts`` table (system acts are those with odd ``turn_id``; system
            turn *i* has ``turn_id == 2i + 1``).
        dialogues: canonical ``dialogues`` table (``n_turns // 2`` system turns each).

    Returns:
        DataFrame with columns dialogue_id, turn (system-turn index), domains.
    """
    n_sys = dict(zip(dialogues["dialogue_id"], dialogues["n_turns"] // 2))
    s = states.sort_values(["dialogue_id", "turn", "position"], kind="mergesort")
    st: dict[tuple[str, int], dict[str, dict[str, str]]] = {}
    for did, turn, domain, slot, value in zip(
        s["dialogue_id"], s["turn"], s["domain"], s["slot"], s["value"]
    ):
        st.setdefault((did, int(turn)), {}).setdefault(domain, {})[slot] = value
    a = acts[acts["turn_id"] % 2 == 1].sort_values(
        ["dialogue_id", "turn_id", "act_index"], kind="mergesort"
    )
    ad: dict[tuple[str, int], list[str]] = {}
    for did, turn_id, domain in zip(a["dialogue_id"], a["turn_id"], a["domain"]):
        ad.setdefault((did, int(turn_id) // 2), []).append(domain)
    rows = []
    for did in sorted(n_sys):
        n = int(n_sys[did])
        doms = turn_domains([st.get((did, t), {}) for t in range(n)],
                            [ad.get((did, t), []) for t in range(n)])
        rows += [{"dialogue_id": did, "turn": t, "domains": d} for t, d in enumerate(doms)]
    import pandas as pd

    return pd.DataFrame(rows, columns=["dialogue_id", "turn", "domains"])
