"""Slot families of the unseen-entity test set and their SGD sources
(spec-unseen-entity-test-set §3, §4.1, §4.2, §6.1).

A *family* groups the MultiWOZ slots whose values are replaced from one SGD pool: ATTR
(attraction names), HOTEL, REST (restaurant names), FOOD (cuisines), CITY (train and bus
places), PLACE (taxi places that name no known entity), DEPT (hospital departments) and the
optional ATYPE (attraction types). Taxi and bus slots have no family of their own: their values
take the family of the entity they name (``DERIVED``, §3 "Taxi slots", §6.2).
"""

from __future__ import annotations

__all__ = [
    "FAMILIES",
    "DERIVED",
    "DEFAULT_FAMILIES",
    "STATE_SLOT_ROLES",
    "ACT_SLOT_ROLES",
    "GOAL_SLOT_ROLES",
    "BOOKED_ROLES",
    "SGD_SOURCES",
    "SGD_STATION_SOURCES",
    "SEEN_SLOT_FAMILY",
    "DEFAULT_CITY_NICKNAMES",
    "DEFAULT_FOOD_POOL_EXCLUDE",
    "DEFAULT_REFERENCE_PHRASES",
    "DEFAULT_UNANNOTATED_EXCLUDE",
    "ATTRACTION_CATEGORY_MATCH",
    "POOL_MINIMUMS",
    "role_of_state_slot",
]

#: Every family, in report order.
FAMILIES = ("ATTR", "HOTEL", "REST", "FOOD", "CITY", "PLACE", "DEPT", "ATYPE")
#: The role of taxi and bus slots: family decided by what the value names (§6.2).
DERIVED = "DERIVED"
#: ``replaced_families`` default (§12).
DEFAULT_FAMILIES = ("ATTR", "HOTEL", "REST", "FOOD", "CITY", "DEPT", "PLACE")

#: (domain, canonical state slot) → family or DERIVED (§3). attraction-type is added only when
#: ``replace_attraction_type`` is on (:func:`role_of_state_slot`).
STATE_SLOT_ROLES: dict[tuple[str, str], str] = {
    ("attraction", "name"): "ATTR",
    ("hotel", "name"): "HOTEL",
    ("restaurant", "name"): "REST",
    ("restaurant", "food"): "FOOD",
    ("train", "departure"): "CITY",
    ("train", "destination"): "CITY",
    ("hospital", "department"): "DEPT",
    ("taxi", "departure"): DERIVED,
    ("taxi", "destination"): DERIVED,
    ("bus", "departure"): DERIVED,
    ("bus", "destination"): DERIVED,
}

#: (2.1 act domain, act slot) → family, DERIVED, or ``"BOOKING"`` (family from the database
#: lookup, §6.1 b).
ACT_SLOT_ROLES: dict[tuple[str, str], str] = {
    ("attraction", "name"): "ATTR",
    ("hotel", "name"): "HOTEL",
    ("restaurant", "name"): "REST",
    ("restaurant", "food"): "FOOD",
    ("train", "depart"): "CITY",
    ("train", "dest"): "CITY",
    ("hospital", "department"): "DEPT",
    ("taxi", "depart"): DERIVED,
    ("taxi", "dest"): DERIVED,
    ("bus", "depart"): DERIVED,
    ("bus", "dest"): DERIVED,
    ("booking", "name"): "BOOKING",
}

#: (goal domain, goal slot) → family or DERIVED (§6.1 d; goal slot names as in the 2.0/2.1 goal).
GOAL_SLOT_ROLES: dict[tuple[str, str], str] = {
    ("attraction", "name"): "ATTR",
    ("hotel", "name"): "HOTEL",
    ("restaurant", "name"): "REST",
    ("restaurant", "food"): "FOOD",
    ("train", "departure"): "CITY",
    ("train", "destination"): "CITY",
    ("hospital", "department"): "DEPT",
    ("taxi", "departure"): DERIVED,
    ("taxi", "destination"): DERIVED,
    ("bus", "departure"): DERIVED,
    ("bus", "destination"): DERIVED,
}

#: booked[*].name per metadata domain (§6.1 e).
BOOKED_ROLES: dict[str, str] = {"attraction": "ATTR", "hotel": "HOTEL", "restaurant": "REST"}

