"""Building the unseen-entity test set on the hand-made fixture world
(spec-unseen-entity-test-set §6-§9, acceptance checks §13)."""

from __future__ import annotations

import copy
import hashlib
import json
import re
from pathlib import Path

import pandas as pd
import pytest

from mwzrepro.core.io import dumps_json
from mwzrepro.prepare.ingest.convlab import load_convlab
from mwzrepro.core.errors import ConfigError, MwzreproError
from mwzrepro.unseen.build import load_databases, report_parameters, run_unseen
from mwzrepro.unseen.catalog import EntityCatalog
from mwzrepro.unseen.families import FAMILIES
from mwzrepro.unseen.params import UnseenParams
from mwzrepro.unseen.plan import plan_dialogue
from mwzrepro.unseen.replacements import Pools, candidate_hash
from mwzrepro.unseen.sgd_pools import build_pool, collect_raw_strings, family_sources, read_sgd
from mwzrepro.unseen.testset import ExhaustedPoolError, build_unseen_test_set

FIX = Path(__file__).resolve().parents[2] / "fixtures" / "unseen"


@pytest.fixture(scope="module")
def world():
    corpus = read_sgd({s: FIX / f"sgd/{s}/schema.json" for s in ("train", "dev", "test")},
                      {"train": [FIX / "sgd/train/dialogues_001.json"],
                       "test": [FIX / "sgd/test/dialogues_001.json"]})
    pool, _ = build_pool(collect_raw_strings(corpus, family_sources(FAMILIES)))
    return {
        "base": load_convlab(FIX / "multiwoz/test.json"),
        "pool": pool,
        "dbs": load_databases(sorted((FIX / "multiwoz/db").glob("*_db.json"))),
        "ontology": json.loads((FIX / "multiwoz/ontology.json").read_text()),
        "schema": json.loads((FIX / "multiwoz/schema.json").read_text()),
    }


def run(world, **kw):
    return run_unseen(world["base"], world["pool"], world["dbs"], world["ontology"],
                      world["schema"], UnseenParams(**kw))


@pytest.fixture(scope="module")
def out(world):
    return run(world)


def ws(text: str) -> list[str]:
    return re.findall(r"\S+", text)


def test_candidate_hash_is_the_spec_formula():
    text = "0|SNG0293|CITY|ely|fresno"
    expected = int(hashlib.sha256(text.encode()).hexdigest()[:16], 16)
    assert candidate_hash(0, "SNG0293", "CITY", "ely", "fresno") == expected
    assert candidate_hash(1, "SNG0293", "CITY", "ely", "fresno") != expected


def test_sng0293_fixture_ely_and_cambridge(out, world):
    """§13 item 10: ely and cambridge replaced in turn-0 text, states from turn 0 on, acts and
    goal, by two different CITY values; span_info indices still select the new words."""
    new, base = out.data["SNG0293"], world["base"]["SNG0293"]
    m = out.mapping.set_index(["dialogue_id", "canonical"])
    ely = m.loc[("sng0293", "ely")]
    cam = m.loc[("sng0293", "cambridge")]
    assert ely["family"] == cam["family"] == "CITY"
    assert ely["replacement_key"] != cam["replacement_key"]
    ely_v, cam_v = ely["replacement_key"], cam["replacement_key"]
    t0 = new["log"][0]["text"]
    assert "Ely" not in t0 and "Cambridge" not in t0
    assert ely["replacement_surface"] in t0 and cam["replacement_surface"] in t0
    semi = new["log"][1]["metadata"]["train"]["semi"]
    assert (semi["departure"], semi["destination"]) == (ely_v, cam_v)
    assert new["log"][0]["dialog_act"]["Train-Inform"] == [["Dest", cam_v], ["Depart", ely_v]]
    assert new["goal"]["train"]["info"]["departure"] == ely_v
    assert new["goal"]["train"]["info"]["destination"] == cam_v
    assert f"<span class='emphasis'>{ely_v}</span>" in new["goal"]["message"][0]
    for span in new["log"][0]["span_info"]:
        assert " ".join(ws(t0)[span[3]:span[4] + 1]).lower() == span[2]
    # untouched: text outside mentions, non-replaced slots, dontcare
    assert new["log"][2]["text"].startswith("Friday please , I am coming to ")
    assert new["log"][3]["metadata"]["train"]["semi"]["leaveAt"] == "dontcare"
    assert new["log"][3]["metadata"]["train"]["semi"]["day"] == "friday"
    assert len(new["log"]) == len(base["log"])


