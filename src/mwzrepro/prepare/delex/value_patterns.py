"""The surface patterns of the delexicalization rule
(:mod:`mwzrepro.prepare.delex.delexicalize_responses`, rule version ``LEX_VERSION``): the
regular patterns of values (rule 2: references, phones, postcodes, train ids, money, times,
durations), those read last (rule 4: free entrance, counts), and the side of a station or
taxi endpoint (rule 3).
"""

from __future__ import annotations

import re

__all__ = ["COUNT_RE", "ENDPOINTS", "LATE_PATTERNS", "PATTERNS", "TAXI_RE", "endpoint_side"]

#: Rule 2, in order (an earlier pattern wins an overlap): ``(placeholder, pattern)``; a
#: group ``v`` is the value when the pattern also matches its cue words.
PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (slot, re.compile(p, re.IGNORECASE)) for slot, p in (
        ("ref", r"(?:reference number is|ref ?#|reference #) ?(?P<v>[a-z0-9]{5,12})(?!\w)|"
                r"(?<![\w#])(?=[a-z0-9]*\d)(?=[a-z0-9]*[a-z])[a-z0-9]{8}(?!\w)"),
        ("phone", r"(?<!\w)\(?0?\d{4}\)?[ -]?\d{3}[ -]?\d{3,4}(?!\w)|(?<!\w)\d{10,11}(?!\w)"),
        ("postcode", r"(?<!\w)c\.? ?b\.? ?\d{1,2},? ?\d ?[a-z]\.? ?[a-z](?!\w)|"
                     r"(?<!\w)[a-z]{2}\d{1,2} ?\d[a-z]{2}(?!\w)"),
        ("trainid", r"(?<!\w)tr ?\d{4}(?!\w)"),
        ("price", r"£ ?\d+(?:\.\d+)?|(?<![\w.])\d+(?:\.\d+)? ?(?:pounds?|gbp|£)(?!\w)"),
        ("time", r"(?<![\w.:])\d{1,2}:\d{2}(?: ?[ap]\.?m\b\.?)?(?![\w:])|"
                 r"(?<![\w.:])\d{1,2}(?:\.\d{2})? ?[ap]\.?m\b\.?"),
        ("duration", r"\b(?:takes|lasts|duration is|travel time is|ride time is|trip time is|"
                     r"journey is|trip is|ride is|total of|approximately|about) "
                     r"(?P<v>\d+ minutes)\b"),
    ))
#: Rule 4: patterns read after the phrases (a phrase such as ``free school lane`` wins).
LATE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (slot, re.compile(p, re.IGNORECASE)) for slot, p in (
        ("entrancefee", r"\b(?:no entrance fee|free of charge|free admission|"
                        r"free entrance|free)\b(?! ?(?:wi-?fi|internet|parking|-))"),
    ))
#: Rule 4, last: a standalone count (1–3 digits, or two … ten) → ``[choice]``.
COUNT_RE = re.compile(r"(?<![\w.:£-])(?:\d{1,3}|two|three|four|five|six|seven|eight|nine|ten)"
                       r"(?![\w:£]|\.\d)", re.IGNORECASE)
#: Rule 3: words before a station or taxi endpoint that make it a departure ...
_FROM_WORDS = frozenset({"from", "leaving", "leaves", "departing", "departs", "depart",
                         "leave"})
#: ... or a destination.
_TO_WORDS = frozenset({"to", "into", "arriving", "arrive", "arrives", "for", "at", "in"})
#: The placeholders of the two sides of a trip.
ENDPOINTS = frozenset({"departure", "destination"})
#: A response that mentions a taxi (its venue names after from/to are endpoints).
TAXI_RE = re.compile(r"\b(?:taxi|car|cab)\b", re.IGNORECASE)


def endpoint_side(slot: str, text: str, start: int, taxi: bool) -> str:
    """The placeholder of a phrase of lexicon slot ``slot`` at ``start`` (rule 3): stations
    and taxi endpoints take their side from the word before them ('' = no span); other
    slots are returned as they are.

    >>> endpoint_side("station", "a train from ely", 13, False)
    'departure'
    >>> endpoint_side("station", "cambridge station", 0, False)
    ''
    """
    if slot not in ("station", "name") or (slot == "name" and not taxi):
        return slot
    before = text[:start].split()
    word = before[-1].lower() if before else ""
    if word in _FROM_WORDS and (slot == "station" or word == "from"):
        return "departure"
    if word in _TO_WORDS and (slot == "station" or word == "to"):
        return "destination"
    if slot == "name":
        return slot
    return "" if text[start:].lower().startswith("cambridge") else "destination"
