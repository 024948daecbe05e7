"""Response normalization of the reference evaluator (spec-standard-evaluation §3), applied
identically to generated responses and to delexicalized references:
:func:`normalize_response` — lowercase, placeholder unification with
:data:`~mwzrepro.core.slot_map.SLOT_MAP` (:mod:`mwzrepro.core.slot_map`),
``-s``/``-ly`` removal, Moses round trip.

State, slot-name and value normalization (§4) is in :mod:`mwzrepro.core.normalize_state`.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from mwzrepro.core.slot_map import EXTENDED_PLACEHOLDER_RE, PLACEHOLDER_RE, SLOT_MAP

__all__ = ["SLOT_MAP", "PLACEHOLDER_RE", "EXTENDED_PLACEHOLDER_RE", "unify_placeholders",
           "normalize_response"]


def unify_placeholders(text: str, unknown: Counter[str] | None = None,
                       placeholders: str = "reference") -> str:
    """§3.1 step 2 on an already lowercased string: ``[name]``/``[name]s`` → ``NAME``.

    Bracket contents missing from :data:`SLOT_MAP` are replaced by the empty string and counted
    in ``unknown`` (the reference evaluator prints a warning line per occurrence instead).
    ``placeholders="extended"`` uses the vocabulary of :mod:`mwzrepro.core.placeholders`.

    >>> unify_placeholders("ref [hotel_ref] .", placeholders="extended")
    'ref REFERENCE .'
    """
    lookup, pattern = SLOT_MAP.get, PLACEHOLDER_RE
    if placeholders != "reference":
        from mwzrepro.core.placeholders import unified_name

        lookup, pattern = unified_name, EXTENDED_PLACEHOLDER_RE

    def repl(m: re.Match[str]) -> str:
        unified = lookup(m.group(1))
        if unified is None:
            if unknown is not None:
                unknown[m.group(1)] += 1
            return ""
        return unified

    return pattern.sub(repl, text)


def normalize_response(text: str, unknown: Counter[str] | None = None,
                       placeholders: str = "reference") -> str:
    """Normalize one response exactly like the reference evaluator (spec-standard-evaluation
    §3.1): lowercase; unify ``[placeholder]`` names (§3.2, unknown ones deleted and counted in
    ``unknown``); remove every ``-s`` and then every ``-ly`` substring; Moses tokenize and
    detokenize (sacremoses, English, default options; :mod:`mwzrepro.core.moses`).

    Applied identically to generated responses and to delexicalized references.
    ``placeholders``: the placeholder vocabulary, ``reference`` (§3.2) or ``extended``
    (:mod:`mwzrepro.core.placeholders`).

    >>> normalize_response("there are [value_choice] restaurant -s that meet your criteria .")
    'there are COUNT restaurant that meet your criteria.'
    >>> normalize_response("the train leaves at 10:00 .")
    'the train leaves at 10: 00.'

    Raises:
        TypeError: ``text`` is not a string.
    """
    if not isinstance(text, str):
        raise TypeError(f"response must be a string, got {type(text).__name__}")
    normalized, deleted = _normalize_cached(text, placeholders)
    if unknown is not None:
        unknown.update(deleted)
    return normalized


@lru_cache(maxsize=1 << 16)
def _normalize_cached(text: str, placeholders: str = "reference"
                      ) -> tuple[str, tuple[str, ...]]:
    """:func:`normalize_response` without the counter; responses repeat a lot within and
    across systems, and the Moses round trip dominates the cost."""
    deleted: Counter[str] = Counter()
    out = unify_placeholders(text.lower(), deleted, placeholders)
    out = out.replace("-s", "").replace("-ly", "")
    from mwzrepro.core.moses import round_trip

    return round_trip(out), tuple(deleted.elements())
