"""Slot keys, slot scope and label cleaning under a convention (switches ``names``, ``slots``,
``clean``, ``gdc`` and ``pign``; spec-dst-metrics §12.2–§12.6).

One raw triple ``(domain, slot, value)`` of a gold or predicted state becomes a key and a cleaned
value, or nothing (the slot is absent or out of scope):

* ``names:canon`` keys are the 30 canonical pairs of spec-dst-metrics §2.2 (every alias mapped;
  other slots keep ``(domain, reference name)``); ``names:ref`` keys are the reference
  evaluator's ``(domain, normalize_slot_name(slot))`` (spec-standard-evaluation §4), so a
  predicted ``people`` and a gold ``book people`` are two different slots.
* ``slots``: ``30`` keeps the 30 pairs, ``nobook`` the 23 without ``book …``, ``all`` every slot.
* ``clean``: ``fga`` is spec-dst-metrics §2.3 (strip, lowercase, ``none``/``not mentioned``/``''``
  absent, every dontcare spelling → ``dontcare``); ``mwzeval`` is the reference's
  ``normalize_value`` (spec-standard-evaluation §4.2, §4.6; ``none`` stays a value); ``trade`` is
  :mod:`.trade_cleaning`; ``convlab3`` removes every whitespace and lowercases (ConvLab-3
  ``convlab/dst/evaluate_unified_datasets.py`` lines 19 and 22, ``''`` absent); ``lower`` strips
  and lowercases (``''`` absent); ``none`` compares the values verbatim.
* ``gdc:drop`` drops gold slots whose raw value is a dontcare spelling (the reference's gold
  states, spec-standard-evaluation §5.4); ``pign`` drops predicted slots whose stripped,
  lowercased value is ``none`` or ``not mentioned`` (``none``), or those and the dontcare
  spellings (``none+dc``) (SimpleTOD, see :mod:`.presets`).

>>> slot_key("hotel", "people", "canon"), slot_key("hotel", "people", "ref")
(('hotel', 'book people'), ('hotel', 'people'))
>>> in_scope("hotel", "book stay", "nobook"), in_scope("taxi", "day", "30")
(False, False)
>>> clean_value("mwzeval", "leaveAt", ("train", "leaveat"), "4 pm")
'16:00'
>>> clean_value("fga", "area", ("hotel", "area"), " None ") is None
True
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from mwzrepro.core.alternatives import ABSENT, read_value
from mwzrepro.core.normalize_state import normalize_slot_name, normalize_value
from mwzrepro.dst.conventions.trade_cleaning import trade_value
from mwzrepro.dst.state import (
    DONTCARE_SPELLINGS,
    N_SLOTS,
    SLOTS,
    canonical_slot,
    canonical_value,
)

__all__ = ["GOLD_DONTCARE", "IGNORED_PREDICTED", "slot_key", "in_scope", "n_scope_slots",
           "clean_value", "ignored"]

#: Raw gold values dropped under ``gdc:drop`` (exact match, as the reference's gold states:
#: ``mwzrepro.standard.gold_states.DONTCARE_VALUES``, spec-standard-evaluation §5.4).
GOLD_DONTCARE = DONTCARE_SPELLINGS | {"do not care"}
#: ``pign`` value → predicted values (stripped, lowercased) treated as absent.
IGNORED_PREDICTED: dict[str, frozenset[str]] = {
    "keep": frozenset(),
    "none": frozenset({"none", "not mentioned"}),
    "none+dc": frozenset({"none", "not mentioned"}) | DONTCARE_SPELLINGS,
}
#: The 23 of the 30 slots without ``book …`` (slot scope ``nobook``).
_N_NOBOOK = sum(not name.startswith("book ") for _, name in SLOTS)


def slot_key(domain: str, slot: str, names: str) -> tuple[str, str]:
    """The comparison key of a raw slot name under ``names`` (``canon`` or ``ref``)."""
    if names == "canon":
        pair = canonical_slot(domain, slot)
        return pair if pair is not None else (domain.strip().lower(), normalize_slot_name(slot))
    return domain, normalize_slot_name(slot)


def in_scope(domain: str, slot: str, scope: str) -> bool:
    """Whether a raw slot is scored under slot scope ``scope`` (``30``, ``nobook``, ``all``)."""
    if scope == "all":
        return True
    pair = canonical_slot(domain, slot)
    return pair is not None and (scope == "30" or not pair[1].startswith("book "))


def n_scope_slots(scope: str) -> int:
    """|𝒮| of the slot-accuracy denominator: 30, or 23 without booking slots (``all`` counts
    the 30, as TRADE's ``compute_acc``)."""
    return _N_NOBOOK if scope == "nobook" else N_SLOTS


def ignored(value: Any, pign: str) -> bool:
    """Whether a raw predicted value is ignored under ``pign``."""
    words = IGNORED_PREDICTED[pign]
    return bool(words) and isinstance(value, str) and value.strip().lower() in words


_fga_value = lru_cache(maxsize=1 << 15)(canonical_value)


def _clean_one(clean: str, raw_slot: str, pair: tuple[str, str], value: Any) -> Any:
    if clean == "mwzeval":
        return normalize_value(normalize_slot_name(raw_slot), value)
    text = value if isinstance(value, str) else str(value)
    if clean == "none":
        return text
    if clean == "fga":
        return _fga_value(text)
    if clean == "trade":
        return trade_value(pair, text)
    if clean == "convlab3":
        out = "".join(text.split()).lower()
    else:  # lower
        out = text.strip().lower()
    return out or None


def clean_value(clean: str, raw_slot: str, pair: tuple[str, str], value: Any) -> Any:
    """The cleaned value of one raw value: a string, a tuple of alternatives (never equal to
    a gold value), or ``None`` (absent). ``pair`` is the canonical key (TRADE's rules are per
    slot); ``raw_slot`` the raw name (the reference dispatches on it). List values follow
    :func:`mwzrepro.core.alternatives.read_value` (``[]`` absent, ``[v]`` as ``v``).

    Raises:
        InputError: a value the reference's normalization cannot read
            (:func:`~mwzrepro.core.normalize_state.normalize_value`).
    """
    value = read_value(value, raw_slot)
    if value is ABSENT:
        return None
    if isinstance(value, tuple):
        kept = tuple(dict.fromkeys(v for v in (_clean_one(clean, raw_slot, pair, x)
                                                 for x in value) if v is not None))
        return None if not kept else kept[0] if len(kept) == 1 else kept
    return _clean_one(clean, raw_slot, pair, value)
