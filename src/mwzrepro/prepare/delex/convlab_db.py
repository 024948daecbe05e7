"""The venue database lookup that AuGPT's delexicalization consults: ConvLab-2's query, with
AuGPT's wrapper around it.

Re-implements, without the randomness that does not affect the result's fields:

* ``thu-coai/ConvLab-2`` at ``e368deeb`` (the commit AuGPT downloads),
  ``convlab2/util/multiwoz/dbquery.py``: ``Database.query`` (exact, case-insensitive match
  per constraint; ``leaveAt``/``arriveBy`` as time bounds; a ``?`` field matches anything;
  constraints on fields a record lacks, or that fail to parse, are ignored; police returns
  every record, hospital filters by department, taxi returns one car);
* ``ufal/augpt`` at ``fa8a579``, ``scripts/download_convlab_multiwoz.py``, class
  ``Database``: ``hack_query``, ``normalize_for_db``, ``translate_to_db_col``,
  ``map_database_key``/``map_database_row`` (result field names such as ``price range``,
  ``leave at``, ``reference``), and the retry with a database name when a ``name`` constraint
  finds nothing (``_clear_name``).

The taxi record's colour, brand and phone are random in the source; here they are the first
of each list, since only the field names matter to the delexicalization.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from mwzrepro.core.errors import InputError

__all__ = ["ConvlabDatabase", "result_field", "DOMAINS"]

#: Domains the AuGPT database answers for.
DOMAINS = ("restaurant", "hotel", "attraction", "train", "taxi", "hospital", "police")

_IGNORED_VALUES = frozenset({"", "dont care", "not mentioned", "don't care", "dontcare",
                             "do n't care"})
_RESULT_FIELDS = {"pricerange": "price range", "taxi phone": "phone", "taxi colors": "color",
                  "taxi types": "brand", "ref": "reference", "entrance fee": "fee"}
_QUERY_COLUMNS = {"leave at": "leaveAt", "arrive by": "arriveBy", "price range": "pricerange"}
_NAME_FIXES = {"charlie": "charlie chan", "good luck": "the good luck chinese food takeaway"}


def result_field(key: str) -> str:
    """AuGPT's name of a database field: ``trainID`` → ``id``, camel case split
    (``leaveAt`` → ``leave at``), ``_`` → space, then ``pricerange`` → ``price range``,
    ``entrance fee`` → ``fee``, ``Ref`` → ``reference``, taxi fields → ``color``/``brand``/
    ``phone``.

    >>> [result_field(k) for k in ("trainID", "arriveBy", "pricerange", "Ref", "taxi_colors")]
    ['id', 'arrive by', 'price range', 'reference', 'color']
    """
    if key == "trainID":
        key = "id"
    key = "".join(" " + c.lower() if c.isupper() else c for c in key).lstrip(" ")
    key = key.replace("_", " ")
    return _RESULT_FIELDS.get(key, key)


def _minutes(text: str) -> int:
    hours, minutes = text.split(":")[:2]
    return int(hours) * 100 + int(minutes)


def _matches(record: Mapping[str, Any], key: str, value: str) -> bool:
    """One constraint of ConvLab-2's query against one record (True = not excluded)."""
    if value in _IGNORED_VALUES or key.lower() not in {k.lower() for k in record}:
        return True
    try:
        if key == "leaveAt":
            return _minutes(value) <= _minutes(record["leaveAt"])
        if key == "arriveBy":
            return _minutes(value) >= _minutes(record["arriveBy"])
        field = record[key].strip()
        return field == "?" or value.strip().lower() == field.lower()
    except (KeyError, ValueError, IndexError, AttributeError):
        return True


