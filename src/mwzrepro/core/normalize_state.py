"""Dialogue-state normalization of the reference evaluator (spec-standard-evaluation §4, the
normative 2022-06-10 behaviour of MultiWOZ_Evaluation): slot names (§4.1), values by slot
(§4.2–4.7), whole states, and times in minutes (§4.8).

Applied once to predicted states, to gold states when they are built (§5.4), to goal
constraints (§5.2) and again to every constraint inside a database query (§6, §4.9). Every
rule is reproduced literally, including the ones flagged (quirk) in the spec; the tables are
data (tuples of (input, output)) in :mod:`mwzrepro.core.normalization_rules`.

>>> normalize_state({"train": {"leaveAt": "4 pm", "destination": " Cambridge "}})
{'train': {'leave': '16:00', 'destination': 'cambridge'}}
>>> time_to_minutes("07:15")
435
"""

from __future__ import annotations

import re
from functools import lru_cache

from mwzrepro.core.alternatives import ABSENT, read_value
from mwzrepro.core.errors import InputError
from mwzrepro.core.normalization_rules import (
    FOOD_MAP,
    NAME_MAP,
    NAME_SLOTS,
    TIME_EXACT_MAP,
    TIME_PREFIX_RULES,
    TIME_SLOTS,
    TYPE_MAP,
    YES_FREE_SLOTS,
)

__all__ = [
    "normalize_slot_name",
    "normalize_name",
    "normalize_type",
    "normalize_food",
    "normalize_time",
    "normalize_value",
    "normalize_state",
    "time_to_minutes",
]

#: §4.8: a time string is converted to minutes only if it starts with two ASCII digits, a colon
#: and two ASCII digits.
_HHMM_PREFIX = re.compile(r"[0-9][0-9]:[0-9][0-9]")


def normalize_slot_name(slot: str) -> str:
    """State slot name of the reference evaluator (§4.1 steps 1–2).

    Lowercase, remove every ``' '`` (spaces only, not other whitespace), then ``arriveby`` →
    ``arrive`` and ``leaveat`` → ``leave``. Examples: ``'arriveBy'`` → ``'arrive'``,
    ``'book people'`` → ``'bookpeople'``, ``'leave at'`` → ``'leave'``, ``'Price Range'`` →
    ``'pricerange'``.
    """
    name = slot.lower().replace(" ", "")
    if name == "arriveby":
        return "arrive"
    if name == "leaveat":
        return "leave"
    return name


def _require_str(slot: str, value: object) -> str:
    if not isinstance(value, str):
        raise InputError(
            f"state value of slot {slot!r} must be a string, got {type(value).__name__} "
            f"{value!r} (the reference evaluator crashes on it, spec-standard-evaluation §4.2)"
        )
    return value


def normalize_name(value: str) -> str:
    """Venue/place name canonicalization (§4.3), for ``name``, ``destination``, ``departure``.

    1. strip, lowercase; 2. ``' & '`` → ``' and '``, then any remaining ``'&'`` → ``' and '``;
    3. ``" '"`` → ``"'"``; 4. the exact-match rule of
    :data:`~mwzrepro.core.normalization_rules.NAME_RULES`, if any.
    Examples: ``' Rosa 's '`` → ``'rosas bed and breakfast'``; ``'A&B Guest House'`` →
    ``'a and b guest house'``; ``'bed and breakfast'`` stays (no 2023 ``b and b`` rule, §15).
    """
    name = value.strip().lower()
    name = name.replace(" & ", " and ").replace("&", " and ")
    name = name.replace(" '", "'")
    return NAME_MAP.get(name, name)


def normalize_type(value: str) -> str:
    """Type canonicalization (§4.4): exact match on the raw value, else unchanged.

    ``'guest house'`` → ``'guesthouse'``, but ``'Guest House'``, ``' guest house'`` and
    ``'concert hall'`` are returned unchanged.
    """
    return TYPE_MAP.get(value, value)


