"""Acceptance checks of spec-annotation-consistency §12 on the real MultiWOZ 2.1 test and
validation splits (ConvLab-2 copy in the data mirror), reference profile.

Measured on 2.1 (dialogues / turns / detections), against §9.4:

* test: 713 of 1000 dialogues changed (spec 716, paper 715), 3461 turns (spec 3497);
* val: 765 of 999 dialogues (spec 765, paper 768), 3752 turns (spec 3746).

Every (domain, slot) dialogue cell is within §12.7's ±3 / ±3 % of §9.4 except one, listed in
:data:`KNOWN_OUTSIDE_SPEC` with the investigation in the report: test restaurant-food, 84
dialogues against 88 (91 detections in both). The test fails if any other cell leaves the
tolerance, or if that cell comes back inside it (so the list is kept honest).
"""

from __future__ import annotations

from collections import defaultdict

import pandas as pd
import pytest
import yaml

from mwzrepro.consistency.correct import correct_split
from mwzrepro.consistency.counts import TABLE_ROWS, count_changes, paper_tolerance_ok
from mwzrepro.consistency.lexicons import build_inventories, load_databases, load_ontology
from mwzrepro.consistency.rules import SCOPE
from mwzrepro.consistency.tables import reference_table, spec_dialogues_ok, spec_rows
from tests.conftest import REPO, mirror_file
from tests.unit.consistency.helpers import settings

PUBLISHED = yaml.safe_load(
    (REPO / "workflow" / "resources" / "published" / "qian2021.yaml").read_text())

#: (split, domain, slot) dialogue cells outside §12.7, each explained in the closing report.
KNOWN_OUTSIDE_SPEC = {("test", "restaurant", "food")}

BOOKING = {"book day", "book people", "book stay", "book time", "day", "leaveat", "arriveby"}


@pytest.fixture(scope="session")
def mwz21_val(mirror):
    from mwzrepro.prepare.ingest.convlab import read_convlab

    tables, _ = read_convlab(
        mirror_file(mirror, "thu-coai/ConvLab-2", "data/multiwoz/val.json.zip"), "val")
    return tables


@pytest.fixture(scope="session")
def sources(mirror):
    db = mirror_file(mirror, "thu-coai/ConvLab-2", "data/multiwoz/db/hotel_db.json").parent
    onto = mirror_file(mirror, "thu-coai/ConvLab-2", "data/multiwoz/ontology.json")
    return load_databases(db), load_ontology(onto)


def _correct(tables, sources, **kw):
    params = settings(**kw)
    return correct_split(tables, build_inventories(*sources, params), params)


@pytest.fixture(scope="session")
def corrected(mwz21_test, mwz21_val, sources):
    """``{split: (tables, result, counts)}`` under the reference profile."""
    out = {}
    for split, tables in (("test", mwz21_test), ("val", mwz21_val)):
        res = _correct(tables, sources)
        out[split] = (tables, res, count_changes(tables["states"], res.states, res.changes))
    return out


def _triples(df: pd.DataFrame) -> set[tuple]:
    return set(zip(df["dialogue_id"], df["turn"].astype(int), df["domain"], df["slot"],
                   df["value"]))


@pytest.mark.parametrize("split", ["test", "val"])
def test_only_additions_and_never_changed_slots(corrected, split) -> None:
    """§12.1-12.2: original non-dontcare triples survive; only the 17 slots change; booking
    slots, days and times are identical; no turn disappears."""
    tables, res, _ = corrected[split]
    orig, cor = tables["states"], res.states
    keep = orig[orig["value"] != "dontcare"]
    assert _triples(keep) <= _triples(cor)
    changed = cor[cor["origin"] != "original"]
    assert set(zip(changed["domain"], changed["slot"])) <= set(SCOPE)
    assert set(changed["origin"]) <= {"added", "filled"}
    assert set(changed[changed["origin"] == "filled"]["replaced_value"]) == {"dontcare"}
    never = cor[cor["slot"].isin(BOOKING) | ~cor["domain"].isin({d for d, _ in SCOPE})]
    assert _triples(never) == _triples(
        orig[orig["slot"].isin(BOOKING) | ~orig["domain"].isin({d for d, _ in SCOPE})])
    assert len(cor) == len(orig) + (cor["origin"] == "added").sum()


