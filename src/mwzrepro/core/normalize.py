"""Response normalization of the reference evaluator (spec-standard-evaluation §3), applied
identically to generated responses and to delexicalized references:
:func:`normalize_response` — lowercase, placeholder unification with :data:`SLOT_MAP`,
``-s``/``-ly`` removal, Moses round trip.

State, slot-name and value normalization (§4) is in :mod:`mwzrepro.core.normalize_state`.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

__all__ = ["SLOT_MAP", "PLACEHOLDER_RE", "EXTENDED_PLACEHOLDER_RE", "unify_placeholders",
           "normalize_response"]

#: Placeholder source name → unified name (spec-standard-evaluation §3.2, complete: 130 source
#: names, 19 unified names). Bracket contents not listed here are deleted.
SLOT_MAP: dict[str, str] = {
    name: unified
    for unified, names in {
        "ADDRESS": "address attraction_address hospital_address hotel_address police_address "
        "restaurant_address value_address",
        "AREA": "area value_area attraction_area restaurant_area hotel_area",
        "TIME": "booktime value_time time duration value_duration train_duration arriveby "
        "taxi_arriveby value_arrive |arrive by| train_arriveby leaveat value_leave |leave at| "
        "train_leaveat train_leave train_arrive taxi_leaveat",
        "DAY": "day value_day bookday train_day",
        "PLACE": "destination value_destination departure value_departure value_place "
        "train_departure train_destination taxi_destination taxi_departure",
        "FOOD": "food value_food restaurant_food",
        "NAME": "name attraction_name hospital_name hotel_name police_name restaurant_name "
        "value_name",
        "PHONE": "phone attraction_phone hospital_phone hotel_phone police_phone restaurant_phone "
        "taxi_phone value_phone",
        "POST": "postcode attraction_postcode hospital_postcode hotel_postcode "
        "restaurant_postcode value_postcode police_postcode",
        "PRICE": "price value_price entrancefee |entrance fee| train_price "
        "attraction_entrancefee pricerange value_pricerange |price range| restaurant_pricerange "
        "hotel_pricerange attraction_pricerange attraction_price",
        "REFERENCE": "ref attraction_reference hotel_reference restaurant_reference "
        "train_reference value_reference reference",
        "COUNT": "stars value_stars hotel_stars bookstay value_stay stay bookpeople value_people "
        "people choice value_choice value_count attraction_choice hotel_choice "
        "restaurant_choice train_choice",
        "TYPE": "type taxi_type taxi_car value_type value_car car restaurant_type hotel_type "
        "attraction_type",
        "TRAINID": "trainid train_id value_id id train train_trainid",
        "INTERNET": "internet hotel_internet",
        "PARKING": "parking hotel_parking",
        "ID": "hospital_id attraction_id restaurant_id",
        "DEPARTMENT": "value_department department hospital_department",
        "OPEN": "openhours",
    }.items()
    for name in re.findall(r"\|[^|]+\||\S+", names)
    for name in [name.strip("|")]
}

#: A placeholder: [word characters or whitespace] plus an optional plural suffix, tried in the
#: order es, s, -s, -es (§3.1 step 2).
PLACEHOLDER_RE = re.compile(r"\[([\w\s]+)\](es|s|-s|-es)?")
#: The same with ``-`` allowed inside the brackets (MultiWOZ 2.2 names; ``extended`` only,
#: :mod:`mwzrepro.core.placeholders`).
EXTENDED_PLACEHOLDER_RE = re.compile(r"\[([\w\s-]+)\](es|s|-s|-es)?")


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
