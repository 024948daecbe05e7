"""The venue-database queries a computation makes, kept with their answers, so that a memo of the
computation stays exact when the database's matching setting (``inform.fuzzy_threshold``)
changes.

A computation that reads the venue database only through :meth:`VenueDatabase.query
<mwzrepro.core.venue_database.VenueDatabase.query>` (a fill, :mod:`mwzrepro.prepare.delex.
fill_memo`; one dialogue's scores, :mod:`mwzrepro.scorer.lexicalized.dialogue_score_memo`) is a
function of its other inputs and of the answers of the queries it makes. Run it on a
:class:`QueryRecorder` of the database to log those queries; its result may be reused on
another database (another threshold) when :func:`answers_hold`: every logged query gets the
same answer there, so the computation would take the same steps.

>>> from mwzrepro.core.venue_database import VenueDatabase
>>> db = VenueDatabase({"restaurant": [{"id": "1", "name": "nandos", "food": "portuguese"}]})
>>> log = []
>>> QueryRecorder(db, log).query("restaurant", {"food": "portuguese"})
['1']
>>> log
[('restaurant', (('food', 'portuguese'),), ('1',))]
>>> other = VenueDatabase({"restaurant": [{"id": "2", "food": "thai"}]})
>>> answers_hold(db, log), answers_hold(other, log)
(True, False)
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Mapping
from typing import Any

from mwzrepro.core.errors import InputError

__all__ = ["Query", "QueryRecorder", "answers_hold", "replayable"]

#: One logged query: ``(domain, constraints as ``(slot, value)`` items (None: a value that is
#: not a str, number or None, which cannot be replayed), result ids or None when the query
#: refused the constraints)``.
Query = tuple[str, "tuple[tuple[str, Any], ...] | None", "tuple[str, ...] | None"]

_PLAIN = (str, int, float, bool, type(None))


class QueryRecorder:
    """A venue database that appends each query, with its answer, to ``log``; any other
    attribute is the database's own. It hashes and compares as its database, so what is cached
    per database (the venue catalog, the venue records) is shared."""

    def __init__(self, db: Any, log: list[Query]) -> None:
        self._db, self._log = db, log

    def query(self, domain: str, constraints: Mapping[str, Any]) -> list[str]:
        """``db.query(domain, constraints)``, logged (:data:`Query`).

        Raises:
            InputError: as the database's query (logged with answer None)."""
        items = tuple(constraints.items())
        plain = all(isinstance(k, str) and isinstance(v, _PLAIN) for k, v in items)
        try:
            ids = self._db.query(domain, constraints)
        except InputError:
            self._log.append((domain, items if plain else None, None))
            raise
        self._log.append((domain, items if plain else None, tuple(ids)))
        return ids

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)

    def __hash__(self) -> int:
        return hash(self._db)

    def __eq__(self, other: object) -> bool:
        return self._db == (other._db if isinstance(other, QueryRecorder) else other)


#: ``{database: {(domain, items): answer}}``: the answers replayed so far, per database (a
#: database never changes; the same queries come back for every figure and row).
_ANSWERS: weakref.WeakKeyDictionary[Any, dict[tuple, tuple[str, ...] | None]] = (
    weakref.WeakKeyDictionary())


def _answer(db: Any, domain: str, items: tuple[tuple[str, Any], ...]
            ) -> tuple[str, ...] | None:
    try:
        return tuple(db.query(domain, dict(items)))
    except InputError:
        return None


def replayable(queries: Iterable[Query]) -> bool:
    """Whether every query's constraints were plain values (:data:`Query`)."""
    return all(items is not None for _, items, _ in queries)


def answers_hold(db: Any, queries: Iterable[Query]) -> bool:
    """Whether every query of a (:func:`replayable`) log gets the same answer from ``db``."""
    try:
        answers = _ANSWERS[db]
    except KeyError:
        answers = _ANSWERS[db] = {}
    for domain, items, ids in queries:
        key = (domain, items)
        try:
            answer = answers[key]
        except KeyError:
            answer = answers[key] = _answer(db, domain, items)  # type: ignore[arg-type]
        if answer != ids:
            return False
    return True