def test_keep_policy_never_touches_dontcare(mwz21_test, sources) -> None:
    """§12.1 under ``dontcare_policy: keep``, and §9.4's sensitivity: the test total drops to
    about 684 dialogues (measured 686)."""
    res = _correct(mwz21_test, sources, dontcare_policy="keep")
    orig = mwz21_test["states"]
    assert _triples(orig) <= _triples(res.states)
    assert (res.states["origin"] != "filled").all()
    total = count_changes(orig, res.states, res.changes).set_index(["domain", "slot"])
    assert abs(int(total.loc[("total", ""), "dialogues"]) - 684) <= 3


@pytest.mark.parametrize("split", ["test", "val"])
def test_carry_forward_and_change_log(corrected, split) -> None:
    """§12.3 (carry-forward, nothing carried past an original label) and §12.9 (every added
    triple traced to a detection at t' <= t with the same value list, no original label for
    the slot in (t', t]; every detection has a rule id and a side)."""
    tables, res, _ = corrected[split]
    labeled = defaultdict(set)
    for did, t, d, s, v in zip(tables["states"]["dialogue_id"], tables["states"]["turn"],
                               tables["states"]["domain"], tables["states"]["slot"],
                               tables["states"]["value"]):
        if v != "dontcare":
            labeled[(did, d, s)].add(int(t))
    ch = res.changes[res.changes["applied"]]
    lists = ch.groupby(["dialogue_id", "turn", "domain", "slot"])["value"].apply(tuple)
    assert ch["rule"].ne("").all() and ch["side"].isin(["user", "system"]).all()
    cor = res.states
    added = cor[cor["origin"] != "original"]
    by_slot = defaultdict(dict)
    for did, t, d, s, alts, dt in zip(added["dialogue_id"], added["turn"], added["domain"],
                                      added["slot"], added["alternatives"],
                                      added["detected_turn"]):
        t, dt = int(t), int(dt)
        assert 0 <= dt <= t
        assert lists[(did, dt, d, s)] == tuple(alts)
        assert not any(dt < u <= t for u in labeled[(did, d, s)])
        by_slot[(did, d, s)][t] = dt
    # carry-forward: an added value persists to the next turn unless the original labels it
    n_turns = {did: n // 2 for did, n in zip(tables["dialogues"]["dialogue_id"],
                                             tables["dialogues"]["n_turns"])}
    for (did, d, s), turns in by_slot.items():
        for t, dt in turns.items():
            nxt = t + 1
            if nxt < n_turns[did] and nxt not in labeled[(did, d, s)]:
                assert nxt in turns and turns[nxt] >= dt


def test_figure1_and_mul0690_fixtures(corrected) -> None:
    """§12.5: MUL1088 turn 1 (Figure 1) and MUL0690 turns 5-6; no user-side area."""
    _, res, _ = corrected["test"]
    st = res.states
    row = st[(st["dialogue_id"] == "mul1088") & (st["turn"] == 1) & (st["slot"] == "name")
             & (st["domain"] == "attraction")].iloc[0]
    assert (row["value"], row["origin"], row["side"]) == ("all saints church", "added",
                                                          "system")
    price = st[(st["dialogue_id"] == "mul0690") & (st["domain"] == "hotel")
               & (st["slot"] == "pricerange")].set_index("turn")
    assert list(price.loc[5, "alternatives"]) == ["moderate", "cheap"]
    assert price.loc[5, "side"] == "system"
    assert (price.loc[6, "value"], price.loc[6, "side"], int(price.loc[6, "detected_turn"])) \
        == ("moderate", "user", 6)
    for split in ("test", "val"):
        chs = corrected[split][1].changes
        assert chs[chs["slot"].eq("area") & chs["side"].eq("user")].empty


@pytest.mark.parametrize("split", ["test", "val"])
def test_table_shape(corrected, split) -> None:
    """§12.6: the 24 rows of §9.1 in order, counts and percentages; the total denominator is
    every dialogue with a state (1000 test; the ConvLab-2 validation split has 999 dialogues,
    which is also what §9.4's 765 (76.6 %) implies)."""
    tables, _, counts = corrected[split]
    assert list(zip(counts["domain"], counts["slot"])) == list(TABLE_ROWS)
    for col in ("dialogues", "dialogue_pct", "turns", "turn_pct"):
        assert counts[col].notna().iloc[:-1].any()
    total = counts.set_index(["domain", "slot"]).loc[("total", "")]
    assert total["dialogue_base"] == len(tables["dialogues"]) == {"test": 1000, "val": 999}[split]


