"""DST scoring conventions on a real system's predicted states (the mirror's pptod file on the
MultiWOZ 2.1 test set): the ``fga`` preset reproduces the ``dst`` table and the ``mwzeval``
preset the ``state_match`` table, to the printed digits, so the ladder's first and last rungs
are those two numbers. Skipped with a clear reason when the mirror is absent."""

from __future__ import annotations

import json

import pytest

from tests.conftest import mirror_file
from mwzrepro.dst.conventions.ladder import climb
from mwzrepro.dst.conventions.presets import PRESETS
from mwzrepro.dst.conventions.turns import gold_turns, predicted_turns, raw_corpus


@pytest.fixture(scope="module")
def pptod21(mirror, mwz21_test):
    from mwzrepro.prepare.predictions import expected_turns, parse_predictions

    raw = json.loads(mirror_file(mirror, "Tomiinek/MultiWOZ_Evaluation",
                                 "predictions/pptod.json").read_text())
    table, _ = parse_predictions(raw, expected_turns(mwz21_test["turns"]), "pptod.json")
    gold = gold_turns(mwz21_test["states"], mwz21_test["dialogues"])
    return raw_corpus(gold, predicted_turns(table, "pptod.parquet"), "pptod.parquet")


def test_ladder_ends_are_the_dst_and_state_match_tables(pptod21):
    """results/tables/dst: pptod mwz21 JGA 37.79, SA 95.82 over 7367 turns;
    results/tables/state_match: joint accuracy 34.24."""
    rungs = climb(pptod21, PRESETS["fga"], PRESETS["mwzeval"])
    first, last = rungs[0].scores, rungs[-1].scores
    assert (first.turns, round(100 * first.jga, 2), round(100 * first.sa, 2)) == (
        7367, 37.79, 95.82)
    assert round(100 * last.jga, 2) == 34.24
    assert last.turns == 7371  # every dialogue, pmul1455 included
    assert [r.switch for r in rungs] == ["", "dial", "gdc", "slots", "names", "clean", "match"]
    assert sum(r.change for r in rungs) == pytest.approx(100 * (last.jga - first.jga))


@pytest.mark.mirror
def test_every_ladder_row_ends_at_the_dst_and_state_match_tables(tmp_path_factory):
    """In the built workspace, every system and version of ``dst_conventions``: the first rung
    is the ``dst`` table's JGA and the last the ``state_match`` table's joint accuracy, to the
    printed digits; ``dst_presets``'s fga columns are the ``dst`` table's JGA and SA."""
    import pandas as pd

    from tests.workspace import built_workspace

    tables = built_workspace(tmp_path_factory) / "results" / "tables"
    ladder = pd.read_csv(tables / "dst_conventions.csv")
    presets = pd.read_csv(tables / "dst_presets.csv")
    dst = pd.read_csv(tables / "dst.csv")
    dst = dst[dst["Input"] == "predicted states"].set_index(["Model", "Gold"])
    sm = pd.read_csv(tables / "state_match.csv").set_index(["system", "version"])
    assert len(ladder) == len(dst) > 0
    first, last = list(ladder.columns)[2], "match:fuzzy95"
    for _, row in ladder.iterrows():
        key = (row["Model"], row["Gold"])
        assert f"{row[first]:.2f}" == f"{dst.loc[key, 'JGA']:.2f}", key
        assert f"{row[last]:.2f}" == f"{sm.loc[key, 'joint accuracy']:.2f}", key
    for _, row in presets.iterrows():
        key = (row["Model"], row["Gold"])
        assert f"{row['fga JGA']:.2f}" == f"{dst.loc[key, 'JGA']:.2f}", key
        assert f"{row['fga SA']:.2f}" == f"{dst.loc[key, 'SA']:.2f}", key
