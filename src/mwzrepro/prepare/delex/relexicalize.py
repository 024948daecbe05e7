"""Relexicalization (placeholders → values) of delexicalized system responses, as an
end-to-end system does at run time: each placeholder is filled from the database entity that
the turn's own predicted state selects. The inverse of :mod:`.delexicalize_responses`
(values → placeholders), used to check it (a system's delexicalized outputs, lexicalized from
its own states and scored with ``--lexicalized``, score close to the delexicalized file) and to
make lexicalized test inputs.

Rules (placeholders are read case-insensitively and by the unified name of
spec-standard-evaluation §3.2 they normalize to):

* the domain of a placeholder is its prefix (``[hotel_name]``), else the turn's first active
  domain when given, else the state domain that changed last (else the last state domain);
* the entity is the first database entity (spec §6 query, reference matching) that the
  domain's predicted state selects; without a state, or when nothing matches, the domain's
  first entity (hospital and police have their one station each);
* ``NAME``, ``ADDRESS``, ``PHONE``, ``POST``, ``AREA``, ``FOOD`` come from the entity;
  ``TRAINID`` from the train entity; ``TYPE`` the entity's type for hotels and attractions,
  ``black toyota`` for taxis, else ``hotel``; ``PRICE`` the train fare (train) or the price
  range (else ``moderate``); ``TIME`` a clock time (the state's ``booktime``/``leave``/
  ``arrive``, else the train's departure, else ``12:15``); ``DAY`` the state's day or
  ``monday``; ``COUNT`` the hotel's stars for ``stars``, the state's people/stay for those,
  else ``3``; ``PLACE`` the state's departure/destination, else the train's, else
  ``norwich``; ``REFERENCE`` an 8-character code derived from the dialogue, turn and position;
* other placeholders (``INTERNET``, ``PARKING``, ``ID``, ``DEPARTMENT``, ``OPEN``, names the
  normalization deletes) stay as they are.

>>> from mwzrepro.core.venue_database import ID_FIELD, VenueDatabase
>>> db = VenueDatabase({"restaurant": [{"id": "1", "name": "nandos", "area": "south",
...     "food": "portuguese", "phone": "01223327908", "address": "cambridge leisure park",
...     "postcode": "cb17dy", "pricerange": "cheap"}]})
>>> lexicalize("[value_name] serves [Value_food] food , call [restaurant_phone] .",
...            {"restaurant": {"food": "portuguese"}}, db, key="d0-1")
'nandos serves portuguese food , call 01223327908 .'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mwzrepro.core.errors import InputError
from mwzrepro.core.normalize import PLACEHOLDER_RE, SLOT_MAP
from mwzrepro.core.normalize_state import normalize_slot_name, normalize_state
from mwzrepro.core.venue_database import VenueDatabase
from mwzrepro.prepare.delex.fill_memo import FillMemo
from mwzrepro.prepare.delex.placeholder_values import (
    next_entity,
    placeholder_value,
    selected_entity,
    venue_catalog,
)

__all__ = ["DialogueFocus", "lexicalize", "lexicalize_predictions", "turn_domain"]

_DOMAINS = ("restaurant", "hotel", "attraction", "train", "taxi", "police", "hospital")
_VENUE_DOMAINS = ("restaurant", "hotel", "attraction", "police", "hospital")
_VENUE_FIELDS = frozenset({"NAME", "ADDRESS", "PHONE", "POST"})
_DESCRIBED = frozenset({"ADDRESS", "PHONE", "POST", "AREA", "FOOD", "TYPE", "PRICE"})


@dataclass
class DialogueFocus:
    """What the ``consistent`` mode of :func:`lexicalize_predictions` remembers across the
    turns of one dialogue: ``entities`` ``{domain: entity record}``, the entity each domain's
    values came from last (kept while the state still selects it); ``named``, the domains
    whose entity was named (a name placeholder, or a venue the user or the response names in
    words: the venue in focus); ``last``, the venue domain used last, or None."""

    entities: dict[str, dict[str, Any]] = field(default_factory=dict)
    named: set[str] = field(default_factory=set)
    last: str | None = None


def turn_domain(state: Mapping[str, Any], previous: Mapping[str, Any] | None,
                active: Sequence[str] | None = None) -> str | None:
    """The domain of an unprefixed placeholder (module docstring).

    >>> turn_domain({"hotel": {"area": "north"}, "train": {"day": "monday"}},
    ...             {"hotel": {"area": "north"}})
    'train'
    """
    if active:
        return str(active[0])
    changed = [d for d in state if previous is None or state.get(d) != previous.get(d)]
    if changed:
        return changed[-1]
    return list(state)[-1] if state else None


def lexicalize(text: str, state: Mapping[str, Any] | None, db: VenueDatabase, *,
               previous: Mapping[str, Any] | None = None,
               active: Sequence[str] | None = None, key: str = "",
               focus: DialogueFocus | None = None) -> str:
    """Fill the placeholders of one delexicalized response (module docstring).

    Args:
        text: the response, placeholders in any case (``[value_name]``, ``[Hotel_phone]``).
        state: the turn's predicted state ``{domain: {slot: value}}`` (any slot names; it is
            normalized as spec §4); None or malformed: no state.
        db: the venue database.
        previous: the previous turn's state (for the domain of unprefixed placeholders).
        active: the turn's active domains, when the file gives them.
        key: a label unique to the turn (seeds the booking references).
        focus: the :class:`DialogueFocus` carried across the turns of a dialogue (the
            ``consistent`` mode of :func:`lexicalize_predictions`), updated here; None: off.

    Returns:
        The lexicalized response (str).
    """
    norm = _normalized(state)
    raw = _raw(state)
    prev = _normalized(previous) if previous is not None else None
    default = turn_domain(norm, prev, active)
    entities: dict[str, dict[str, Any]] = {}

    names = focus is not None and any(SLOT_MAP.get(m.group(1).lower()) == "NAME"
                                      for m in PLACEHOLDER_RE.finditer(text))

    def entity_of(domain: str | None, naming: bool = False) -> dict[str, Any]:
        d = domain if domain in _DOMAINS else "restaurant"
        if (d not in entities and focus is not None and not names and d in _VENUE_DOMAINS
                and d in focus.named):
            entities[d] = focus.entities[d]     # no venue named now: the one named before
        if d not in entities:
            entities[d] = selected_entity(db, d, norm,
                                  None if focus is None else focus.entities.get(d))
            if focus is not None and entities[d]:
                focus.entities[d] = entities[d]
                focus.last = d if d in _VENUE_DOMAINS else focus.last
        elif naming and focus is not None and d in named and d in _VENUE_DOMAINS:
            entities[d] = next_entity(db, d, norm, [e for dom, e in listed if dom == d])
            focus.entities[d] = entities[d]     # "[x_name] is ..., [x_name] is ...": the next
        if naming and focus is not None and d in _VENUE_DOMAINS:
            focus.named.add(d)
            listed.append((d, entities[d]))
        return entities[d]

    count = 0
    named: list[str] = []           # domains of the names filled so far in this response
    listed: list[tuple[str, dict[str, Any]]] = []   # the venues they name
    named_at = 0                    # where the last name ends

    def fill(m: re.Match[str]) -> str:
        nonlocal count, named_at
        name = m.group(1).lower()
        unified = SLOT_MAP.get(name)
        if unified is None:
            return m.group(0)
        prefix = name.split("_")[0]
        domain = prefix if prefix in _DOMAINS else default
        before = m.string[:m.start()]
        trains = focus is not None and any(SLOT_MAP.get(x.lower()) == "TRAINID"
                                           for x in re.findall(r"\[(\w+)\]", before))
        if (focus is not None and named and not trains and unified in _DESCRIBED
                and named[-1] in _VENUE_DOMAINS
                and (prefix not in _DOMAINS or (prefix not in named and not re.search(
                    r"[.!?](?:\s|$)", before[named_at:])))):
            domain = named[-1]          # "[attraction_name] is in the [value_area]" (or
            #                             a [hotel_area]: the prefix of no venue named)
        elif (focus is not None and prefix not in _DOMAINS and focus.last and (
                (unified in _VENUE_FIELDS and (not names or domain not in _VENUE_DOMAINS))
                or (unified == "PRICE" and focus.last == "attraction" and not trains
                    and re.search(r"\b(?:entrance|fee|admission)\b[^.?!]*$|\[\w*name\]",
                                  before)))):
            domain = focus.last         # "their phone is [value_phone]": the last venue's
        elif trains and unified in ("TIME", "PLACE") and prefix not in _DOMAINS:
            domain = "train"
        slots = raw.get(domain, {}) if domain else {}
        count += 1
        entity = entity_of(domain, unified == "NAME")
        if unified == "NAME":
            named.append(str(domain))
            named_at = m.end()
        fee = re.match(r"\d+(?:\.\d+)?", entity.get("entrancefee", "")
                       if focus is not None and named[-1:] == ["attraction"] else "")
        if (fee and unified == "COUNT"
                and re.match(r"\s*(?:pounds|gbp)\b", m.string[m.end():])):
            return fee.group(0)         # "[attraction_name] is [value_count] pounds": its fee
        value = placeholder_value(unified, name, domain, entity, lambda: entity_of("train"),
                       slots, f"{key}|{count}",
                       None if focus is None else before)
        return m.group(0) if value is None else value + (m.group(2) or "").replace("-", " ")

    return PLACEHOLDER_RE.sub(fill, _lower_placeholders(text))


def _lower_placeholders(text: str) -> str:
    return re.sub(r"\[([\w\s]+)\]", lambda m: f"[{m.group(1).lower()}]", text)


def _raw(state: Mapping[str, Any] | None) -> dict[str, dict[str, str]]:
    """The state's string values as given, under normalized slot names."""
    if not isinstance(state, Mapping):
        return {}
    return {d: {normalize_slot_name(str(k)): v for k, v in s.items() if isinstance(v, str)}
            for d, s in state.items() if isinstance(s, Mapping)}