def test_taxi_takes_the_entity_replacement_and_reference_phrases_stay(out):
    new = out.data["MUL0001"]
    m = out.mapping.set_index(["dialogue_id", "canonical"])
    hotel = m.loc[("mul0001", "bridge guest house"), "replacement_key"]
    rest = m.loc[("mul0001", "the golden curry"), "replacement_key"]
    taxi = new["log"][5]["metadata"]["taxi"]["semi"]
    assert (taxi["departure"], taxi["destination"]) == (hotel, rest)
    assert new["log"][3]["metadata"]["hotel"]["book"]["booked"] == [
        {"name": hotel, "reference": "ABC"}]
    assert new["goal"]["taxi"]["info"] == {"departure": hotel, "destination": rest}
    assert new["log"][5]["dialog_act"]["Taxi-Inform"] == [["Dest", "the restaurant"]]
    assert new["log"][5]["text"] == "Your taxi will take you to the restaurant ."
    # cased mention keeps the pool surface; the following "'s" stays outside the mention
    s1 = new["log"][3]["text"]
    assert m.loc[("mul0001", "bridge guest house"), "replacement_surface"] + " 's" in s1
    # lowercase mention gets a lowercase surface
    assert hotel in new["log"][2]["text"]


def test_acceptance_checks_on_the_fixture(out):
    checks = out.report["checks"]
    for name in ("1_unseen", "2_no_structured_leaks", "3_text_leaks", "4_structure",
                 "5_consistency", "6_spans", "7_grounding"):
        assert checks[name]["pass"], (name, checks[name])
    assert checks["6_spans"]["span_errors"] == 0
    assert checks["6_spans"]["spans_property_held_in_base"] == 16
    assert checks["6_spans"]["spans_property_still_held"] == 16
    # the fixture's pools are far below the §13.9 minimums: the check must say so
    assert not checks["9_coverage"]["pass"]
    assert checks["9_coverage"]["pools_below_minimum"]["HOTEL"] == 4
    assert checks["9_coverage"]["turns_state_changed"] == 4  # 4 of 5 user turns
    assert out.report["training_split"].startswith("unavailable")
    assert out.report["stats"]["u3_applied"] is False
    assert len(out.leaks) == 0


def test_every_new_value_is_unseen(out, world):
    seen_values = {"ely", "cambridge", "bridge guest house", "indian", "the golden curry"}
    states = out.tables["states"]
    replaced = states[states["slot"].isin(["name", "food", "departure", "destination"])]
    assert len(replaced) and not set(replaced["value"]) & seen_values
    admissible = set(out.pool[out.pool["admissible"]]["key"])
    assert set(out.mapping["replacement_key"]) <= admissible


def test_structure_is_preserved(out, world):
    from mwzrepro.prepare.ingest.convlab import convert_dialogues

    base_tables, _ = convert_dialogues(world["base"], "test")
    for name in ("dialogues", "turns", "spans", "acts", "states", "booked", "goals"):
        assert len(out.tables[name]) == len(base_tables[name]), name
    keys = ["dialogue_id", "turn", "domain", "slot"]
    pd.testing.assert_frame_equal(out.tables["states"][keys].reset_index(drop=True),
                                  base_tables["states"][keys].reset_index(drop=True))
    assert out.tables["turns"]["speaker"].tolist() == base_tables["turns"]["speaker"].tolist()


def test_same_seed_same_bytes_other_seed_other_choices(world, out):
    again = run(world)
    assert dumps_json(again.data) == dumps_json(out.data)
    assert again.mapping.equals(out.mapping)
    other = run(world, seed=1)
    a = out.mapping.set_index(["dialogue_id", "canonical"])["replacement_key"]
    b = other.mapping.set_index(["dialogue_id", "canonical"])["replacement_key"]
    assert (a != b).any()


def test_global_scope_is_injective_per_family(world):
    base = copy.deepcopy(world["base"])
    base["SNG0294"] = copy.deepcopy(base["SNG0293"])
    res = run_unseen(base, world["pool"], world["dbs"], world["ontology"], world["schema"],
                     UnseenParams(mapping_scope="global"))
    m = res.mapping
    for did in ("sng0293", "sng0294"):
        assert m[m["dialogue_id"] == did].set_index("canonical")["replacement_key"].to_dict() \
            == m[m["dialogue_id"] == "sng0293"].set_index("canonical")["replacement_key"].to_dict()
    per = m.drop_duplicates(["family", "canonical"])
    assert not per.duplicated(["family", "replacement_key"]).any()


