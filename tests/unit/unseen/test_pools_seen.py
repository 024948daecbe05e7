"""SGD pools (spec-unseen-entity-test-set §4.1-4.3) and the seen set / unseen test (§5) on the
hand-made fixture world in tests/fixtures/unseen/."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from mwzrepro.unseen.families import FAMILIES
from mwzrepro.unseen.seen import (
    build_seen_set,
    closed_class_values,
    entries_from_databases,
    entries_from_ontology,
    entries_from_schema22,
    entries_from_states,
    filter_pool,
)
from mwzrepro.unseen.params import UnseenParams
from mwzrepro.unseen.sgd_pools import (
    build_pool,
    collect_raw_strings,
    family_sources,
    read_sgd,
)

FIX = Path(__file__).resolve().parents[2] / "fixtures" / "unseen"


@pytest.fixture(scope="module")
def pool() -> tuple[pd.DataFrame, dict]:
    corpus = read_sgd({s: FIX / f"sgd/{s}/schema.json" for s in ("train", "dev", "test")},
                      {"train": [FIX / "sgd/train/dialogues_001.json"],
                       "test": [FIX / "sgd/test/dialogues_001.json"]})
    return build_pool(collect_raw_strings(corpus, family_sources(FAMILIES)))


def keys(df: pd.DataFrame, family: str) -> list[str]:
    return df[df["family"] == family]["key"].tolist()


def test_surface_is_the_most_frequent_spelling(pool):
    df, _ = pool
    row = df[(df["family"] == "REST") & (df["key"] == "bird dog")].iloc[0]
    assert row["surface"] == "Bird Dog"
    # span text, action value, user state and three service_results rows
    assert row["n_raw"] == 6
    assert row["sources"] == ["Restaurants_1:restaurant_name"]


def test_cleaning_rules_all_families(pool):
    df, dropped = pool
    rest = keys(df, "REST")
    assert "cafe (downtown) #2" not in rest  # characters outside the allowed set
    assert "xo" not in rest  # shorter than 3 characters
    assert not any(len(k.split()) > 6 for k in rest)
    assert dropped["REST"] == {"character outside letters, digits, space, ' & . -": 1,
                               "more than 6 tokens": 1, "shorter than 3 characters": 1}
    assert "hotel joe's" in keys(df, "HOTEL")  # typographic apostrophe normalised


def test_city_cleaning(pool):
    df, dropped = pool
    city = keys(df, "CITY")
    assert "anaheim" in city and "portland" in city  # "Anaheim, CA", "Portland OR"
    assert "sfo" not in city  # shorter than 4
    assert "boston" not in city  # spelled only in capitals
    assert "philly" not in city  # nickname
    assert dropped["CITY"] == {"city key shorter than 4 characters": 1, "city nickname": 1,
                               "city spelled only in capitals": 1}


def test_food_exclude_and_schema_values(pool):
    df, _ = pool
    food = keys(df, "FOOD")
    assert "take-out" not in food
    assert {"ethiopian", "punjabi", "filipino"} <= set(food)  # schema possible_values
    assert keys(df, "DEPT") == ["dermatologist", "ent specialist", "family counselor",
                                "ophthalmologist", "psychiatrist"]


def test_attraction_categories_are_recorded(pool):
    df, _ = pool
    row = df[(df["family"] == "ATTR") & (df["key"] == "alcatraz island")].iloc[0]
    assert row["categories"] == ["Historical Landmark"]


def test_station_slots_only_on_request():
    assert ("Trains_1", "from_station") not in family_sources(["CITY"])["CITY"]
    assert ("Trains_1", "from_station") in family_sources(["CITY"], True)["CITY"]


def test_max_tokens_parameter(pool):
    corpus = read_sgd({}, {"train": [FIX / "sgd/train/dialogues_001.json"]})
    raw = collect_raw_strings(corpus, family_sources(["REST"]))
    df, _ = build_pool(raw, UnseenParams(max_tokens=1))
    assert keys(df, "REST") == ["bazille"]


def _seen(states: pd.DataFrame | None = None, training_utterances=None):
    entries = [
        *entries_from_ontology(json.loads((FIX / "multiwoz/ontology.json").read_text())),
        *entries_from_databases({p.name[:-8]: json.loads(p.read_text())
                                 for p in (FIX / "multiwoz/db").glob("*_db.json")}),
        *entries_from_schema22(json.loads((FIX / "multiwoz/schema.json").read_text())),
    ]
    if states is not None:
        entries += list(entries_from_states(states, "base"))
    return build_seen_set(entries, training_split=training_utterances is not None,
                          training_utterances=training_utterances)


def test_unseen_tests_u1_u2():
    seen = _seen()
    assert seen.check("Bridge Guest House", "HOTEL") == "U1"  # N-equal to a database name
    assert seen.check("bridge guest house annex", "HOTEL").startswith("U2: contains")
    assert seen.check("golden curry", "REST").startswith("U2: contained in")
    # U2 is same-family only and ignores short single words: "west" is an area value
    assert seen.check("best western of long beach", "HOTEL") == ""
    assert seen.check("bridge guest house annex", "REST") == ""
    assert seen.check("bridge guest house annex", "HOTEL", containment=False) == ""
    assert "parkside police station" in seen  # 2.2 schema possible_values


def test_u3_only_with_training_text():
    assert _seen().check("hop creek pub", "PLACE") == ""
    seen = _seen(training_utterances=["Take me to Hop Creek Pub ."])
    assert seen.check("hop creek pub", "PLACE") == "U3"
    assert seen.training_split and seen.training_text is not None


def test_base_states_enter_the_seen_set():
    states = pd.DataFrame({"dialogue_id": ["d"], "turn": [0], "domain": ["hotel"],
                           "slot": ["name"], "value": ["alila bangsar|other"],
                           "alternatives": [["alila bangsar|other"]], "position": [0]})
    seen = _seen(states)
    assert seen.check("Alila Bangsar", "HOTEL") == "U1"
    assert seen.check("other", "HOTEL") == "U1"  # the "a|b" form is split
    assert seen.counts["base"] == 2


def test_filter_pool_and_closed_class(pool):
    df, _ = pool
    filtered = filter_pool(df, _seen())
    bad = filtered[~filtered["admissible"]].set_index(["family", "key"])["reason"].to_dict()
    assert bad == {("ATYPE", "museum"): "U1", ("CITY", "cambridge"): "U1",
                   ("FOOD", "indian"): "U1",
                   ("HOTEL", "bridge guest house annex"): "U2: contains 'bridge guest house'",
                   ("HOTEL", "the lensfield hotel"): "U1"}
    closed = closed_class_values(_seen(), ["ATTR", "HOTEL", "REST", "FOOD", "CITY", "PLACE"])
    assert {"south", "guest house", "museum", "restaurant"} <= closed  # area, type, ATYPE off
    assert "cambridge" not in closed and "parkside police station" not in closed
