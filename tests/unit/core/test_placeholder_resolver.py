"""The rule-based placeholder-name resolver (issue 28, mwzrepro.core.placeholder_resolver):
each synonym family, the near misses, the deliberate unknowns with their reasons, every
placeholder name of the 19 public files and the issue 18 forms, and a property: resolution is
case-insensitive and independent of the separator."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mwzrepro.core.placeholder_lexicon import DOMAIN_WORDS, SYNONYMS, TABLE_SLOTS
from mwzrepro.core.placeholder_resolver import lexicon, name_words, resolve, unified_name
from mwzrepro.core.slot_map import EXTENDED_PLACEHOLDER_RE, SLOT_MAP
from tests.unit.core.test_placeholders import DOMAIN_SLOT, MWZ22, VALUE

FAMILIES = {
    "REFERENCE": ["reference_number", "ref_number", "booking_reference", "booking_ref",
                  "confirmation", "confirmation_number", "confirmation_code", "number",
                  "hotel_number", "booking_number", "booking_id", "reservation_number",
                  "hotel_booking_reference", "restaurant_confirmation_number"],
    "PHONE": ["phone_number", "telephone", "telephone_number", "taxi_number",
              "taxi_phone_number", "hotel_telephone", "contact_number"],
    "TIME": ["travel_time", "duration", "journey_time", "train_travel_time", "trip_duration",
             "time", "booking_time", "restaurant_booking_time", "departure_time",
             "arrival_time", "train_departure_time", "taxi_pickup_time", "leave_at"],
    "FOOD": ["food_type", "type_of_food", "cuisine", "restaurant_food_type", "cuisine_type"],
    "COUNT": ["people", "persons", "guests", "number_of_people", "booking_people",
              "hotel_number_of_guests", "party_size", "nights", "length_of_stay",
              "number_of_choices", "star_rating"],
    "POST": ["postal_code", "post_code", "zip", "zip_code", "hotel_postal_code",
             "attraction_zip"],
    "DAY": ["booking_day", "hotel_booking_day", "date", "book_day"],
    "TRAINID": ["train_number", "train id", "train-id"],
    "ID": ["hotel_id", "police_id"],
    "PLACE": ["departure_station", "destination_station", "taxi_pickup_location", "origin"],
    "PRICE": ["ticket_price", "cost", "fare", "entry_fee", "admission", "price_level"],
    "OPEN": ["opening_hours", "attraction_open_hours"],
    "INTERNET": ["wifi", "hotel_wifi"],
}

NEAR_MISSES = {"phone_nubmer": "PHONE", "referance_number": "REFERENCE",
               "restaurant_adress": "ADDRESS", "restuarant_phone": "PHONE",
               "atraction_postcode": "POST", "hotel_reference_numbr": "REFERENCE",
               "departure_tiem": "TIME", "postcde": "POST"}

#: Names that stay unknown, with the reason the rule gives.
UNKNOWN = {
    "hotel": "no slot word", "restaurant": "no slot word", "booking": "no slot word",
    "db_3": "no slot phrase 'db 3'", "hotel_restaurant_name": "two domains: hotel, restaurant",
    "de luca cucina and bar": "no slot phrase 'de luca cucina and bar'",
    "price_of_ticket": "no slot phrase 'price of ticket'", "xyz": "no slot phrase 'xyz'",
    "train_taxi_number": "two domains: taxi, train",
}

#: Every placeholder name of the 19 public prediction files (Tomiinek/MultiWOZ_Evaluation,
#: predictions/*.json, lowercased) → its unified name; None = deliberately unknown (a bare
#: domain: no slot).
PUBLIC = {
    "ADDRESS": "address attraction_address hospital_address hotel_address police_address "
               "restaurant_address value_address",
    "AREA": "area attraction_area hotel_area restaurant_area value_area",
    "TIME": "arrive|by arriveby booktime duration leave|at leaveat taxi_leaveat time "
            "train_arrive train_arriveby train_duration train_leave train_leaveat value_arrive "
            "value_duration value_leave value_time",
    "COUNT": "attraction_choice bookpeople bookstay choice hotel_choice hotel_stars "
             "restaurant_choice stars train_choice value_choice value_count value_people "
             "value_stars value_stay",
    "PRICE": "attraction_entrancefee attraction_price attraction_pricerange entrancefee "
             "hotel_pricerange price price|range pricerange restaurant_pricerange train_price "
             "value_price value_pricerange",
    "NAME": "attraction_name hospital_name hotel_name name restaurant_name value_name",
    "PHONE": "attraction_phone hospital_phone hotel_phone phone police_phone restaurant_phone "
             "taxi_phone value_phone",
    "POST": "attraction_postcode hospital_postcode hotel_postcode police_postcode postcode "
            "restaurant_postcode value_postcode",
    "REFERENCE": "attraction_reference hotel_reference reference restaurant_reference "
                 "train_reference value_reference",
    "TYPE": "attraction_type car hotel_type restaurant_type taxi_car taxi_type type value_car "
            "value_type",
    "DAY": "bookday day train_day value_day",
    "PLACE": "departure train_departure train_destination value_departure value_destination "
             "value_place",
    "FOOD": "food restaurant_food value_food",
    "ID": "hospital_id", "INTERNET": "hotel_internet", "PARKING": "hotel_parking",
    "TRAINID": "id train_id train_trainid trainid value_id",
    None: "hotel restaurant",
}
PUBLIC_NAMES = {name.replace("|", " "): unified for unified, names in PUBLIC.items()
                for name in names.split()}


@pytest.mark.parametrize("name, unified", [(n, u) for u, ns in FAMILIES.items() for n in ns])
def test_each_synonym_family(name, unified):
    r = resolve(name)
    assert r.unified == unified and r.reason in ("lexicon", "table"), r


@pytest.mark.parametrize("name, unified", sorted(NEAR_MISSES.items()))
def test_near_misses_resolve_to_the_one_close_slot(name, unified):
    r = resolve(name)
    assert r.unified == unified and (r.reason.startswith("near miss of")
                                     or r.domain != name.split("_")[0]), r


@pytest.mark.parametrize("name, slots", [("stary", "stars, stay"),
                                         ("departure_tim", "departure, leave"),
                                         ("number_of_ghests", "people, stay")])
def test_a_near_miss_of_two_slots_stays_unknown(name, slots):
    r = resolve(name)
    assert (r.unified, r.reason) == (None, f"near miss of several slots: {slots}")


def test_short_phrases_get_no_near_miss():
    assert resolve("strs").unified is None and resolve("stars").unified == "COUNT"


@pytest.mark.parametrize("name, reason", sorted(UNKNOWN.items()))
def test_deliberate_unknowns_with_their_reason(name, reason):
    r = resolve(name)
    assert (r.unified, r.reason) == (None, reason)


@pytest.mark.parametrize("name, unified", sorted(PUBLIC_NAMES.items(), key=str))
def test_every_public_placeholder_name(name, unified):
    r = resolve(name)
    assert r.unified == unified
    assert r.reason == ("table" if unified else "no slot word")
    assert unified == SLOT_MAP.get(name)          # no table name changes meaning


@pytest.mark.parametrize("name, unified", DOMAIN_SLOT + MWZ22 + VALUE)
def test_every_issue18_form_keeps_its_meaning(name, unified):
    assert unified_name(name) == unified


@pytest.mark.mirror
def test_the_public_table_holds_every_name_of_the_19_files(mirror):
    files = sorted((mirror / "Tomiinek/MultiWOZ_Evaluation").glob("*/predictions/*.json"))
    if len(files) != 19:
        pytest.skip(f"the mirror holds {len(files)} public prediction files, not 19")
    found = set()
    for path in files:
        for turns in json.loads(path.read_text(encoding="utf-8")).values():
            for turn in turns:
                text = turn["response"] if isinstance(turn, dict) else turn
                found.update(m.group(1)
                             for m in EXTENDED_PLACEHOLDER_RE.finditer(text.lower()))
    assert found == set(PUBLIC_NAMES)


def test_lexicon_phrases_have_one_concept_and_no_domain_words():
    table = lexicon()
    assert set(table) >= {k.replace(" ", "") for k in TABLE_SLOTS}
    for phrase in SYNONYMS:
        assert not set(phrase.split()) & DOMAIN_WORDS, phrase


def test_words_of_joined_names():
    assert name_words("HotelBookingReference") == ["hotel", "booking", "reference"]
    assert name_words("phoneNumberHotel") == ["phonenumber", "hotel"]
    assert name_words("restaurant-book_time") == ["restaurant", "book", "time"]


_SLOT_PHRASES = sorted({*SYNONYMS, *TABLE_SLOTS} - {"leave at", "arrive by"})


@given(domain=st.sampled_from(sorted(DOMAIN_WORDS) + [""]),
       qualifier=st.sampled_from(["", "booking", "value", "book"]),
       phrase=st.sampled_from(_SLOT_PHRASES),
       seps=st.lists(st.sampled_from(["_", "-", " "]), min_size=8, max_size=8),
       case=st.sampled_from(["lower", "upper", "camel", "pascal"]),
       domain_last=st.booleans())
def test_resolution_is_case_insensitive_and_separator_independent(domain, qualifier, phrase,
                                                                   seps, case, domain_last):
    words = [w for w in [qualifier, *phrase.split()] if w]
    words = [*words, domain] if domain_last else [domain, *words]
    words = [w for w in words if w]
    canonical = resolve("_".join(words))
    if case in ("camel", "pascal"):
        joined = "".join(w.capitalize() for w in words)
        name = joined[0].lower() + joined[1:] if case == "camel" else joined
    else:
        name = "".join(w + s for w, s in zip(words, seps))[:-1]
        name = name.upper() if case == "upper" else name
    assert resolve(name).unified == canonical.unified, (name, words)


_NAMES = st.sampled_from(["hotel", "restaurant", "restuarant", "area", "book_day", "colour",
                          "leaveAt", "price range", 'a"b', "x\\y", "", "people", ":{"])
_STATES = st.dictionaries(_NAMES, st.dictionaries(_NAMES, st.one_of(
    st.sampled_from(["x", 'q":{"', "", "a\\b"]), st.lists(st.sampled_from(["y", "z"]),
                                                          max_size=2)), max_size=4),
    max_size=3)


@given(states=st.lists(_STATES, max_size=4))
def test_the_key_scan_of_state_cells_agrees_with_the_parsed_scan(states):
    """cells_have_unknown (one regular-expression pass, every run) finds an unknown name
    exactly when the parsed scan does, whatever the values and escapes."""
    from mwzrepro.core.state_dialects import cells_have_unknown, resolve_state_json, scan_states

    cells = [json.dumps(s, ensure_ascii=False, separators=(",", ":")) for s in states]
    assert cells_have_unknown(cells) == bool(scan_states(states))
    for cell, state in zip(cells, states):
        assert (resolve_state_json(cell) != cell) <= bool(scan_states([state]))


def test_every_joined_or_cased_form_reads_as_its_separated_form() -> None:
    """The property above over its whole (finite) space, so no run depends on which examples
    hypothesis draws: every domain (or none, first or last), qualifier and slot phrase,
    joined in camel or Pascal case, or upper-cased with spaces."""
    import itertools

    bad = []
    for domain, qualifier, phrase, case, last in itertools.product(
            sorted(DOMAIN_WORDS) + [""], ["", "booking", "value", "book"], _SLOT_PHRASES,
            ["camel", "pascal", "upper"], [True, False]):
        words = [w for w in [qualifier, *phrase.split()] if w]
        words = [w for w in ([*words, domain] if last else [domain, *words]) if w]
        if case == "upper":
            name = " ".join(words).upper()
        else:
            joined = "".join(w.capitalize() for w in words)
            name = joined[0].lower() + joined[1:] if case == "camel" else joined
        if resolve(name).unified != resolve("_".join(words)).unified:
            bad.append(name)
    assert not bad, bad[:20]


def test_name_words_split_joined_words_and_drop_empty_parts():
    """A leading or trailing separator leaves no empty word; a word that ends with a domain word
    after an unknown part splits there (``xyzhotel``: ``xyz`` ``hotel``)."""
    from mwzrepro.core.placeholder_resolver import name_words

    assert name_words("") == [] and name_words("-hotel") == ["hotel"]
    assert name_words("_area_") == ["area"]
    assert name_words("xyzhotel") == ["xyz", "hotel"]
    assert name_words("bookingday") == ["booking", "day"]


def test_fillers_are_dropped_before_a_near_miss_is_tried():
    """``the phone number`` is the lexicon's ``phonenumber`` once the filler goes: found, not a
    near miss."""
    assert resolve("the phone number").reason == "lexicon"
    assert resolve("the phone number").unified == "PHONE"