def normalize_food(value: str) -> str:
    """Food canonicalization (§4.5): strip, lowercase, then
    :data:`~mwzrepro.core.normalization_rules.FOOD_RULES` exact match.

    ``' English '`` → ``'british'``; ``' Thai'`` → ``'thai'``.
    """
    food = value.strip().lower()
    return FOOD_MAP.get(food, food)


def _time_int(text: str, original: str) -> int:
    """Python ``int`` (accepts surrounding whitespace) or an :class:`InputError` where the
    reference evaluator crashes."""
    try:
        return int(text)
    except ValueError:
        raise InputError(
            f"time value {original!r} cannot be normalized: {text!r} before 'pm' is not an "
            "integer (the reference evaluator crashes on it, spec-standard-evaluation §4.6 step 7)"
        ) from None


def normalize_time(value: str) -> str:
    """Time canonicalization (§4.6, every step and quirk of the reference evaluator).

    Returns ``'HH:MM'`` for the recognizable formats and the partially processed string
    otherwise. Examples: ``'4 pm'`` → ``'16:00'``, ``'12pm'`` → ``'24:00'`` (quirk),
    ``'by15:00'`` → ``'05:00'`` (quirk: three characters dropped after ``by``), ``'1830'`` →
    ``'18:30'``, ``'123'`` → ``'123:00'``, ``''`` → ``'00:00'``, ``'tomorrow'`` unchanged,
    ``'5:00pm.'`` → ``'5:00pm'``, ``'before 5pm'`` → ``'before 5'``.

    "Digits" (steps 7, 10, 11) means Python ``str.isdigit``, as in the reference code (the
    spec's "Unicode decimal digits" differs only for characters such as superscripts).

    Raises:
        InputError: the part before ``pm``/``p.m.`` splits into exactly two ``:`` parts and
            the first is not an integer (e.g. ``'ab:30pm'``), where the reference crashes.
    """
    original = value
    t = value.strip().lower()
    # step 2: whole-string special cases
    if t in TIME_EXACT_MAP:
        return TIME_EXACT_MAP[t]
    for prefix, target in TIME_PREFIX_RULES:
        if t.startswith(prefix):
            return target
    # steps 3-5: prefixes (quirk: 'by' drops three characters and does not strip)
    if t.startswith("by"):
        t = t[3:]
    if t.startswith("after"):
        t = t[5:].strip()
    if t.startswith("afer"):
        t = t[4:].strip()
    # step 6: am
    if t.endswith("am"):
        t = t[:-2].strip()
    if t.endswith("a.m."):
        t = t[:-4].strip()
    # step 7: pm (quirk: 12pm -> 24:00, no bound check)
    if t.endswith("pm") or t.endswith("p.m."):
        if t.endswith("pm"):
            t = t[:-2].strip()
        if t.endswith("p.m."):
            t = t[:-4].strip()
        parts = t.split(":")
        if len(parts) == 2:
            return f"{_time_int(parts[0], original) + 12}:{parts[1]}"
        if len(parts) == 1 and parts[0].isdigit():
            return f"{int(parts[0]) + 12}:00"
    # step 8
    if not t:
        return "00:00"
    # step 9
    if t[-1] in ".,?":
        t = t[:-1]
    # steps 10-11
    if t.isdigit() and len(t) == 4:
        return f"{t[:2]}:{t[2:]}"
    if t.isdigit():
        return t.zfill(2) + ":00"
    # step 12
    if ":" in t:
        t = t.replace(" ", "")
    # step 13
    if len(t) == 4 and t[1] == ":":
        hours, minutes = t.split(":")
        return f"{hours.zfill(2)}:{minutes}"
    return t


