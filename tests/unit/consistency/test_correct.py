"""Applying detections (spec-annotation-consistency §4.6, §6): merging, carry-forward, no
deletion, the dontcare and multi-value policies, overrides, rejection cues, positions, the
change log, and the ConvLab export."""

from __future__ import annotations

import json
import zipfile

import pytest

from mwzrepro.consistency.export import export_convlab
from mwzrepro.consistency.context import Hit
from mwzrepro.consistency.detect import merge_hits
from mwzrepro.consistency.overrides import Override
from mwzrepro.consistency.settings import CorrectionSettings
from mwzrepro.core.errors import InputError
from mwzrepro.prepare.ingest.convlab import read_convlab
from tests.unit.consistency.helpers import added, convlab_json, detections, run, tables

HT = {"hotel-type": "guesthouse"}


def _hit(value: str, order: int) -> Hit:
    return Hit(value, "R", "system", "system", order, order + len(value), order)


def test_merge_hits_rules() -> None:
    """§4.6: drop a leading "the", keep the longer of contained values, drop duplicates,
    order by first occurrence."""
    merged = merge_hits([_hit("european", 30), _hit("modern european", 20), _hit("indian", 5),
                         _hit("indian", 40)])
    assert [h.value for h in merged] == ["indian", "modern european"]
    merged = merge_hits([_hit("gandhi", 3), _hit("the gandhi", 10)])
    assert [h.value for h in merged] == ["the gandhi"]


def test_carry_forward_until_the_original_labels_the_slot() -> None:
    turns = [("", "I need a guesthouse .", HT),
             ("There are 2 guesthouses in the east .", "Ok .", HT),
             ("Anything else ?", "No .", HT),
             ("Which area ?", "The west please .", {**HT, "hotel-area": "west"}),
             ("Ok .", "Thanks .", HT)]  # the annotation drops the area again
    res = run({"d1": turns})
    assert added(res) == {(1, "hotel-area"): "east", (2, "hotel-area"): "east"}
    st = res.states
    row = st[(st["turn"] == 3) & (st["slot"] == "area")].iloc[0]
    assert (row["value"], row["origin"]) == ("west", "original")
    assert st[(st["turn"] == 4) & (st["slot"] == "area")].empty  # never re-added (D4)
    row = st[(st["turn"] == 2) & (st["slot"] == "area")].iloc[0]
    assert (row["rule"], row["side"], int(row["detected_turn"])) == ("H2", "system", 1)


def test_later_detection_overrides_carried_value() -> None:
    turns = [("", "I need a guesthouse .", HT),
             ("There is a guesthouse in the east .", "Something else ?", HT),
             ("There is another guesthouse in the north .", "Ok .", HT),
             ("Done .", "Thanks .", HT)]
    assert added(run({"d1": turns})) == {(1, "hotel-area"): "east", (2, "hotel-area"): "north",
                                         (3, "hotel-area"): "north"}


def test_only_additions_and_never_changed_slots() -> None:
    state = {"hotel-name": "acorn guest house", "hotel-book day": "friday",
             "hotel-book people": "2", "train-leaveat": "10:00", "hospital-department": "acute"}
    turns = [("", "Book acorn guest house for 2 on friday .", state),
             ("Acorn Guest House is a cheap guesthouse in the north with free parking .", "Ok .",
              state)]
    res = run({"d1": turns})
    st = res.states
    orig = st[st["origin"] == "original"]
    kept = {(int(t), d, s, v) for t, d, s, v in zip(orig["turn"], orig["domain"], orig["slot"],
                                                    orig["value"])}
    expected = {(t, *k.split("-", 1), v) for t in (0, 1) for k, v in state.items()}
    assert kept == expected  # every original triple is still there with the same value
    # HT1 fires on "guest house" at turn 0; H1, PH-Sa and PK-Sa on the system offer
    assert set(added(res)) == {(0, "hotel-type"), (1, "hotel-type"), (1, "hotel-area"),
                               (1, "hotel-pricerange"), (1, "hotel-parking")}


def test_dontcare_fill_and_keep() -> None:
    dc = {"hotel-type": "hotel", "hotel-area": "dontcare"}
    turns = [("", "A hotel , any area .", dc),
             ("The only hotel is in the north .", "Ok .", dc),
             ("Anything else ?", "No .", dc),
             ("Area ?", "East after all .", {"hotel-type": "hotel", "hotel-area": "east"})]
    res = run({"d1": turns})
    st = res.states
    area = st[st["slot"] == "area"].set_index("turn")
    assert list(area["value"]) == ["dontcare", "north", "north", "east"]
    assert list(area["origin"]) == ["original", "filled", "filled", "original"]
    assert area.loc[1, "replaced_value"] == "dontcare"
    keep = run({"d1": turns}, dontcare_policy="keep")
    st = keep.states
    assert list(st[st["slot"] == "area"]["value"]) == ["dontcare", "dontcare", "dontcare", "east"]
    assert detections(keep, "hotel-area") == []


@pytest.mark.parametrize(
    ("policy", "expected"),
    [("alternatives", ("north", ["north", "east"])), ("first", ("north", ["north"])),
     ("skip", None)],
)
def test_multi_value_policy(policy: str, expected) -> None:
    turns = [("", "I need a guesthouse .", HT),
             ("There are guesthouses in the north and in the east .", "Ok .", HT)]
    res = run({"d1": turns}, multi_value_policy=policy)
    st = res.states
    rows = st[st["slot"] == "area"]
    if expected is None:
        assert rows.empty
    else:
        assert (rows.iloc[0]["value"], list(rows.iloc[0]["alternatives"])) == expected
    # the change log always holds the whole merged list, with what was applied
    ch = res.changes[res.changes["slot"] == "area"]
    assert list(ch["value"]) == ["north", "east"]
    assert list(ch["applied"]) == {"alternatives": [True, True], "first": [True, False],
                                   "skip": [False, False]}[policy]