class ConvlabDatabase:
    """AuGPT's view of the ConvLab-2 MultiWOZ database.

    Args:
        dbs: ``{domain: records}`` for every domain of :data:`DOMAINS` (raw ConvLab-2
            database JSON; taxi is an object of lists).
        clear_values: words removed from names before the name retry (AuGPT: ``the a an
            food`` plus hotel types, price ranges and areas, restaurant price ranges, foods
            and areas, attraction types, as seen in the belief states).

    Raises:
        InputError: a domain is missing or malformed.
    """

    def __init__(self, dbs: Mapping[str, Any], clear_values: Iterable[str] = ()) -> None:
        missing = [d for d in DOMAINS if d not in dbs]
        if missing:
            raise InputError(f"AuGPT database: missing domains {missing}")
        self.dbs = dbs
        if not isinstance(dbs["taxi"], Mapping):
            raise InputError("AuGPT database: taxi must be an object of lists")
        words = sorted(set(clear_values) | {"the", "a", "an", "food"}, key=lambda w: (-len(w), w))
        self._clear_re = re.compile("|".join(re.escape(f" {w} ") for w in words))
        self._cache: dict[tuple[str, tuple[tuple[str, str], ...]], list[dict[str, Any]]] = {}
        self._names = {
            self._clear_name(str(r["name"])): str(r["name"]).lower()
            for domain in ("attraction", "hotel", "restaurant") for r in dbs[domain]
        }

    def _clear_name(self, name: str) -> str:
        name = self._clear_re.sub(" ", f" {name.lower()} ")
        return re.sub(r"\s+", " ", name).strip()

    def _query(self, domain: str, belief: Mapping[str, str]) -> list[dict[str, Any]]:
        blocked = {"people", "booked", "stay"}
        if domain not in ("train", "bus"):
            blocked.add("day")
        constraints = []
        for slot, value in belief.items():
            if slot in blocked:
                continue
            value = ",".join(value.split(" ,")).replace("swimming pool", "swimmingpool")
            value = value.replace("night club", "nightclub").replace("concert hall", "concerthall")
            constraints.append((_QUERY_COLUMNS.get(slot, slot), value))
        if domain == "taxi":
            taxi = self.dbs["taxi"]
            records = [{"taxi_colors": taxi["taxi_colors"][0], "taxi_types": taxi["taxi_types"][0],
                        "taxi_phone": "0" * 11}]
        elif domain == "police":
            records = [dict(r) for r in self.dbs["police"]]
        elif domain == "hospital":
            department = next((v for k, v in constraints if k == "department"), None)
            records = [dict(r) for r in self.dbs["hospital"]
                       if not department or r["department"].lower() == department.strip().lower()]
        else:
            constraints = [("area", "centre") if c == ("area", "center") else c
                           for c in constraints]
            records = []
            for i, record in enumerate(self.dbs[domain]):
                if all(_matches(record, k, v) for k, v in constraints):
                    records.append({**record, "Ref": f"{i:08d}"})
        return [{result_field(k): v for k, v in r.items() if k != "location"}
                | ({"car": "car"} if domain == "taxi" else {}) for r in records]

    def query(self, domain: str, belief: Mapping[str, str]) -> list[dict[str, Any]]:
        """Records (fields renamed by :func:`result_field`, ``location`` dropped, taxi with a
        ``car`` field) matching one domain's belief ``{slot: value}`` (AuGPT slot names such
        as ``price range``, ``leave at``).

        The ``charlie``/``good luck`` restaurant names are expanded first; when nothing is
        found and the cleared ``name`` is a known venue, the query is repeated with the
        venue's database name. Values of the fields are not all as AuGPT shows them (prices
        are not multiplied, names not capitalized); only the fields and the count are exact.
        """
        key = (domain, tuple(belief.items()))
        if key not in self._cache:
            self._cache[key] = self._lookup(domain, belief)
        return [dict(r) for r in self._cache[key]]

    def _lookup(self, domain: str, belief: Mapping[str, str]) -> list[dict[str, Any]]:
        belief = {k: (_NAME_FIXES.get(v.lower(), v) if domain == "restaurant" and k == "name"
                      else v) for k, v in belief.items()}
        found = self._query(domain, belief)
        if not found and "name" in belief:
            name = self._names.get(self._clear_name(belief["name"]))
            if name is not None:
                found = self._query(domain, {**belief, "name": name})
        return found
