"""One domain of the venue database as the reference evaluator loads it
(spec-standard-evaluation §5.1) and indexed for its query (§6): fields deleted
(:data:`DELETED_FIELDS`) and renamed (:func:`database_field`), entities identified by
:data:`ID_FIELD`, and each key's values as bit masks over the entities
(:class:`DomainIndex`). The query itself is :class:`mwzrepro.core.venue_database.VenueDatabase`,
the public place of these names.

>>> index = DomainIndex("hotel", [{"id": "0", "name": "a", "stars": "4", "location": [0, 0]},
...                               {"id": "1", "name": "b", "stars": "?"}])
>>> sorted(index.keys), index.ids
(['id', 'name', 'stars'], ['0', '1'])
>>> index.ids_of(index.value_masks["stars"]["4"]), index.ids_of(index.unknown_mask["stars"])
(['0'], ['1'])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mwzrepro.core.errors import InputError
from mwzrepro.core.normalize_state import normalize_slot_name, time_to_minutes

__all__ = ["DELETED_FIELDS", "ID_FIELD", "TIME_KEYS", "UNKNOWN_VALUE", "DomainIndex",
           "database_field"]

#: §5.1 step 1: fields deleted from every entity before anything else.
DELETED_FIELDS: Mapping[str, frozenset[str]] = {
    "attraction": frozenset({"location", "openhours"}),
    "hotel": frozenset({"location", "price", "takesbookings"}),
    "restaurant": frozenset({"location", "introduction", "signature"}),
    "train": frozenset(),
}

#: §6: keys compared in minutes (4.8): ``arrive`` passes iff entity ≤ query ("arrive by"),
#: ``leave`` iff entity ≥ query ("leave after").
TIME_KEYS = frozenset({"arrive", "leave"})

#: §5.1: the field whose value identifies an entity in query results.
ID_FIELD: Mapping[str, str] = {
    "restaurant": "id",
    "hotel": "id",
    "attraction": "id",
    "train": "trainid",
}

#: Entity value meaning "unknown": never rejects an entity (§6).
UNKNOWN_VALUE = "?"


def database_field(name: str) -> str:
    """Database field name after §5.1 step 2: ``id`` unchanged; otherwise the state slot-name
    rule (:func:`mwzrepro.core.normalize_state.normalize_slot_name`: lowercase, spaces
    removed, ``arriveby`` → ``arrive``, ``leaveat`` → ``leave``) (``'entrance fee'`` →
    ``'entrancefee'``, ``'trainID'`` → ``'trainid'``, ``'arriveBy'`` → ``'arrive'``)."""
    return name if name == "id" else normalize_slot_name(name)


class DomainIndex:
    """One domain's entities as loaded (§5.1 steps 1–2), its queryable keys and, per key, the
    entities of each distinct value as a bit mask (bit i = the domain's i-th entity, in file
    order), the entities whose value is unknown, and the minutes of time values.

    Raises:
        InputError: no entities, an entity that is not an object or lacks its id field.
    """

    def __init__(self, domain: str, entities: Sequence[Mapping[str, Any]]):
        if not entities:
            raise InputError(f"the {domain} database has no entities")
        deleted = DELETED_FIELDS.get(domain, frozenset())
        rows: list[dict[str, Any]] = []
        for position, raw in enumerate(entities):
            if not isinstance(raw, Mapping):
                raise InputError(f"{domain} database entity #{position} is not an object")
            rows.append({database_field(k): v for k, v in raw.items() if k not in deleted})
        self.domain = domain
        self.entities = rows
        self.keys = frozenset(rows[0])
        self.sorted_keys = tuple(sorted(self.keys))
        id_field = ID_FIELD[domain]
        missing = [i for i, row in enumerate(rows) if id_field not in row]
        if missing:
            raise InputError(
                f"{domain} database entities {missing[:5]} lack the {id_field!r} field"
            )
        self.ids = [row[id_field] for row in rows]
        self.all_mask = (1 << len(rows)) - 1
        # key -> {entity value: mask}; '?' and absent values are kept out of the value masks
        self.value_masks: dict[str, dict[Any, int]] = {}
        self.unknown_mask: dict[str, int] = {}
        self.minutes: dict[str, dict[Any, int]] = {}
        for key in self.keys:
            masks: dict[Any, int] = {}
            unknown = 0
            for i, row in enumerate(rows):
                if key not in row:
                    continue  # an absent field fails every constraint on it (documented)
                value = row[key]
                if isinstance(value, str) and value == UNKNOWN_VALUE:
                    unknown |= 1 << i
                    continue
                try:
                    masks[value] = masks.get(value, 0) | (1 << i)
                except TypeError:  # unhashable database value: cannot equal a query value
                    continue
            self.value_masks[key] = masks
            self.unknown_mask[key] = unknown
            if key in TIME_KEYS:
                self.minutes[key] = {v: time_to_minutes(v) for v in masks}

    def ids_of(self, mask: int) -> list[str]:
        """The venue ids of the set bits of ``mask`` (bit i = the domain's i-th venue), in
        database order."""
        ids = self.ids
        out = []
        while mask:
            low = mask & -mask
            out.append(ids[low.bit_length() - 1])
            mask ^= low
        return out