def _normalized(state: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    if not isinstance(state, Mapping):
        return {}
    try:
        clean = {d: {k: v for k, v in s.items() if isinstance(v, str)}
                 for d, s in state.items() if isinstance(s, Mapping)}
        return normalize_state(clean)
    except (InputError, TypeError, ValueError):
        return {}


def lexicalize_predictions(data: Mapping[str, Any], db: VenueDatabase,
                           consistent: bool = False,
                           user_named: Mapping[str, Sequence[Mapping[str, Sequence[str]]]]
                           | None = None,
                           domains: Mapping[str, Sequence[Sequence[str]]] | None = None,
                           memo: FillMemo | None = None) -> dict[str, Any]:
    """A copy of a prediction mapping (spec-standard-evaluation §2) with every response
    lexicalized by :func:`lexicalize` from its own turn's ``state`` (and ``active_domains``
    when given); other fields are kept. ``data`` is not modified.

    ``consistent`` (the round trip of grounded scoring,
    :mod:`mwzrepro.scorer.lexicalized.round_trip`; off by default, which keeps the rules above
    byte for byte): a system that keeps talking about the venues it names.

    * The venue in focus of a domain is the one last *named* (a name placeholder filled, or
      a venue in ``user_named``); a response without a name placeholder gives that venue's
      values; a domain with none named yet takes the state's query result, each domain's
      entity staying the one used before while the state still selects it (or selects
      nothing).
    * An unprefixed value after a name in the same response is that venue's (``[attraction_name]
      is in the [value_area]``), and so is a prefixed one whose domain no name of the response
      has, in the name's sentence (``[attraction_name] is in the [hotel_area]``: a slip of
      the prefix).
    * A second name placeholder of a domain in one response is the next venue the state
      selects (a list: ``[attraction_name] is free , [attraction_name] is ...``), and the
      values after it are its own; ``[value_count] pounds`` after an attraction's name is its
      entrance fee's amount, when it has one.
    * An unprefixed name, address, phone or postcode in a turn of a domain without venues
      (train, taxi) is the last venue's, and so is an unprefixed address, phone or postcode
      in a response without a name; a train time or station after a train id, or in a train
      turn, is the train's own (``arrive`` after arrive/to/in/by, else ``leave``;
      destination after arrive/to/in, else departure); a price after
      ``entrance``/``fee``/``admission`` or after a name, while an attraction is the last
      venue and no train id came before, is its entrance fee.

    ``user_named`` (``{dialogue id as in data: [{domain: [entity id, ...]} per turn]}``):
    the venues named before each turn's response is written — by the user, and (in the round
    trip) in words by the response itself; each becomes its domain's venue in focus.
    ``domains`` (``{dialogue id as in data: [[domain, ...] per turn]}``): the active domains
    of turns that give no ``active_domains`` (the round trip passes the evaluator's
    estimate from the predicted states, so that an unprefixed placeholder is of the domain
    the standard setting scores the turn for).

    ``memo``: a :class:`~.fill_memo.FillMemo`; each dialogue whose fill it holds (every
    query of that fill answered as then) is read from it, the others are filled and kept in
    it — the same text either way (:mod:`.fill_memo`).

    Raises:
        InputError: a dialogue's value is not a list of objects with a string ``response``
            (every turn is checked before any is filled).
    """
    for did, turns in data.items():
        if not isinstance(turns, list):
            raise InputError(f"dialogue {did}: expected a list of turns")
        for i, turn in enumerate(turns):
            if not isinstance(turn, Mapping) or not isinstance(turn.get("response"), str):
                raise InputError(f"dialogue {did}, turn {i}: expected an object with a "
                                 "string 'response'")
    out: dict[str, Any] = {}
    for did, turns in data.items():
        heard = (user_named or {}).get(did, ())
        given = (domains or {}).get(did, ())
        key = None if memo is None else memo.key(did, turns, [consistent, heard, given])
        kept = None if key is None else memo.lookup(key, db)  # type: ignore[union-attr]
        if kept is not None:
            out[did] = [{**turn, "response": text} for turn, text in zip(turns, kept)]
            continue
        log: list[Any] = []
        out[did] = _fill_dialogue(did, turns, db if key is None else memo.recording(db, log),
                                  consistent, heard, given)
        if key is not None:
            memo.store(key, log, [turn["response"] for turn in out[did]])  # type: ignore
    return out


def _fill_dialogue(did: str, turns: Sequence[Mapping[str, Any]], db: VenueDatabase,
                   consistent: bool, heard: Sequence[Mapping[str, Sequence[str]]],
                   given: Sequence[Sequence[str]]) -> list[dict[str, Any]]:
    """The turns of one dialogue with every response lexicalized (see
    :func:`lexicalize_predictions`; the turns are checked already)."""
    previous: Mapping[str, Any] | None = None
    focus = DialogueFocus() if consistent else None
    new = []
    for i, turn in enumerate(turns):
        state = turn.get("state")
        active = turn.get("active_domains")
        if not isinstance(active, list) and i < len(given):
            active = list(given[i])
        if focus is not None and i < len(heard):
            for domain, ids in heard[i].items():
                entity = (venue_catalog(db).get(domain, ([], {}))[1].get(ids[0])
                          if ids else None)
                if entity is not None and domain in _VENUE_DOMAINS:
                    focus.entities[domain], focus.last = entity, domain
                    focus.named.add(domain)
        text = lexicalize(turn["response"], state, db, previous=previous,
                          active=active if isinstance(active, list) else None,
                          key=f"{did}|{i}", focus=focus)
        new.append({**turn, "response": text})
        previous = state if isinstance(state, Mapping) else None
    return new