#: family → SGD (service, slot) sources (§3, §4.1).
SGD_SOURCES: dict[str, tuple[tuple[str, str], ...]] = {
    "ATTR": (("Travel_1", "attraction_name"),),
    "ATYPE": (("Travel_1", "category"),),
    "HOTEL": (("Hotels_1", "hotel_name"), ("Hotels_3", "hotel_name"), ("Hotels_4", "place_name")),
    "REST": (("Restaurants_1", "restaurant_name"), ("Restaurants_2", "restaurant_name")),
    "FOOD": (("Restaurants_1", "cuisine"), ("Restaurants_2", "category")),
    "CITY": (
        ("Buses_1", "from_location"),
        ("Buses_1", "to_location"),
        ("Buses_2", "origin"),
        ("Buses_2", "destination"),
        ("Buses_3", "from_city"),
        ("Buses_3", "to_city"),
        ("Trains_1", "from"),
        ("Trains_1", "to"),
    ),
    "PLACE": (("RideSharing_1", "destination"), ("RideSharing_2", "destination")),
    "DEPT": (("Services_3", "type"), ("Services_4", "type")),
}

#: Station-name slots added to CITY by ``city_pool_include_stations`` (§3 "Train slots").
SGD_STATION_SOURCES: tuple[tuple[str, str], ...] = (
    ("Buses_1", "from_station"),
    ("Buses_1", "to_station"),
    ("Buses_2", "origin_station_name"),
    ("Buses_2", "destination_station_name"),
    ("Buses_3", "from_station"),
    ("Buses_3", "to_station"),
    ("Trains_1", "from_station"),
    ("Trains_1", "to_station"),
)

#: MultiWOZ slot (domain, slot with spaces removed, lowercase) → family, for the containment
#: test U2 of §5 (members of S "from a MultiWOZ slot of the same family"). Taxi slots hold
#: places of every kind and belong to PLACE, as does the police station's name (a taxi place).
SEEN_SLOT_FAMILY: dict[tuple[str, str], str] = {
    ("attraction", "name"): "ATTR",
    ("attraction", "type"): "ATYPE",
    ("hotel", "name"): "HOTEL",
    ("restaurant", "name"): "REST",
    ("restaurant", "food"): "FOOD",
    ("train", "departure"): "CITY",
    ("train", "destination"): "CITY",
    ("bus", "departure"): "CITY",
    ("bus", "destination"): "CITY",
    ("taxi", "departure"): "PLACE",
    ("taxi", "destination"): "PLACE",
    ("hospital", "department"): "DEPT",
    ("police", "name"): "PLACE",
}

#: ``city_nicknames`` default (§4.2).
DEFAULT_CITY_NICKNAMES = (
    "chi-town", "chi town", "vegas", "philly", "san fran", "sf", "sd", "la", "ny", "nyc",
    "lax", "sfo", "atl", "kl", "cdmx", "dc",
)
#: ``food_pool_exclude`` default (§4.2).
DEFAULT_FOOD_POOL_EXCLUDE = (
    "take-out", "take out", "pick-up", "pick up", "takeout", "pickup", "breakfast", "brunch",
    "diner", "fast food",
)
#: Taxi reference phrases that are not entities (§8.3).
DEFAULT_REFERENCE_PHRASES = ("the hotel", "the restaurant")

#: Database names that are not searched in unannotated text (§6.1 f) because they are also
#: ordinary phrases ("what is the address of the place ?"). [design]
DEFAULT_UNANNOTATED_EXCLUDE: tuple[str, ...] = ("the place",)

#: MultiWOZ attraction-type → compatible SGD Travel_1 categories (§7 step 6).
ATTRACTION_CATEGORY_MATCH: dict[str, tuple[str, ...]] = {
    "museum": ("Museum",),
    "college": ("Historical Landmark",),
    "architecture": ("Historical Landmark", "Place of Worship"),
    "park": ("Park", "Nature Preserve"),
    "theatre": ("Performing Arts Venue",),
    "concerthall": ("Performing Arts Venue",),
    "swimmingpool": ("Sports Venue",),
    "multiple sports": ("Sports Venue",),
    "entertainment": ("Tourist Attraction", "Theme Park"),
    "cinema": ("Tourist Attraction", "Theme Park"),
    "nightclub": ("Tourist Attraction", "Theme Park"),
    "boat": ("Tourist Attraction", "Theme Park"),
}

#: Minimum pool sizes of acceptance check §13.9.
POOL_MINIMUMS: dict[str, int] = {
    "CITY": 10, "DEPT": 5, "ATTR": 50, "HOTEL": 50, "REST": 50, "FOOD": 50, "PLACE": 50,
    "ATYPE": 5,
}


def role_of_state_slot(domain: str, slot: str, replace_attraction_type: bool) -> str | None:
    """The role (family or DERIVED) of a canonical state slot, or None if it is never replaced."""
    if replace_attraction_type and (domain, slot) == ("attraction", "type"):
        return "ATYPE"
    return STATE_SLOT_ROLES.get((domain, slot))
