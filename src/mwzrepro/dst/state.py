"""The belief-state model of spec-dst-metrics §2 (section numbers refer to that spec).

A belief state is a mapping ``{(domain, slot): value}`` over the 30 MultiWOZ 2.1 domain-slot
pairs :data:`SLOTS` (§2.2). It is the set of triples ``(domain, slot, value)`` with at most one
value per slot (§2.1): a dict enforces the invariant. Values are canonicalised by
:func:`canonical_value` (§2.3): stripped, lowercased, the empty markers ``''``,
``'not mentioned'`` and ``'none'`` mean "absent" (no entry), and every spelling of "don't care"
becomes ``'dontcare'`` (a real value).

Also here: the per-dialogue containers every reader produces (:class:`GoldDialogue`,
:class:`DialogueStates`, :class:`DialogueFlags`), dialogue-id canonicalisation and
:class:`DSTError`.

Example:
    >>> make_state([("hotel", "people", "2"), ("hotel", "area", "not mentioned"),
    ...             ("train", "leaveAt", " 09:15 ")])
    {('hotel', 'book people'): '2', ('train', 'leaveat'): '09:15'}
    >>> canonical_value("Don't Care"), canonical_dialogue_id("PMUL2563.json")
    ('dontcare', 'pmul2563')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from mwzrepro.core import ids
from mwzrepro.core.alternatives import ABSENT, joined, read_value
from mwzrepro.core.errors import InputError

__all__ = [
    "SLOTS",
    "SLOT_INDEX",
    "N_SLOTS",
    "EMPTY_VALUES",
    "DONTCARE",
    "DONTCARE_SPELLINGS",
    "Slot",
    "State",
    "Alternatives",
    "DSTError",
    "canonical_value",
    "canonical_slot",
    "canonical_dialogue_id",
    "make_state",
    "nested_triples",
    "GoldDialogue",
    "DialogueStates",
    "DialogueFlags",
]

# --------------------------------------------------------------------------------------------
# §2.2 The 30 domain-slot pairs, in TripPy's MultiWOZ 2.1 order (the flag-vector index).

#: The 30 MultiWOZ 2.1 domain-slot pairs; position = index in per-slot correctness vectors.
SLOTS: tuple[tuple[str, str], ...] = (
    ("taxi", "leaveat"),
    ("taxi", "destination"),
    ("taxi", "departure"),
    ("taxi", "arriveby"),
    ("restaurant", "book people"),
    ("restaurant", "book day"),
    ("restaurant", "book time"),
    ("restaurant", "food"),
    ("restaurant", "pricerange"),
    ("restaurant", "name"),
    ("restaurant", "area"),
    ("hotel", "book people"),
    ("hotel", "book day"),
    ("hotel", "book stay"),
    ("hotel", "name"),
    ("hotel", "area"),
    ("hotel", "parking"),
    ("hotel", "pricerange"),
    ("hotel", "stars"),
    ("hotel", "internet"),
    ("hotel", "type"),
    ("attraction", "type"),
    ("attraction", "name"),
    ("attraction", "area"),
    ("train", "book people"),
    ("train", "leaveat"),
    ("train", "destination"),
    ("train", "day"),
    ("train", "arriveby"),
    ("train", "departure"),
)
#: (domain, slot) → index in :data:`SLOTS`.
SLOT_INDEX: dict[tuple[str, str], int] = {s: i for i, s in enumerate(SLOTS)}
#: |𝒮| for MultiWOZ 2.1 (the SA denominator, §4).
N_SLOTS = len(SLOTS)

#: Values meaning "slot absent" after strip + lowercase (§2.3 step 2).
EMPTY_VALUES = frozenset({"", "not mentioned", "none"})
#: The canonical "don't care" value (§2.3 step 3).
DONTCARE = "dontcare"
#: Spellings mapped to :data:`DONTCARE` (2.1/2.2 ``dontcare``, 2.0 ``dont care``, ...).
DONTCARE_SPELLINGS = frozenset({"dontcare", "dont care", "don't care", "do n't care"})


Slot = tuple[str, str]
#: A belief state: (domain, slot) → canonical value. Absent slots have no entry.
State = Mapping[Slot, str]
#: Gold alternatives of one turn: (domain, slot) → all acceptable canonical values (2.2).
Alternatives = Mapping[Slot, tuple[str, ...]]


class DSTError(InputError):
    """Malformed DST input (two values for one slot, unknown slot, bad flag vector, ...).

    An :class:`~mwzrepro.core.errors.InputError`: the CLI prints it as one line. The message
    names the file, dialogue and turn when the caller supplied them."""


# --------------------------------------------------------------------------------------------
# §2.3 canonicalisation


def canonical_value(value: object, where: str = "") -> str | None:
    """Canonicalise one state value (§2.3).

    Args:
        value: the raw value (must be a ``str``).
        where: location for the error message (file, dialogue, turn, slot).

    Returns:
        ``None`` for the empty markers ``''``, ``'not mentioned'`` and ``'none'`` (the slot is
        absent); ``'dontcare'`` for every spelling in :data:`DONTCARE_SPELLINGS`; otherwise the
        value stripped and lowercased.

    Raises:
        DSTError: ``value`` is not a string.
    """
    if not isinstance(value, str):
        raise DSTError(f"{where + ': ' if where else ''}state value must be a string, "
                       f"got {value!r}")
    v = value.strip().lower()
    if v in EMPTY_VALUES:
        return None
    if v in DONTCARE_SPELLINGS:
        return DONTCARE
    return v


# Slot-name aliases after lowercasing and removing spaces/underscores: the names used by
# MultiWOZ 2.0/2.1 metadata (``leaveAt``), 2.2 (``bookpeople``), the human-evaluation logs and
# Figure 1 (``people`` without ``book``), TripPy (``book_people``) and the end-to-end systems'
# mwzeval states (``arrive by``, ``leave``, ``price range``, ``time``).
_SLOT_ALIASES = {
    "leaveat": "leaveat",
    "leave": "leaveat",
    "arriveby": "arriveby",
    "arrive": "arriveby",
    "pricerange": "pricerange",
    "people": "book people",
    "bookpeople": "book people",
    "stay": "book stay",
    "bookstay": "book stay",
    "time": "book time",
    "booktime": "book time",
    "day": "book day",
    "bookday": "book day",
}


@lru_cache(maxsize=4096)
def canonical_slot(domain: str, slot: str) -> Slot | None:
    """The canonical (domain, slot) of §2.2 for a slot name in any accepted spelling.

    Accepts the canonical names (``book people``), the aliases without the ``book `` prefix
    (``people``), the MultiWOZ 2.2 names (``bookpeople``), TripPy's (``book_people``), the
    2.0/2.1 metadata names (``leaveAt``) and the mwzeval spellings (``arrive``, ``leave``,
    ``arrive by``, ``price range``). ``train``'s ``day`` is the plain slot ``day``.

    Returns:
        the pair from :data:`SLOTS`, or ``None`` if the slot is outside the 30 (e.g.
        ``('taxi', 'day')``, ``('hospital', 'department')``, ``('train', 'book ticket')``).
    """
    d = domain.strip().lower()
    key = slot.strip().lower().replace(" ", "").replace("_", "")
    s = _SLOT_ALIASES.get(key, key)
    if d == "train" and s == "book day":
        s = "day"
    pair = (d, s)
    return pair if pair in SLOT_INDEX else None


def make_state(
    triples: Iterable[tuple[str, str, object]],
    where: str = "",
    dropped: Counter | None = None,
) -> dict[Slot, str]:
    """Build a canonical belief state from raw ``(domain, slot, value)`` triples.

    Slot names go through :func:`canonical_slot`, values through :func:`canonical_value`;
    absent values produce no entry.

    Args:
        triples: raw triples (any accepted slot spelling, raw values).
        where: location for error messages, e.g. ``"file.json: dialogue pmul2563, turn 2"``.
        dropped: if given, slots outside :data:`SLOTS` are removed and counted here under
            ``"domain-slot"`` (the explicit, reported filter of §2.2); if ``None`` they are an
            error.

    Returns:
        ``{(domain, slot): value}`` in input order.

    Raises:
        DSTError: a slot outside the 30 when ``dropped`` is ``None``; two different values for
            one slot (§2.1); a non-string value. Messages start with ``where``.
    """
    state: dict[Slot, str] = {}
    for domain, slot, value in triples:
        here = f"{where + ': ' if where else ''}slot {domain}-{slot}"
        pair = canonical_slot(domain, slot)
        v = _canonical_string(value) if type(value) is str else _canonical_alternatives(value,
                                                                                         here)
        if pair is None:
            if dropped is None:
                raise DSTError(f"{here} is not one of the 30 MultiWOZ 2.1 domain-slot pairs")
            if v is not None:
                dropped[f"{domain.strip().lower()}-{slot.strip().lower()}"] += 1
            continue
        if v is None:
            continue
        old = state.get(pair)
        if old is not None and old != v:
            raise DSTError(f"{here}: two values for {pair[0]}-{pair[1]}: {old!r} and {v!r}")
        state[pair] = v
    return state


@lru_cache(maxsize=1 << 14)
def _canonical_string(value: str) -> str | None:
    """:func:`canonical_value` of a string (never an error), cached: values repeat."""
    return canonical_value(value)


def _canonical_alternatives(value: Any, here: str) -> str | None:
    """:func:`canonical_value`, with a list value read as alternatives
    (:mod:`mwzrepro.core.alternatives`): ``[]`` absent, ``[v]`` as ``v``, several as
    ``'v1 | v2'`` (never equal to a gold value)."""
    if not isinstance(value, list):
        return canonical_value(value, here)
    try:
        value = read_value(value, "")
    except InputError as err:
        raise DSTError(f"{here}: {str(err).split(': ', 1)[1]}") from None
    if value is ABSENT:
        return None
    if not isinstance(value, tuple):
        return canonical_value(value, here)
    alternatives = [canonical_value(v, here) for v in value]
    kept = list(dict.fromkeys(a for a in alternatives if a is not None))
    return None if not kept else kept[0] if len(kept) == 1 else joined(tuple(kept))


def canonical_dialogue_id(did: str) -> str:
    """Surrounding whitespace stripped, then :func:`mwzrepro.core.ids.canonical_dialogue_id`
    (lowercase, without a ``.json`` suffix: ``PMUL2563.json`` → ``pmul2563``, §2.4)."""
    return ids.canonical_dialogue_id(str(did).strip())


def nested_triples(raw: Any, here: str) -> Iterable[tuple[str, str, Any]]:
    """``{domain: {slot: value}}`` → raw ``(domain, slot, value)`` triples (for
    :func:`make_state`), validating the nesting.

    Raises:
        DSTError: ``raw`` is not an object of objects (message starts with ``here``).
    """
    if not isinstance(raw, Mapping):
        raise DSTError(f"{here}: state must be an object {{domain: {{slot: value}}}}, "
                       f"got {type(raw).__name__}")
    for domain, slots in raw.items():
        if not isinstance(slots, Mapping):
            raise DSTError(f"{here}: state of domain {domain!r} must be an object of slots, "
                           f"got {slots!r}")
        for slot, value in slots.items():
            yield str(domain), str(slot), value


# --------------------------------------------------------------------------------------------
# Per-dialogue containers


@dataclass(frozen=True)
class GoldDialogue:
    """Gold states of one dialogue: B_0 … B_{N−1} and, per turn, the 2.2 alternatives."""

    states: tuple[State, ...]
    alternatives: tuple[Alternatives, ...]


@dataclass(frozen=True)
class DialogueStates:
    """Gold and predicted states of one dialogue, turns 0 … N−1 (canonical, §2).

    Attributes:
        dialogue_id: lowercase id without ``.json``.
        gold: B_0 … B_{N−1}.
        pred: B'_0 … B'_{N−1} (same length).
        alternatives: per turn, acceptable gold values per slot (2.2), or ``None``.
    """

    dialogue_id: str
    gold: tuple[State, ...]
    pred: tuple[State, ...]
    alternatives: tuple[Alternatives, ...] | None = None

    def __post_init__(self) -> None:
        if len(self.gold) != len(self.pred):
            raise DSTError(f"dialogue {self.dialogue_id}: {len(self.gold)} gold states but "
                           f"{len(self.pred)} predicted states")
        if self.alternatives is not None and len(self.alternatives) != len(self.gold):
            raise DSTError(f"dialogue {self.dialogue_id}: alternatives need one entry per turn")


@dataclass(frozen=True)
class DialogueFlags:
    """Per-slot correctness vectors of one dialogue (§7.1).

    Attributes:
        dialogue_id: lowercase id without ``.json``.
        flags: per turn, a tuple of :data:`N_SLOTS` ints in {0, 1}; flag i refers to
            ``SLOTS[i]``; 1 = correct (absent matching absent counts as correct).
        gold_present: per turn, the indices of slots present in B_t (for AGA), or ``None``.
    """

    dialogue_id: str
    flags: tuple[tuple[int, ...], ...]
    gold_present: tuple[frozenset[int], ...] | None = None
