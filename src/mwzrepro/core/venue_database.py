"""The venue database of the reference evaluator and its query (spec-standard-evaluation §5.1,
§6, §7).

Four domains have a database: restaurant, hotel, attraction, train (taxi, police, hospital do
not). :meth:`VenueDatabase.query` returns the ids of the entities that satisfy a state or goal
constraint dict, in database-file order, exactly as MultiWOZ_Evaluation 2022-06-10 does.

**Which files.** The normative bytes (§5.1) and their checks are in
:mod:`mwzrepro.core.venue_database_files`; :meth:`VenueDatabase.from_files` refuses other bytes
unless told otherwise.

**Loading** (§5.1): delete :data:`DELETED_FIELDS`; rename fields with :func:`database_field`;
the queryable keys of a domain are the field names of its **first** entity. These names, and
:data:`ID_FIELD`, :data:`TIME_KEYS` and :data:`UNKNOWN_VALUE`, are defined with the loaded,
indexed domain in :mod:`mwzrepro.core.venue_index` and are public here.

**Query** (§6): see :meth:`VenueDatabase.query`. Fuzzy keys (:data:`FUZZY_KEYS`) use
:func:`mwzrepro.core.fuzzy.make_matcher` in the chosen matching mode (``reference`` or
``optimal``) with the threshold (default 90, accept ``score >= threshold``).

**Ids.** Entities are identified by ``id`` (restaurant, hotel, attraction; strings such as
``"19214"``, ``"0"``) or ``trainid`` (train, e.g. ``"TR7075"``), as in the reference. Train ids
are **not unique** in the normative file (2,828 trains, 2,462 distinct ids: the same id runs on
other days/routes), so a query result can repeat an id and two different trains can share one;
Inform compares these ids as the reference does.

**Speed.** Each key's entity values are indexed once as bit masks over the entities, per
distinct value; a query decides each distinct value once (fuzzy decisions are memoized per
(database value, query value)) and intersects masks. Whole query results are memoized per
(domain, queryable constraint items).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from mwzrepro.core.errors import ConfigError, InputError
from mwzrepro.core.fuzzy import MATCHING_MODES, make_matcher
from mwzrepro.core.normalize_state import normalize_value, time_to_minutes
from mwzrepro.core.venue_database_files import NORMATIVE_SHA256, file_sha256, read_database_files
from mwzrepro.core.venue_index import (
    DELETED_FIELDS,
    ID_FIELD,
    TIME_KEYS,
    UNKNOWN_VALUE,
    DomainIndex,
    database_field,
)

__all__ = [
    "DB_DOMAINS",
    "DELETED_FIELDS",
    "FUZZY_KEYS",
    "TIME_KEYS",
    "DONTCARE_VALUES",
    "ID_FIELD",
    "NORMATIVE_SHA256",
    "UNKNOWN_VALUE",
    "database_field",
    "file_sha256",
    "VenueDatabase",
]

#: Domains with a venue database, in the reference's loading order.
DB_DOMAINS = ("restaurant", "attraction", "hotel", "train")

#: §6: keys compared with ``partial_ratio(entity value, query value) >= threshold``.
FUZZY_KEYS: Mapping[str, frozenset[str]] = {
    "hotel": frozenset({"name"}),
    "attraction": frozenset({"name"}),
    "restaurant": frozenset({"name", "food"}),
    "train": frozenset({"departure", "destination"}),
}

#: §6 step 2: raw constraint values (case-sensitive, before normalization) that leave a key
#: unconstrained.
DONTCARE_VALUES = frozenset(
    {"dontcare", "not mentioned", "don't care", "dont care", "do n't care", "do not care"}
)

class VenueDatabase:
    """The venue database (restaurant, hotel, attraction, train) with the reference query.

    Args:
        tables: ``{domain: [entity dict, ...]}`` as in the JSON files (raw field names; §5.1
            deletion and renaming are applied here). Domains outside :data:`DB_DOMAINS` are
            refused; missing ones simply have no entities (queries return ``[]``).
        matching: ``"reference"`` (fuzzywuzzy 0.18 + python-Levenshtein 0.12 ``partial_ratio``,
            spec §7) or ``"optimal"`` (rapidfuzz ``partial_ratio``).
        threshold: fuzzy keys accept ``score >= threshold`` (spec: 90).

    Raises:
        InputError: empty domain table, an entity that is not an object or lacks its id field.
        ConfigError: unknown domain or matching mode.
    """

    def __init__(
        self,
        tables: Mapping[str, Sequence[Mapping[str, Any]]],
        matching: str = "reference",
        threshold: float = 90,
    ):
        if matching not in MATCHING_MODES:
            raise ConfigError(
                f"unknown matching mode {matching!r}; expected one of {MATCHING_MODES}"
            )
        unknown = sorted(set(tables) - set(DB_DOMAINS))
        if unknown:
            raise ConfigError(f"no venue database for domains {unknown}; expected {DB_DOMAINS}")
        self.matching = matching
        self.threshold = threshold
        self._accepts = make_matcher(matching, threshold)
        self._index = {d: DomainIndex(d, tables[d]) for d in DB_DOMAINS if d in tables}
        self._cached_query = lru_cache(maxsize=1 << 17)(self._query_key)

    @classmethod
    def from_files(
        cls,
        paths: Mapping[str, str | Path],
        matching: str = "reference",
        threshold: float = 90,
        expected_sha256: Mapping[str, str] | None = NORMATIVE_SHA256,
    ) -> VenueDatabase:
        """Load ``{domain: path of <domain>_db.json}`` (a JSON array of entity objects).

        ``expected_sha256`` (default: the normative checksums of §5.1) is checked per domain
        present in it; pass ``None`` to skip the check (test fixtures).

        Raises:
            InputError: a file is not a JSON array of objects, or its checksum differs (the
                message names the file, both checksums and, for the restaurant file, the
                normative source).
            FileNotFoundError: a path does not exist.
        """
        tables = read_database_files(paths, expected_sha256)
        return cls(tables, matching=matching, threshold=threshold)

    # -- inspection -------------------------------------------------------------------------

    @property
    def domains(self) -> tuple[str, ...]:
        """Domains with loaded entities, in :data:`DB_DOMAINS` order."""
        return tuple(self._index)

    def keys(self, domain: str) -> frozenset[str]:
        """Queryable keys of ``domain`` (field names of its first entity after §5.1 steps 1–2);
        empty for a domain without database."""
        index = self._index.get(domain)
        return index.keys if index else frozenset()

    def entities(self, domain: str) -> list[dict[str, Any]]:
        """The entities of ``domain`` after deletion/renaming, in file order (copies)."""
        index = self._index.get(domain)
        return [dict(row) for row in index.entities] if index else []

    def ids(self, domain: str) -> list[str]:
        """All entity ids of ``domain`` in file order (``id``; ``trainid`` for train)."""
        index = self._index.get(domain)
        return list(index.ids) if index else []

    def values(self, domain: str, key: str) -> list[Any]:
        """Distinct entity values of ``key`` in ``domain`` (first-occurrence order, ``?``
        excluded) — the candidates a fuzzy key compares a query value with."""
        index = self._index.get(domain)
        return list(index.value_masks.get(key, {})) if index else []

    # -- query ------------------------------------------------------------------------------

    def build_query(self, domain: str, constraints: Mapping[str, Any]) -> dict[str, Any]:
        """The §6 step 2 query: ``{key: normalized value}`` for every queryable key of
        ``domain`` present in ``constraints`` whose raw value is not a dontcare string
        (:data:`DONTCARE_VALUES`); values normalized with
        :func:`mwzrepro.core.normalize_state.normalize_value` using the key as slot name, and ``arrive``/
        ``leave`` converted to minutes. Other constraint keys are ignored.

        Raises:
            InputError: a value the reference evaluator crashes on (non-string name/food/time,
                unparseable ``pm`` time, ``HH:MMxyz`` time); the message names domain and key.
        """
        index = self._index.get(domain)
        if index is None:
            return {}
        query: dict[str, Any] = {}
        for key in index.sorted_keys:
            if key not in constraints:
                continue
            raw = constraints[key]
            if _is_dontcare(raw):
                continue
            try:
                value = normalize_value(key, raw)
                if key in TIME_KEYS:
                    value = (tuple(map(time_to_minutes, value)) if isinstance(value, tuple)
                             else time_to_minutes(value))
            except InputError as err:
                raise InputError(f"{domain} constraint {key!r}: {err}") from None
            query[key] = value
        return query

    def fuzzy_pairs(
        self, domain: str, constraints: Mapping[str, Any]
    ) -> list[tuple[str, str, str]]:
        """The ``(key, database value, query value)`` triples that :meth:`query` would score
        with ``partial_ratio`` for these constraints: every distinct entity value (``?``
        excepted) of every constrained fuzzy key, in key then first-occurrence order. For
        analyses of the matching modes (``benchmarks/fuzzy_modes.py``).

        Raises:
            InputError: see :meth:`build_query`.
        """
        query = self.build_query(domain, constraints)
        return [
            (key, value, query[key])
            for key in sorted(FUZZY_KEYS.get(domain, ()))
            if key in query
            for value in self.values(domain, key)
            if isinstance(value, str)
        ]

    def query(self, domain: str, constraints: Mapping[str, Any]) -> list[str]:
        """Ids of the entities of ``domain`` satisfying ``constraints`` (spec §6), in database
        file order; ``[]`` for a domain without database.

        ``constraints`` is a state or goal dict ``{slot: value}`` with normalized slot names
        (``arrive``, ``leave``, ``name``, ``food``, ...); values are normalized again here
        (§4.9). An entity passes a constrained key iff its value is ``?``, or (``arrive``) its
        minutes ≤ the query's, or (``leave``) ≥, or (fuzzy key) ``partial_ratio(entity value,
        query value) >= threshold``, or (any other key) the values are equal (case-sensitive).
        Consequences: an unparseable time is 0 minutes (``arrive`` rejects every train not
        arriving at 00:00; ``leave`` accepts all); ``''`` on a non-time key rejects every
        entity not ``?``; dontcare strings are recognized only verbatim.

        Choice where the reference crashes (never on the published files): an entity lacking
        a constrained field (three restaurants lack ``phone``) fails that constraint instead of
        raising ``KeyError``.

        Results are memoized per (domain, queryable constraint items); the returned list is a
        fresh copy.

        Raises:
            InputError: see :meth:`build_query`.
        """
        index = self._index.get(domain)
        if index is None:
            return []
        items = tuple((k, constraints[k]) for k in index.sorted_keys if k in constraints)
        try:
            return list(self._cached_query(domain, items))
        except TypeError:  # an unhashable constraint value: no memo
            return list(self._query_key(domain, items))

    def _query_key(self, domain: str, items: tuple[tuple[str, Any], ...]) -> tuple[str, ...]:
        index = self._index[domain]
        query = self.build_query(domain, dict(items))
        mask = index.all_mask
        for key, wanted in query.items():
            mask &= self._passing(index, key, wanted)
            if not mask:
                break
        return tuple(index.ids_of(mask))

    def _passing(self, index: DomainIndex, key: str, wanted: Any) -> int:
        """Mask of the entities passing one constrained key (a tuple of alternatives: any of
        them, :mod:`mwzrepro.core.alternatives`)."""
        if isinstance(wanted, tuple):
            mask = 0
            for alternative in wanted:
                mask |= self._passing(index, key, alternative)
            return mask
        mask = index.unknown_mask[key]
        values = index.value_masks[key]
        if key == "arrive":
            for value, minutes in index.minutes[key].items():
                if minutes <= wanted:
                    mask |= values[value]
        elif key == "leave":
            for value, minutes in index.minutes[key].items():
                if minutes >= wanted:
                    mask |= values[value]
        elif key in FUZZY_KEYS.get(index.domain, ()):
            accepts = self._accepts
            for value, value_mask in values.items():
                if isinstance(value, str) and accepts(value, wanted):
                    mask |= value_mask
        else:
            try:
                mask |= values.get(wanted, 0)
            except TypeError:  # unhashable query value equals no entity value
                pass
        return mask


def _is_dontcare(raw: Any) -> bool:
    if isinstance(raw, tuple):  # alternatives: one "don't care" lifts the constraint
        return any(map(_is_dontcare, raw))
    return isinstance(raw, str) and raw in DONTCARE_VALUES