def test_overrides_force_and_suppress() -> None:
    turns = [("", "I need a guesthouse .", HT),
             ("There is a guesthouse in the east .", "Ok .", HT),
             ("Good .", "Thanks .", HT)]
    forced = (Override("d1", 0, "hotel", "area", "west"), Override("d1", 1, "hotel", "area",
                                                                    "none"))
    res = run({"d1": turns}, overrides=forced)
    assert added(res) == {(0, "hotel-area"): "west", (1, "hotel-area"): "west",
                          (2, "hotel-area"): "west"}
    assert detections(res, "hotel-area") == [(0, ("west",), "override", "override")]
    with pytest.raises(InputError, match="d9, turn 0"):
        run({"d1": turns}, overrides=(Override("d9", 0, "hotel", "area", "west"),))
    with pytest.raises(InputError, match="not a corrected slot"):
        run({"d1": turns}, overrides=(Override("d1", 0, "hotel", "book day", "monday"),))


def test_require_no_rejection() -> None:
    turns = [("", "I need a guesthouse .", HT),
             ("There is a guesthouse in the east .", "Something else please .", HT)]
    assert added(run({"d1": turns}))[(1, "hotel-area")] == "east"
    assert (1, "hotel-area") not in added(run({"d1": turns}, require_no_rejection=True))


def test_added_slots_take_their_metadata_position() -> None:
    state = {"hotel-name": "acorn guest house", "hotel-parking": "yes", "hotel-book day": "friday"}
    turns = [("", "Acorn guest house please .", state),
             ("Acorn Guest House is in the north .", "Ok .", state)]
    st = run({"d1": turns}).states
    t1 = st[st["turn"] == 1].sort_values("position")
    # hotel semi order: name, area, parking, pricerange, stars, internet, type; then book
    assert list(t1["slot"]) == ["name", "area", "parking", "type", "book day"]
    assert list(t1["position"]) == [0, 1, 2, 3, 4]


def test_change_log_spans_only_for_literal_user_values() -> None:
    turns = [("", "Is All Saints Church free ?", {"attraction-area": "centre"}),
             ("Try All Saints on Jesus Lane .", "Ok .", {"attraction-area": "centre"})]
    ch = run({"d1": turns}).changes
    row = ch[(ch["turn"] == 0) & (ch["slot"] == "name")].iloc[0]
    assert (row["surface"], bool(row["span"]), row["evidence"]) == (
        "All Saints Church", True, "user")
    assert "Is All Saints Church free ?"[row["start"]:row["end"]] == "All Saints Church"


def test_bad_input_names_dialogue_and_turn() -> None:
    t = tables({"d1": [("", "Hi .", {"hotel-area": "north"})]})
    t["states"].loc[0, "turn"] = 5
    from mwzrepro.consistency.correct import correct_split
    from tests.unit.consistency.helpers import inventories

    with pytest.raises(InputError, match="dialogue d1, turn 5"):
        correct_split(t, inventories(), CorrectionSettings.reference())


# ----------------------------------------------------------------------------- export
def test_export_roundtrip_and_unchanged_bytes(tmp_path) -> None:
    dialogues = {"d1": [("", "I need a guesthouse .", HT),
                        ("There are 2 guesthouses in the east .", "Ok .", HT)],
                 "d2": [("", "I need a hotel in the north .", {"hotel-area": "north"})]}
    raw = tmp_path / "test.json.zip"
    text = json.dumps(convlab_json(dialogues), indent=2).replace("\n", "\r\n")
    with zipfile.ZipFile(raw, "w") as zf:
        zf.writestr("test.json", text)
    src, _ = read_convlab(raw, "test")
    from mwzrepro.consistency.correct import correct_split
    from tests.unit.consistency.helpers import inventories

    res = correct_split(src, inventories(), CorrectionSettings.reference())
    out = tmp_path / "corrected" / "test.json.zip"
    summary = export_convlab(raw, res.states, out)
    assert summary == {"member": "test.json", "dialogues": 2, "values_written": 2}
    back, _ = read_convlab(out, "test")
    key = ["dialogue_id", "turn", "domain", "slot"]
    a = back["states"].sort_values(key).reset_index(drop=True)
    b = res.states.sort_values(key).reset_index(drop=True)
    assert a[key + ["value"]].values.tolist() == b[key + ["value"]].values.tolist()
    assert list(a["position"]) == list(b["position"])
    assert back["turns"].equals(src["turns"])  # texts untouched
    # deterministic zip; no changes -> the source JSON byte for byte
    export_convlab(raw, res.states, tmp_path / "again.json.zip")
    assert (tmp_path / "again.json.zip").read_bytes() == out.read_bytes()
    export_convlab(raw, res.states.iloc[0:0], tmp_path / "same.json")
    assert (tmp_path / "same.json").read_bytes() == text.encode("utf-8")


def test_export_refuses_to_overwrite_a_label(tmp_path) -> None:
    dialogues = {"d1": [("", "I need a hotel .", {"hotel-area": "north"})]}
    raw = tmp_path / "test.json"
    raw.write_text(json.dumps(convlab_json(dialogues)), encoding="utf-8")
    src, _ = read_convlab(raw, "test")
    st = src["states"].assign(origin="added", rule="X", side="system", detected_turn=0,
                              replaced_value=None)
    with pytest.raises(InputError, match="refusing to overwrite"):
        export_convlab(raw, st, tmp_path / "out.json")
