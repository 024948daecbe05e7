"""Nekvinda & Dušek 2021 Tables 8 and 9 and the FGA paper's Table 2 on the real mirror files
(spec-paper-tables §4-§5)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mwzrepro.paper.outputs import outputs_table
from mwzrepro.paper.published import read_published
from mwzrepro.paper.statistics import fga_table2, split_statistics
from mwzrepro.prepare.delex.span import build_references
from mwzrepro.prepare.ingest.convlab import read_convlab
from mwzrepro.prepare.predictions import expected_turns, parse_predictions
from tests.conftest import mirror_file

pytestmark = pytest.mark.mirror

REPO = Path(__file__).resolve().parents[2]
PUBLISHED = read_published(REPO / "workflow/resources/published/nekvinda2021.yaml")
SHOWN = ("corpus", "damd", "mintl", "ubar", "hdsa", "lava", "sfn")


@pytest.fixture(scope="module")
def shown_predictions(mirror, mwz21_test):
    expected = expected_turns(mwz21_test["turns"])
    out = {}
    for system in SHOWN[1:]:
        path = mirror_file(mirror, "Tomiinek/MultiWOZ_Evaluation", f"predictions/{system}.json")
        out[system] = parse_predictions(json.loads(path.read_text(encoding="utf-8")), expected,
                                        path.name)[0]
    return out


def _notes(df):
    return dict(zip(df["row"], df["note"]))


def test_table8_rows_match_the_paper(mwz21_test, shown_predictions):
    refs = build_references(mwz21_test["turns"], mwz21_test["spans"])
    df = outputs_table(mwz21_test["turns"], refs, shown_predictions, PUBLISHED.table8)
    notes = _notes(df)
    assert all(notes[r] == "matches the paper" for r in ("corpus", "damd", "mintl", "ubar",
                                                          "hdsa", "lava"))
    assert df["row"].iloc[0] == "context 0 (user)" and "botanic gardens" in df["text"].iloc[0]


def test_table9_rows_and_the_tokenization_note(mwz21_test, shown_predictions):
    refs = build_references(mwz21_test["turns"], mwz21_test["spans"])
    df = outputs_table(mwz21_test["turns"], refs, shown_predictions, PUBLISHED.table9)
    notes = _notes(df)
    assert all(notes[r] == "matches the paper" for r in ("ubar", "hdsa", "sfn"))
    corpus = df[df["row"] == "corpus"]["text"].iloc[0]
    assert corpus.endswith("they serve FOOD food and it 's delicious!")
    assert notes["corpus"].startswith("Our corpus row is the 2.1 span reference")


def test_fga_table2_counts(mirror, mwz21_test, mwz20_test):
    val21, _ = read_convlab(mirror_file(mirror, "thu-coai/ConvLab-2",
                                        "data/multiwoz/val.json.zip"), "val")
    assert split_statistics(mwz21_test["dialogues"], ["pmul1455"]) == {
        "conversations": 999, "turns": 7368, "avg_turns": 7368 / 999}
    assert split_statistics(mwz21_test["dialogues"]) == {
        "conversations": 1000, "turns": 7372, "avg_turns": 7.372}
    assert split_statistics(val21["dialogues"]) == {
        "conversations": 999, "turns": 7365, "avg_turns": 7365 / 999}
    assert "pmul4707" not in set(val21["dialogues"]["dialogue_id"])
    df = fga_table2({("mwz21", "test"): mwz21_test["dialogues"],
                     ("mwz20", "test"): mwz20_test["dialogues"],
                     ("mwz21", "val"): val21["dialogues"]}, PUBLISHED.fga_table2)
    test_rows = df[df["split"] == "test"]
    assert test_rows["turns"].tolist() == [7368, 7368, 7368]
    assert df[(df["split"] == "val") & (df["data"] == "mwz20")]["turns"].iloc[0] == "not computed"
