"""Booked domains per system turn (spec-standard-evaluation §5.3).

For system turn *i* of a dialogue: the domains other than ``taxi`` whose 2.0/2.1 metadata
``book.booked`` list is non-empty at that turn (cumulative), in metadata key order. A
``REFERENCE`` placeholder only counts for a domain in turns where it is booked (§9.2).
The reference evaluator ships these lists as ``booked_domains.json``; this derivation
reproduces that file exactly on the test and validation dialogues of MultiWOZ 2.0 and 2.1.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from mwzrepro.core.errors import InputError

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "EXCLUDED_BOOKED_DOMAINS",
    "build_booked_domains",
    "booked_domains_to_dict",
    "booked_domains_from_dict",
]

#: Domains never listed as booked (taxi bookings have no reference number in the goals).
EXCLUDED_BOOKED_DOMAINS = frozenset({"taxi"})


def build_booked_domains(booked: pd.DataFrame, dialogues: pd.DataFrame) -> pd.DataFrame:
    """The ``booked_domains`` table: one row per system turn of every dialogue.

    Args:
        booked: canonical ``booked`` table (dialogue_id, turn, domain, n_booked, position).
        dialogues: canonical ``dialogues`` table (gives the number of system turns,
            ``n_turns // 2``, so turns without bookings get an empty list).

    Returns:
        DataFrame with columns dialogue_id, turn (system-turn index), domains (list of
        lowercase domains in metadata order, taxi excluded).

    Raises:
        InputError: a booked row refers to a dialogue or turn that ``dialogues`` lacks.
    """
    import pandas as pd

    n_sys = dict(zip(dialogues["dialogue_id"], dialogues["n_turns"] // 2))
    b = booked[~booked["domain"].isin(EXCLUDED_BOOKED_DOMAINS) & (booked["n_booked"] > 0)]
    b = b.sort_values(["dialogue_id", "turn", "position"], kind="mergesort")
    per_turn: dict[tuple[str, int], list[str]] = {}
    for did, turn, domain in zip(b["dialogue_id"], b["turn"], b["domain"]):
        if did not in n_sys or not 0 <= int(turn) < n_sys[did]:
            raise InputError(
                f"booked table: dialogue {did}, turn {turn} is not a system turn of the "
                "dialogues table"
            )
        per_turn.setdefault((did, int(turn)), []).append(domain)
    rows = [
        {"dialogue_id": did, "turn": t, "domains": per_turn.get((did, t), [])}
        for did in sorted(n_sys)
        for t in range(int(n_sys[did]))
    ]
    return pd.DataFrame(rows, columns=["dialogue_id", "turn", "domains"])


def booked_domains_to_dict(table: pd.DataFrame) -> dict[str, list[list[str]]]:
    """``{dialogue_id: [[domain, ...] per system turn]}`` (the structure of the reference
    evaluator's ``booked_domains.json``) from a ``booked_domains`` table.

    Raises:
        InputError: a dialogue's turns are not 0, 1, ..., n-1.
    """
    out: dict[str, list[list[str]]] = {}
    t = table.sort_values(["dialogue_id", "turn"], kind="mergesort")
    for did, turn, domains in zip(t["dialogue_id"], t["turn"], t["domains"]):
        lst = out.setdefault(did, [])
        if int(turn) != len(lst):
            raise InputError(f"booked_domains: dialogue {did} has a gap before turn {turn}")
        lst.append(list(domains))
    return out


def booked_domains_from_dict(data: Mapping[str, Sequence[Sequence[str]]]) -> pd.DataFrame:
    """A ``booked_domains`` table from the reference evaluator's JSON structure."""
    import pandas as pd

    rows = [
        {"dialogue_id": did, "turn": i, "domains": list(doms)}
        for did, turns in data.items()
        for i, doms in enumerate(turns)
    ]
    return pd.DataFrame(rows, columns=["dialogue_id", "turn", "domains"])
