"""Counts (spec-annotation-consistency §8), tolerances (§12.7-12.8), Table 3 (§9.3), the
verification sample, inventories (§5) and parameters (§10)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import yaml

from mwzrepro.consistency.counts import (
    TABLE_ROWS,
    count_changes,
    draw_verification_sample,
    paper_tolerance_ok,
    turn_units,
    spec_tolerance_ok,
    verification_stats,
)
from mwzrepro.consistency.lexicons import Labeller
from mwzrepro.consistency.tables import counts_table, reference_table, table3_frame
from tests.unit.consistency.helpers import inventories, run, settings, tables

REPO = Path(__file__).resolve().parents[3]
PUBLISHED = REPO / "workflow" / "resources" / "published" / "qian2021.yaml"

HT = {"hotel-type": "guesthouse"}


def _fixture_run():
    dialogues = {
        # hotel-area added at turns 1-2 (carried), hotel dialogue
        "d1": [("", "I need a guesthouse .", HT),
               ("There are 2 guesthouses in the east .", "Ok .", HT),
               ("Anything else ?", "No .", HT)],
        # restaurant dialogue without any change; one booking slot
        "d2": [("", "Book it for friday .", {"restaurant-book day": "friday"})],
        # hotel dialogue whose only hotel slot is dontcare: still in the hotel base
        "d3": [("", "Any hotel is fine .", {"hotel-stars": "dontcare"})],
    }
    return tables(dialogues), run(dialogues)


def test_count_changes_on_a_fixture() -> None:
    t, res = _fixture_run()
    c = count_changes(t["states"], res.states, res.changes).set_index(["domain", "slot"])
    assert list(c.index) == list(TABLE_ROWS) and len(c) == 24  # §12.6 shape and order
    area = c.loc[("hotel", "area")]
    assert (area["dialogues"], area["turns"], area["detections"]) == (1, 2, 1)
    assert area["dialogue_base"] == 2  # d1 and d3 (dontcare counts, §8.5)
    assert area["turn_base"] == 4
    assert area["dialogue_pct"] == 50.0 and area["turn_pct"] == 50.0
    assert (area["system_detections"], area["user_detections"]) == (1, 0)
    # d3 is not hotel-related (its only hotel slot is dontcare, §2.2), so HT2 never runs there
    assert c.loc[("hotel", "type")]["dialogues"] == 0
    total = c.loc[("total", "")]
    assert total["dialogue_base"] == 3 and total["turn_base"] == 5
    assert c.loc[("restaurant", "total")]["dialogues"] == 0
    assert c.loc[("taxi", "total")]["dialogue_base"] == 0
    assert math.isnan(c.loc[("taxi", "total")]["dialogue_pct"])


def test_counts_compare_whole_alternative_lists() -> None:
    """§8.1: with alternatives, the whole list is the value; an unchanged list is not added."""
    t, res = _fixture_run()
    same = count_changes(res.states, res.states, res.changes)
    assert same["dialogues"].sum() == 0 and same["turns"].sum() == 0


def test_tolerances() -> None:
    assert spec_tolerance_ok(99, 96) and not spec_tolerance_ok(100, 96)  # ±3
    assert spec_tolerance_ok(463, 451) and not spec_tolerance_ok(465, 451)  # ±3 % of 451
    assert paper_tolerance_ok(80, 86, "slot") and paper_tolerance_ok(99, 86, "slot")
    assert not paper_tolerance_ok(104, 86, "slot")  # > 20 % and > 6
    assert paper_tolerance_ok(63.0, 64.2, "domain_total")
    assert not paper_tolerance_ok(73.6, 71.5, "total")


def test_table3_recomputed_from_the_matrix() -> None:
    s = verification_stats(tp=97, fp=3, tn=96, fn=4)
    assert round(s["precision"], 3) == 0.970
    assert round(s["recall"], 3) == 0.960
    assert round(s["f1"], 3) == 0.965
    assert round(s["accuracy"], 3) == 0.965
    df = table3_frame(yaml.safe_load(PUBLISHED.read_text()))
    assert df.set_index("statistic").loc["f1", "recomputed"] == pytest.approx(s["f1"])


def test_verification_sample_is_seeded_and_stratified() -> None:
    t, res = _fixture_run()
    splits = {"val": turn_units(t["turns"], t["states"], res.states)}
    a = draw_verification_sample(splits, seed=0, n_modified=1, n_unmodified=2)
    b = draw_verification_sample(splits, seed=0, n_modified=1, n_unmodified=2)
    assert a.equals(b)
    assert list(a["modified"]) == [True, False, False]
    assert a.loc[0, "added"].startswith("hotel-")
    everything = draw_verification_sample(splits, seed=1, n_modified=10, n_unmodified=10)
    assert len(everything) == 5  # without replacement a small stratum is taken whole
    assert not everything.duplicated(["split", "dialogue_id", "turn"]).any()
    dia = draw_verification_sample(splits, seed=0, n_modified=5, n_unmodified=5,
                                   unit="dialogue")
    assert sorted(dia["dialogue_id"]) == ["d1", "d2", "d3"]


def test_report_tables_have_the_paper_shape() -> None:
    t, res = _fixture_run()
    counts = {("mwz21", "val"): count_changes(t["states"], res.states, res.changes)}
    pub = yaml.safe_load(PUBLISHED.read_text())
    df = counts_table(counts, pub, "dialogues")
    assert list(df.columns) == ["domain", "slot", "2.1 val", "spec 2.1 val", "paper val (2.2)",
                                "paper train (2.2)"]
    assert len(df) == 24
    row = df[(df["domain"] == "total")].iloc[0]
    assert row["paper val (2.2)"] == "768 (76.8%)" and row["spec 2.1 val"] == "765 (76.6%)"
    ref = reference_table(counts, pub)
    assert set(ref["within spec"]) <= {"yes", "no", "–"}


def test_published_file_matches_the_spec_headlines() -> None:
    pub = yaml.safe_load(PUBLISHED.read_text())
    t1 = {s: {(r[0], r[1]): r[2:] for r in pub["table1"][s]} for s in ("train", "val", "test")}
    assert t1["train"][("total", "")] == [5950, 74.2]
    assert t1["val"][("total", "")] == [768, 76.8]
    assert t1["test"][("total", "")] == [715, 71.5]
    t6 = {(r[0], r[1]): r[2:] for r in pub["table6"]["test"]}
    assert t6[("total", "")] == [3467, 47.68]
    spec = {(r["domain"], r["slot"]): r for r in pub["spec_expected"]["test"]}
    assert spec[("total", "")]["dialogues"] == 716
    assert spec[("hotel", "type")]["detections"] == 290


def test_inventories_from_databases() -> None:
    inv = inventories()
    att = dict(inv.names["attraction"])
    assert att["junction"] == "the junction"  # "the " stripped: 8 characters
    assert "place" not in att  # "the place": 1 token and 5 characters, not stripped
    assert att["all saints"] == "all saints church"  # seed alias
    assert dict(inv.names["hotel"])["city centre north bed and breakfast"] == \
        "city centre north b and b"
    # cuisines: database + ontology, minus dontcare, < 4 characters, "mentioned" and "local"
    assert "afghan" in inv.cuisines and "italian" in inv.cuisines
    assert not {"local", "do n't care", "not mentionedc"} & set(inv.cuisines)
    assert inv.stations == ("birmingham new street", "cambridge", "ely", "london kings cross",
                            "stevenage")
    assert {"the hotel", "the restaurant", "loch fyne", "ely"} <= set(inv.taxi_places)
    blocked = inventories(settings(name_blocklist=("loch fyne",)))
    assert "loch fyne" not in dict(blocked.names["restaurant"]).values()


def test_labeller_uses_the_split_spelling() -> None:
    t = tables({"a": [("", "x", {"attraction-type": "night club"})],
                "b": [("", "x", {"attraction-type": "night club"})],
                "c": [("", "x", {"attraction-type": "nightclub"})]})
    lab = Labeller(t["states"])
    assert lab("attraction", "type", "nightclub") == "night club"
    assert lab("attraction", "type", "swimmingpool") == "swimmingpool"  # not in the split
