"""The reference evaluator's placeholder table (spec-standard-evaluation §3.2) and the patterns
that find placeholders in a response (§3.1 step 2). Shared by the response normalization
(:mod:`mwzrepro.core.normalize`), the placeholder vocabularies (:mod:`mwzrepro.core.placeholders`)
and the delexicalizers of :mod:`mwzrepro.prepare.delex`.

>>> SLOT_MAP["value_pricerange"], SLOT_MAP["arrive by"], len(SLOT_MAP), len(set(SLOT_MAP.values()))
('PRICE', 'TIME', 130, 19)
"""

from __future__ import annotations

import re

__all__ = ["SLOT_MAP", "PLACEHOLDER_RE", "EXTENDED_PLACEHOLDER_RE"]

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