def normalize_value(slot: str, value: str) -> str:
    """Normalized value of one state slot (§4.2 dispatch on the **normalized** slot name).

    ``name``/``destination``/``departure`` → :func:`normalize_name`; ``type`` →
    :func:`normalize_type`; ``food`` → :func:`normalize_food`; ``arrive``/``leave``/
    ``arriveby``/``leaveat``/``time`` → :func:`normalize_time`; ``parking``/``internet``:
    exactly ``'free'`` → ``'yes'``; every other slot (``area``, ``pricerange``, ``stars``,
    ``day``, ``bookday``, ``booktime``, ...) unchanged (not even stripped or lowercased).

    Non-string values pass through unchanged in the slots whose rule only compares
    (type, parking, internet, the rest), as in the reference evaluator. A tuple of
    alternatives (:mod:`mwzrepro.core.alternatives`) is normalized element by element,
    duplicates collapsed (one left: that value).

    Raises:
        InputError: a non-string value in a name, food or time slot, or a time the reference
            cannot parse (see :func:`normalize_time`); the message names slot and value, the
            caller adds file, dialogue and turn.
    """
    if isinstance(value, tuple):  # alternatives (mwzrepro.core.alternatives)
        out = tuple(dict.fromkeys(normalize_value(slot, v) for v in value))
        return out[0] if len(out) == 1 else out
    if slot in NAME_SLOTS:
        return normalize_name(_require_str(slot, value))
    if slot == "type":
        return normalize_type(value) if isinstance(value, str) else value
    if slot == "food":
        return normalize_food(_require_str(slot, value))
    if slot in TIME_SLOTS:
        return normalize_time(_require_str(slot, value))
    if slot in YES_FREE_SLOTS and value == "free":
        return "yes"
    return value


#: :func:`normalize_value` of a string, cached (states repeat values; errors are not cached)
_string_value = lru_cache(maxsize=1 << 15)(normalize_value)


def normalize_state(state: dict) -> dict:
    """Normalized dialogue state (§4.1): ``{domain: {slot: value}}`` → a new dict of the same
    shape (the input is not modified).

    Domains are kept as given (not lowercased) and in order; within a domain, slots keep their
    order, names go through :func:`normalize_slot_name` and values through
    :func:`normalize_value` with the new name. When two slots collapse to the same new name
    (``leaveAt`` and ``leave at``), the later value wins and the key keeps the position of the
    first (Python dict assignment, as in the reference).

    List values are alternatives (:mod:`mwzrepro.core.alternatives`: ``[]`` drops the slot,
    ``[v]`` is ``v``, longer lists become tuples).

    Raises:
        InputError: a domain entry is not a mapping, a value is an object or a list of
            non-strings, or :func:`normalize_value` fails; the message names domain and slot.
    """
    out: dict = {}
    for domain, slots in state.items():
        if not isinstance(slots, dict):
            raise InputError(
                f"state of domain {domain!r} must be an object {{slot: value}}, got {slots!r}"
            )
        new_slots: dict = {}
        for slot, value in slots.items():
            name = normalize_slot_name(slot)
            try:
                value = read_value(value, slot)
                if value is ABSENT:
                    continue
                normalize = _string_value if type(value) is str else normalize_value
                new_slots[name] = normalize(name, value)
            except InputError as err:
                raise InputError(f"domain {domain!r}, slot {slot!r}: {err}") from None
        out[domain] = new_slots
    return out


def time_to_minutes(text: str) -> int:
    """Minutes since midnight of a normalized time, as the database query computes it (§4.8).

    0 unless ``text`` starts with two ASCII digits, ``:`` and two ASCII digits; otherwise
    ``60·int(part 0) + int(part 1)`` of ``text.split(':')`` (further parts ignored):
    ``'07:15'`` → 435, ``'24:30'`` → 1470, ``'12:30:00'`` → 750, ``'9:30'`` → 0,
    ``'tomorrow'`` → 0.

    Raises:
        InputError: the second part is not an integer although the prefix matched
            (e.g. ``'16:00orlater'``), where the reference evaluator crashes.
    """
    if not _HHMM_PREFIX.match(text):
        return 0
    parts = text.split(":")
    try:
        return 60 * int(parts[0]) + int(parts[1])
    except ValueError:
        raise InputError(
            f"time value {text!r} starts like HH:MM but {parts[1]!r} is not an integer "
            "(the reference evaluator crashes on it, spec-standard-evaluation §4.8)"
        ) from None
