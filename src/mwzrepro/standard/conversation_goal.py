"""A conversation's goal in MultiWOZ's raw goal format, read into the reference evaluator's
goal structure (spec-standard-evaluation §5.2; the conversation setting,
:mod:`mwzrepro.standard.conversation`).

The raw format is the ``goal`` field of MultiWOZ's ``data.json``::

    {domain: {"info": {slot: value}, "reqt": [slot, ...], "book": {slot: value},
              "fail_info": {...}, "fail_book": {...}}, "message": [...], "topic": {...}}

Domains are those of :data:`~mwzrepro.standard.goals.GOAL_DOMAINS`; an empty domain entry is
no goal (``data.json`` lists every domain); ``message`` and ``topic`` are ignored. ``info``
holds the *final* constraints: ``fail_info`` (the constraints the user starts with, which find
no venue) and ``fail_book`` are read only as a check of shape — a conversation is scored
against ``info`` and the booking goal ``book``, as the reference evaluator scores the corpus.
Requestables and ``REFERENCE`` follow §5.2 (:func:`mwzrepro.standard.goals`' derivation).

>>> g = goal_of({"restaurant": {"info": {"food": "thai", "area": "centre"},
...              "reqt": ["phone"], "book": {"people": "2", "invalid": False},
...              "fail_info": {"food": "greek"}}, "hotel": {}, "message": ["..."]}, "c1")
>>> g["restaurant"]["informable"], g["restaurant"]["requestable"]
({'food': 'thai', 'area': 'centre'}, ['PHONE', 'REFERENCE'])
>>> goal_of({"restaurant": {"info": "thai"}}, "c2")
Traceback (most recent call last):
...
mwzrepro.core.errors.InputError: c2: goal: restaurant.info must be an object {slot: value}, got str
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mwzrepro.core.errors import InputError
from mwzrepro.standard.goals import GOAL_DOMAINS, Goal, domain_goal

__all__ = ["goal_of", "IGNORED_GOAL_KEYS"]

#: Top-level keys of a raw goal that are not domains.
IGNORED_GOAL_KEYS = frozenset({"message", "topic"})
_PAIR_PARTS = ("info", "book", "fail_info", "fail_book")


def _pairs(where: str, domain: str, part: str, value: Any) -> list[tuple[str, str]]:
    if part == "reqt":
        if isinstance(value, Mapping):
            value = list(value)
        if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
            raise InputError(f"{where}: goal: {domain}.reqt must be a list of slot names, got "
                             f"{type(value).__name__}")
        return [(s, "?") for s in value]
    if not isinstance(value, Mapping):
        raise InputError(f"{where}: goal: {domain}.{part} must be an object {{slot: value}}, "
                         f"got {type(value).__name__}")
    out = []
    for slot, v in value.items():
        if not isinstance(v, (str, int, float, bool)):
            raise InputError(f"{where}: goal: {domain}.{part}.{slot} must be a string, got "
                             f"{type(v).__name__}")
        out.append((str(slot), str(v) if not isinstance(v, str) else v))
    return out


def goal_of(raw: Any, where: str) -> dict[str, Goal]:
    """The evaluator's goal ``{domain: {"informable", "requestable", "booking"}}`` (domains in
    :data:`~mwzrepro.standard.goals.GOAL_DOMAINS` order) of a raw MultiWOZ goal.

    Args:
        raw: the raw goal (module docstring).
        where: label of the record for messages (``file, record 3 (dialogue mul0201)``).

    Raises:
        InputError: not an object, an unknown domain, a part of the wrong shape, or no domain
            with ``info`` (one line naming ``where``).
    """
    if not isinstance(raw, Mapping):
        raise InputError(f"{where}: goal must be an object {{domain: {{info, reqt, book}}}}, "
                         f"got {type(raw).__name__}")
    out: dict[str, Goal] = {}
    for domain, parts in raw.items():
        if domain in IGNORED_GOAL_KEYS:
            continue
        if domain not in GOAL_DOMAINS:
            raise InputError(f"{where}: goal: unknown domain {domain!r} (expected "
                             f"{', '.join(GOAL_DOMAINS)})")
        if not isinstance(parts, Mapping):
            raise InputError(f"{where}: goal: {domain} must be an object {{info, reqt, book}}, "
                             f"got {type(parts).__name__}")
        if not parts:
            continue
        read = {p: _pairs(where, domain, p, parts[p]) for p in (*_PAIR_PARTS, "reqt")
                if p in parts and parts[p] is not None}
        if "info" not in read:
            raise InputError(f"{where}: goal: {domain} has no 'info' (its constraints)")
        if not read.get("book"):
            read.pop("book", None)
        out[domain] = domain_goal(read, domain)
    if not out:
        raise InputError(f"{where}: goal names no domain")
    return {d: out[d] for d in GOAL_DOMAINS if d in out}
