"""A memo of the fill of :func:`~.relexicalize.lexicalize_predictions` per dialogue that stays
exact when the venue database's fuzzy threshold changes.

**The rule.** A dialogue's filled responses are a function of its turns (response, state,
active domains), the venues heard before each turn, the domains given for its turns, and the
venue database. The database enters the fill only through :meth:`VenueDatabase.query
<mwzrepro.core.venue_database.VenueDatabase.query>` (the venue catalog,
:func:`~.placeholder_values.venue_catalog`, reads no matching setting). So the memo keeps, per
dialogue (keyed by a digest of those inputs), the queries its fill made with their results,
and the responses it wrote. An entry is used only when every one of its queries gives the same
result on the database at hand: then the fill takes the same steps and writes the same text.
When a query's answer differs (a fuzzy decision flipped at the new threshold), the dialogue is
filled again and its entry replaced.

**Why.** ``tables-grounded`` fills 13 systems' outputs again after every change of
``inform.fuzzy_threshold``; a change of 90 → 85 flips a handful of fuzzy decisions per system
(for instance ``north american`` against ``mexican``), so nearly every dialogue's fill can be
read from the previous run. Nothing of it enters a signature: the memo changes how fast the
text is made, never the text.

>>> from mwzrepro.core.venue_database import VenueDatabase
>>> db = VenueDatabase({"restaurant": [{"id": "1", "name": "nandos", "food": "portuguese"}]})
>>> memo = FillMemo()
>>> key = memo.key("d1", [{"response": "[value_name]"}], [True, [], []])
>>> log = []
>>> memo.recording(db, log).query("restaurant", {"food": "portuguese"})
['1']
>>> memo.store(key, log, ["nandos"])
>>> memo.lookup(key, db)
['nandos']
>>> memo.lookup(key, VenueDatabase({"restaurant": [{"id": "2", "food": "thai"}]}))  # differs
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mwzrepro.core.pickle_digest import pickle_digest
from mwzrepro.core.query_log import Query, QueryRecorder, answers_hold, replayable
from mwzrepro.core.venue_database import VenueDatabase

__all__ = ["FillMemo", "Query"]


class FillMemo:
    """The memo of the module docstring.

    Attributes:
        entries: ``{digest: (queries, responses)}`` (``queries``: :data:`Query` tuples;
            ``responses``: the dialogue's filled responses, one str per turn) — what an
            earlier run kept and this one adds.
        added: the entries stored by this process (the dialogues filled anew).
        used: the entries this process read or stored (what a row keeps for its next run).
    """

    def __init__(self, entries: Mapping[str, tuple[Sequence[Query], Sequence[str]]]
                 | None = None) -> None:
        self.entries: dict[str, tuple[Sequence[Query], Sequence[str]]] = dict(entries or {})
        self.added: dict[str, tuple[Sequence[Query], Sequence[str]]] = {}
        self.used: dict[str, tuple[Sequence[Query], Sequence[str]]] = {}

    @staticmethod
    def key(did: str, turns: Sequence[Mapping[str, Any]], context: Any) -> str | None:
        """The digest (hex) of one dialogue's fill inputs: its id, each turn's response, state
        and active domains (in their own order) and ``context`` (the fill's mode, the venues
        heard, the domains given), by their pickle (exact on types: equal inputs of other
        types only cost a fill); None when they cannot be pickled (not memoized)."""
        inputs = [did, [[t.get("response"), t.get("state"), t.get("active_domains")]
                        for t in turns], context]
        digest = pickle_digest(inputs, 20)
        return None if digest is None else digest.hex()

    def lookup(self, key: str, db: VenueDatabase) -> list[str] | None:
        """The stored responses of ``key`` when every query of its entry gives the same answer
        on ``db``; else None (no entry, or an answer differs)."""
        entry = self.entries.get(key)
        if entry is None:
            return None
        queries, responses = entry
        if not answers_hold(db, queries):
            return None
        self.used[key] = entry
        return list(responses)

    @staticmethod
    def recording(db: VenueDatabase, log: list[Query]) -> VenueDatabase:
        """``db`` seen through a recorder that appends each query to ``log``."""
        return QueryRecorder(db, log)  # type: ignore[return-value]

    def store(self, key: str, queries: Sequence[Query], responses: Sequence[str]) -> None:
        """Keep one dialogue's queries and filled responses (not when a query's constraints
        hold other than plain values: :data:`Query`)."""
        if not replayable(queries):
            return
        entry = (tuple(queries), tuple(responses))
        self.entries[key] = self.added[key] = self.used[key] = entry
