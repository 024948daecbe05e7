"""List-valued slot values in predicted states: one rule for the standard
evaluation and the DST metrics.

Spec addendum (spec-standard-evaluation §4, spec-dst-metrics §2.3; signature field
``alt:any``)
---------------------------------------------------------------------------------------

**Why.** LLM-based systems and MultiWOZ 2.2-style outputs give a slot several alternatives,
``"food": ["Portuguese", "Turkish"]``. The reference evaluator crashes on them
(``AttributeError``); a user wants them scored, by a rule that is written down.

**Rule.** A predicted value that is a JSON list is read as a set of alternatives:

* ``[]`` — the slot is absent;
* ``[v]`` — exactly the value ``v`` (a one-element list scores as the plain value);
* ``[v1, v2, ...]`` — each alternative is normalized like a plain value (§4; duplicates after
  normalization collapse, so ``["Thai", "thai"]`` is ``thai``):

  - the **database query** (Inform/Success, §6) accepts a venue that matches **any**
    alternative; an alternative that is a "don't care" string removes the constraint;
  - the **state metrics** (§13 joint accuracy and slot P/R/F1, and the FGA paper's JGA, SA,
    AGA, FGA(λ), fuzzy JGA) count the slot correct only if the list is exactly the gold
    value, i.e. a list with several alternatives is never correct (a tracker must commit);
    for the DST metrics it is the value ``v1 | v2 | ...``, which equals no gold value.

Every alternative must be a string (or a number, compared as the reference compares
numbers); any other value (an object, a nested list) is one-line error naming the file,
dialogue, turn and slot. When a file has at least one list value, the signatures of the
blocks that read states (Inform/Success, state metrics, DST) carry ``alt:any``.

>>> read_value(["Portuguese", "Turkish"], "food")
('Portuguese', 'Turkish')
>>> read_value(["north"], "area"), read_value([], "area") is ABSENT
('north', True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mwzrepro.core.errors import InputError

__all__ = ["ABSENT", "SIGNATURE_FIELD", "read_value", "has_alternatives", "joined"]

#: Marker of a slot whose value is an empty list (the slot is absent).
ABSENT: Any = object()

#: Signature field of a file whose states have list values.
SIGNATURE_FIELD = {"alt": "any"}

_SCALARS = (str, int, float, bool, type(None))


def read_value(value: Any, slot: str) -> Any:
    """A raw predicted value under the rule: scalars unchanged, ``[]`` → :data:`ABSENT`,
    ``[v]`` → ``v``, longer lists → a tuple of the alternatives in order.

    Raises:
        InputError: an object, or a list holding anything but strings and numbers (names
            the slot; the caller adds file, dialogue and turn).
    """
    if isinstance(value, _SCALARS):
        return value
    if isinstance(value, list | tuple):
        if not all(isinstance(v, str | int | float) and not isinstance(v, bool)
                   for v in value):
            raise InputError(f"slot {slot!r}: a list value must hold strings (alternatives), "
                             f"got {_short(value)}")
        if not value:
            return ABSENT
        return value[0] if len(value) == 1 else tuple(value)
    raise InputError(f"slot {slot!r}: a value must be a string or a list of strings "
                     f"(alternatives), got {type(value).__name__} {_short(value)}")


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def has_alternatives(state: Any) -> bool:
    """Whether a raw ``{domain: {slot: value}}`` state has a list value.

    >>> has_alternatives({"restaurant": {"food": ["thai"]}}), has_alternatives({"a": {}})
    (True, False)
    """
    return isinstance(state, Mapping) and any(
        isinstance(v, list) for slots in state.values() if isinstance(slots, Mapping)
        for v in slots.values())


def joined(alternatives: tuple[str, ...]) -> str:
    """The DST value of several alternatives: ``'v1 | v2'`` (equals no gold value).

    >>> joined(("portuguese", "turkish"))
    'portuguese | turkish'
    """
    return " | ".join(alternatives)
