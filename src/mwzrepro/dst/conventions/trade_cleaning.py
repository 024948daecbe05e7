"""TRADE's "default cleaning" of MultiWOZ labels (switch ``clean:trade``; spec-dst-metrics
§12.5): the general typo table and the slot-value
mismatch fixes that TRADE applies to every gold label before training and scoring, written from
jasonwu0731/trade-dst ``utils/fix_label.py`` (``fix_general_label_error``, lines 2–66, commit
b77fcf1). SimpleTOD's ``--default_cleaning`` (salesforce/simpletod ``utils/dst.py``,
``default_cleaning``, lines 137–175) repeats the mismatch fixes.

Values are stripped and lowercased first; the result ``none`` means "slot absent" (TRADE's
``none`` gate), as do ``''`` and ``not mentioned``.

>>> trade_value(("hotel", "type"), "guesthouse"), trade_value(("hotel", "area"), "cen")
('guest house', 'centre')
>>> trade_value(("restaurant", "area"), "cambridge") is None
True
"""

from __future__ import annotations

__all__ = ["TRADE_TYPOS", "trade_value"]

#: Value → corrected value, for every slot (``fix_general_label_error``'s GENERAL_TYPO).
TRADE_TYPOS: dict[str, str] = {
    # type
    "guesthouse": "guest house", "guesthouses": "guest house", "guest": "guest house",
    "mutiple sports": "multiple sports", "sports": "multiple sports",
    "mutliple sports": "multiple sports", "swimmingpool": "swimming pool",
    "concerthall": "concert hall", "concert": "concert hall", "pool": "swimming pool",
    "night club": "nightclub", "mus": "museum", "ol": "architecture", "colleges": "college",
    "coll": "college", "architectural": "architecture", "musuem": "museum",
    "churches": "church",
    # area
    "center": "centre", "center of town": "centre", "near city center": "centre",
    "in the north": "north", "cen": "centre", "east side": "east", "east area": "east",
    "west part of town": "west", "ce": "centre", "town center": "centre",
    "centre of cambridge": "centre", "city center": "centre", "the south": "south",
    "scentre": "centre", "town centre": "centre", "in town": "centre",
    "north part of town": "north", "centre of town": "centre", "cb30aq": "none",
    # price range, day, parking, internet, stars
    "mode": "moderate", "moderate -ly": "moderate", "mo": "moderate",
    "next friday": "friday", "monda": "monday", "free parking": "free",
    "free internet": "yes", "4 star": "4", "4 stars": "4", "0 star rarting": "none",
    # others
    "y": "yes", "any": "dontcare", "n": "no", "does not care": "dontcare", "not men": "none",
    "not": "none", "not mentioned": "none", "": "none", "not mendtioned": "none", "3 .": "3",
    "does not": "no", "fun": "none", "art": "none",
}

_TO_NONE = {
    ("hotel", "type"): {"nigh", "moderate -ly priced", "bed and breakfast", "centre",
                        "venetian", "intern", "a cheap -er hotel"},
    ("hotel", "internet"): {"4"},
    ("hotel", "pricerange"): {"2"},
    ("attraction", "type"): {"gastropub", "la raza", "galleria", "gallery", "science", "m"},
    ("restaurant", "area"): {"stansted airport", "cambridge", "silver street"},
    ("attraction", "area"): {"norwich", "ely", "museum", "same area as hotel"},
}
_HOTEL_TYPE = {"hotel with free parking and free wifi", "4", "3 star hotel"}
_AREA = {"no": "north", "we": "west", "cent": "centre"}
_DAY = {"we": "wednesday", "no": "none"}


def trade_value(slot: tuple[str, str], value: str) -> str | None:
    """TRADE's cleaned value of ``slot`` (a canonical ``(domain, slot)`` pair), ``None`` when
    the result means "absent" (``none``)."""
    v = TRADE_TYPOS.get(value.strip().lower(), value.strip().lower())
    _, name = slot
    if v in _TO_NONE.get(slot, ()) or ("area" in name and v == "moderate") or (
            "day" in name and v == "t"):
        v = "none"
    elif slot == ("hotel", "type") and v in _HOTEL_TYPE:
        v = "hotel"
    elif "area" in name:
        v = _AREA.get(v, v)
    elif "day" in name:
        v = _DAY.get(v, v)
    elif "price" in name and v == "ch":
        v = "cheap"
    elif name == "internet" and v == "free":
        v = "yes"
    return None if v == "none" else v