@pytest.mark.parametrize("split", ["test", "val"])
def test_reference_tolerance_against_spec(corrected, split) -> None:
    """§12.7 against §9.4: dialogue cells within ±3 / ±3 %, totals within ±1 point."""
    _, _, counts = corrected[split]
    spec = spec_rows(PUBLISHED, split)
    c = counts.set_index(["domain", "slot"])
    outside = {(split, *k) for k, s in spec.items() if not spec_dialogues_ok(c.loc[k], s, k)}
    assert outside == {x for x in KNOWN_OUTSIDE_SPEC if x[0] == split}
    total = c.loc[("total", "")]
    assert abs(total["dialogue_pct"] - spec[("total", "")]["dialogue_pct"]) <= 1.0
    assert abs(total["turn_pct"] - spec[("total", "")]["turn_pct"]) <= 1.0
    expected = {"test": (713, 3461), "val": (765, 3752)}[split]
    assert (int(total["dialogues"]), int(total["turns"])) == expected


@pytest.mark.parametrize("split", ["test", "val"])
def test_reference_tolerance_against_paper(corrected, split) -> None:
    """§12.8 against the paper's Table 1 (val and test columns; taxi and test train
    departure/destination exempt)."""
    _, _, counts = corrected[split]
    ref = reference_table({("mwz21", split): counts}, PUBLISHED)
    assert set(ref["within paper"]) <= {"yes", "exempt"}
    c = counts.set_index(["domain", "slot"])
    paper = {(r[0], r[1]): r for r in PUBLISHED["table1"][split]}
    assert paper_tolerance_ok(c.loc[("total", ""), "dialogue_pct"], paper[("total", "")][3],
                              "total")


def test_spans_cover_their_values(corrected) -> None:
    """§12.10: every span of the change log is the value in the original-case utterance."""
    for split in ("test", "val"):
        tables, res, _ = corrected[split]
        text = dict(zip(zip(tables["turns"]["dialogue_id"], tables["turns"]["turn_id"]),
                        tables["turns"]["text"]))
        spans = res.changes[res.changes["span"]]
        assert len(spans) == {"test": 57, "val": 70}[split]
        for did, t, v, a, b in zip(spans["dialogue_id"], spans["turn"], spans["value"],
                                   spans["start"], spans["end"]):
            assert text[(did, 2 * int(t))][a:b].lower() == v.lower()


def test_deterministic(mwz21_test, sources, corrected) -> None:
    """§12.4: a second run gives identical tables."""
    again = _correct(mwz21_test, sources)
    _, res, _ = corrected["test"]
    pd.testing.assert_frame_equal(again.states, res.states)
    pd.testing.assert_frame_equal(again.changes, res.changes)


def test_export_round_trip(corrected, mirror, tmp_path) -> None:
    """§6.6 item 1: the corrected 2.1 test split in its ConvLab layout re-ingests to exactly
    the corrected states (primary values, metadata positions); texts are unchanged."""
    from mwzrepro.consistency.export import export_convlab
    from mwzrepro.prepare.ingest.convlab import read_convlab

    tables, res, _ = corrected["test"]
    raw = mirror_file(mirror, "thu-coai/ConvLab-2", "data/multiwoz/test.json.zip")
    out = tmp_path / "test.json.zip"
    summary = export_convlab(raw, res.states, out)
    assert summary["values_written"] == int((res.states["origin"] != "original").sum())
    back, _ = read_convlab(out, "test")
    key = ["dialogue_id", "turn", "domain", "slot"]
    a = back["states"].sort_values(key)[key + ["value", "position"]].values.tolist()
    b = res.states.sort_values(key)[key + ["value", "position"]].values.tolist()
    assert a == b
    assert back["turns"]["text"].tolist() == tables["turns"]["text"].tolist()
    assert back["spans"].equals(tables["spans"])
    assert back["acts"].equals(tables["acts"])
