"""Hand-made fixtures for the style tests: the spec's Table 2 turn (PMUL2636, system turn 5,
as in the ConvLab 2.0/2.1 test files) and a tiny venue database around it."""

TABLE2_TEXT = ("cafe jello gallery has a free entrance fee . The address is cafe jello gallery , "
               "13 magdalene street and the post code is cb30af . Can I help you with anything "
               "else ?")

TABLE2_SPANS = [
    ["Attraction-Inform", "Addr", "cafe jello gallery", 0, 2],
    ["Attraction-Inform", "Name", "cafe jello gallery", 0, 2],
    ["Attraction-Inform", "Addr", "13 magdalene street", 16, 18],
    ["Attraction-Inform", "Post", "cb30af", 24, 24],
    ["Attraction-Inform", "Fee", "free", 5, 5],
]

TABLE2_ACTS = {
    "general-reqmore": [["none", "none"]],
    "Attraction-Inform": [["Addr", "cafe jello gallery"], ["Addr", "13 magdalene street"],
                          ["Post", "cb30af"], ["Fee", "free"], ["Name", "cafe jello gallery"]],
}


def _empty(*slots: str) -> dict:
    return {"book": {"booked": []}, "semi": {s: "" for s in slots}}


TABLE2_METADATA = {
    "taxi": _empty("leaveAt", "destination", "departure", "arriveBy"),
    "police": _empty(),
    "restaurant": _empty("food", "pricerange", "name", "area"),
    "hospital": _empty("department"),
    "hotel": {"book": {"booked": [{"name": "a and b guest house", "reference": "IIGRA0MI"}],
                       "people": "6", "day": "tuesday", "stay": "4"},
              "semi": {"name": "a and b guest house", "area": "not mentioned",
                       "parking": "not mentioned", "type": "not mentioned"}},
    "attraction": {"book": {"booked": []},
                   "semi": {"type": "museum", "name": "not mentioned", "area": "west"}},
    "train": _empty("leaveAt", "destination", "day", "arriveBy", "departure"),
}

TABLE2_ENTRY = {"text": TABLE2_TEXT, "span_info": TABLE2_SPANS, "dialog_act": TABLE2_ACTS,
                "metadata": TABLE2_METADATA}

TABLE2_GOAL = {"taxi": {"info": {"leaveAt": "13:45"}, "reqt": ["car type", "phone"]},
               "attraction": {"info": {"type": "museum", "area": "west"},
                              "reqt": ["postcode", "entrance fee", "address"]}}

CAFE_JELLO = {"address": "cafe jello gallery, 13 magdalene street", "area": "west",
              "entrance fee": "free", "id": "7", "location": [52.22, 0.09],
              "name": "cafe jello gallery", "openhours": "it opens at 10:30 a.m.",
              "phone": "01223312112", "postcode": "cb30af", "pricerange": "free",
              "type": "museum"}
MAGDALENE = {"address": "magdalene street", "area": "west", "entrance fee": "free", "id": "42",
             "location": [52.21, 0.11], "name": "magdalene college", "openhours": "daily",
             "phone": "01223332138", "postcode": "cb30ag", "pricerange": "free",
             "type": "college"}
GANDHI = {"address": "72 regent street city centre", "area": "centre", "food": "indian",
          "id": "19214", "introduction": "", "location": [52.2, 0.12], "name": "the gandhi",
          "phone": "01223353942", "postcode": "cb21dp", "pricerange": "cheap",
          "signature": "", "type": "restaurant"}
ASHLEY = {"address": "74 chesterton road", "area": "north", "internet": "yes", "parking": "yes",
          "id": "1", "location": [52.23, 0.12], "name": "ashley hotel", "phone": "01223350059",
          "postcode": "cb41er", "price": {"double": "75", "single": "65"},
          "pricerange": "moderate", "stars": "2", "takesbookings": "yes", "type": "hotel"}
TRAINS = [
    {"arriveBy": "05:51", "day": "monday", "departure": "cambridge",
     "destination": "london kings cross",
     "duration": "51 minutes", "leaveAt": "05:00", "price": "23.60 pounds", "trainID": "TR7075"},
    {"arriveBy": "07:51", "day": "monday", "departure": "ely", "destination": "cambridge",
     "duration": "17 minutes", "leaveAt": "07:34", "price": "4.40 pounds", "trainID": "TR2125"},
    {"arriveBy": "07:08", "day": "tuesday", "departure": "london kings cross", "destination": "ely",
     "duration": "77 minutes", "leaveAt": "05:51", "price": "23.60 pounds", "trainID": "TR9000"},
]
POLICE = [{"name": "Parkside Police Station", "address": "Parkside, Cambridge", "id": 0,
           "phone": "01223358966", "postcode": "cb11jg"}]
HOSPITAL = [{"department": "neurology", "id": 0, "phone": "01223274680"}]
TAXI = {"taxi_colors": ["black", "white"], "taxi_types": ["toyota", "skoda"],
        "taxi_phone": ["^[0-9]{10}$"]}


def tiny_dbs(attractions=(CAFE_JELLO, MAGDALENE)) -> dict:
    """The seven domains with a few real MultiWOZ records each."""
    return {"restaurant": [GANDHI], "hotel": [ASHLEY], "attraction": list(attractions),
            "train": TRAINS, "taxi": TAXI, "police": POLICE, "hospital": HOSPITAL}