def test_spans_scope_only_rewrites_annotated_mentions(world):
    res = run(world, replace_scope="spans")
    # "coming to Cambridge" in turn 2 has no span: it stays
    assert "Cambridge" in res.data["SNG0293"]["log"][2]["text"]
    assert "Cambridge" not in res.data["SNG0293"]["log"][0]["text"]


def test_exhausted_pool_names_dialogue_and_family(world):
    catalog = EntityCatalog.from_databases(world["dbs"])
    pools = Pools(world["pool"][(world["pool"]["family"] != "CITY")
                                | (world["pool"]["key"] == "fresno")])
    with pytest.raises(ExhaustedPoolError, match="SNG0293.*CITY") as err:
        build_unseen_test_set({"SNG0293": world["base"]["SNG0293"]}, catalog, pools)
    assert isinstance(err.value, MwzreproError)  # one line from the CLI, exit 1


def test_plan_orders_entities_by_first_mention(world):
    catalog = EntityCatalog.from_databases(world["dbs"])
    plan = plan_dialogue("MUL0001.json", world["base"]["MUL0001"], catalog, UnseenParams())
    assert plan.source_id == "MUL0001"
    assert plan.order == [("HOTEL", "bridge guest house"), ("FOOD", "indian"),
                          ("REST", "the golden curry")]
    assert plan.tokenised


def test_training_text_requirement(world):
    with pytest.raises(ConfigError, match="no training split"):
        run_unseen(world["base"], world["pool"], world["dbs"], world["ontology"],
                   world["schema"], UnseenParams(unseen_check_training_text="true"))
    res = run_unseen(world["base"], world["pool"], world["dbs"], world["ontology"],
                     world["schema"], train=world["base"])
    assert res.report["stats"]["u3_applied"] and res.report["training_split"] == "available"


def test_attraction_category_match(world):
    catalog = EntityCatalog.from_databases(world["dbs"])
    dialogue = {"goal": {}, "log": [
        {"text": "Tell me about all saints church .", "metadata": {}, "dialog_act": {},
         "span_info": []},
        {"text": "It is nice .", "metadata": {"attraction": {"book": {"booked": []}, "semi": {
            "name": "all saints church", "type": "architecture", "area": ""}}},
         "dialog_act": {}, "span_info": []}]}
    for seed in range(5):
        res = build_unseen_test_set({"X1": dialogue}, catalog, Pools(world["pool"]),
                                    UnseenParams(seed=seed, attraction_category_match=True))
        choice = res.assignments["X1"][("ATTR", "all saints church")]
        assert "Historical Landmark" in choice.categories  # architecture → landmark/worship


def test_report_parameters_keep_the_report_layout(out):
    """The validation report's ``parameters`` (also the Parquet metadata of every unseen
    table): transformation settings, then seen-set settings, lists as JSON lists."""
    params = report_parameters(UnseenParams())
    assert list(params) == [
        "replaced_families", "replace_attraction_type", "replace_unannotated_mentions", "seed",
        "mapping_scope", "attraction_category_match", "replace_scope", "match_tokenisation",
        "text_match_single_token_fallback", "unseen_containment",
        "unseen_check_training_text", "entity_fuzzy_threshold", "seed_aliases",
        "reference_phrases", "unannotated_exclude"]
    assert params["replaced_families"] == ["ATTR", "HOTEL", "REST", "FOOD", "CITY", "DEPT",
                                           "PLACE"]
    assert params["entity_fuzzy_threshold"] == 90.0
    assert params["seed_aliases"][0] == ["all saints", "all saints church", "attraction"]
    assert params["unannotated_exclude"] == ["the place"]
    assert out.report["parameters"] == params
    assert out.report["signature"].startswith(
        "UNSEEN|seed:0|scope:dialogue|fam:ATTR+HOTEL+REST+FOOD+CITY+DEPT+PLACE|atype:no|u2:yes|"
        "u3:no|fuzzy:90.0|train:no|")
    assert list(out.report)[-1] == "signature"
