"""Published values file, Table 2, Tables 8/9 and FGA Table 2 assembly."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from mwzrepro.core.errors import ConfigError, InputError
from mwzrepro.paper.outputs import outputs_table
from mwzrepro.paper.published import OutputsTable, parse_published, read_published
from mwzrepro.paper.statistics import fga_table2, split_statistics
from mwzrepro.paper.table2 import comparable, delex_example

PUBLISHED = Path(__file__).resolve().parents[3] / "workflow/resources/published/nekvinda2021.yaml"


def test_published_file_holds_the_spec_values():
    pub = read_published(PUBLISHED)
    t4 = pub.table4
    assert t4.value("hdsa", "hdsa") == 22.5 and t4.value("reported", "uniconv") == 19.8
    assert t4.value("lava", "damd") == 15.4 and t4.value("damd", "mintl") == 20.0
    assert (pub.table2.dialogue_id, pub.table2.turn) == ("pmul2636", 5)
    assert (pub.table8.dialogue_id, pub.table8.turn, pub.table9.turn) == ("pmul3012", 0, 1)
    assert [r.turns for r in pub.fga_table2.rows] == [56668, 7374, 7368]
    assert pub.word_pairs["damd"].sha1 == "015630d41e10a691125da2be23d1a7c5ac3e734e"


def test_malformed_published_values():
    import yaml

    data = yaml.safe_load(PUBLISHED.read_text())
    data["table4"]["rows"]["damd"] = data["table4"]["rows"]["damd"][:-1]
    with pytest.raises(ConfigError, match="row 'damd' has 12 values"):
        parse_published(data, "x.yaml")


def test_comparable_and_table2():
    assert comparable("[value_name] is here . Can I ?") == \
        comparable("[value name] is here. can i?")
    refs = pd.DataFrame({"dialogue_id": ["p"], "turn": [5], "text": [""],
                         "delex": ["[value_name] is free ."], "reference": ["NAME is free."]})
    pub = read_published(PUBLISHED).table2.model_copy(update={
        "dialogue_id": "p", "rows": {"damd": "[value name] is free.", "hdsa": "x"}})
    df = delex_example({"damd": refs, "hdsa": refs.assign(delex="y")}, pub)
    assert df[["style", "same"]].values.tolist() == [["HDSA", "no"], ["DAMD", "yes"]]
    with pytest.raises(InputError, match="no turn 5 of dialogue p"):
        delex_example({"damd": refs.assign(turn=4)}, pub)


def test_outputs_table_context_corpus_systems_and_notes():
    turns = pd.DataFrame({"dialogue_id": ["p"] * 4, "turn_id": [0, 1, 2, 3],
                          "speaker": ["user", "system"] * 2,
                          "text": ["hi", "hello", "a museum", "The Ivy ."]})
    refs = pd.DataFrame({"dialogue_id": ["p", "p"], "turn": [0, 1], "text": ["", ""],
                         "delex": ["", ""], "reference": ["hello.", "NAME."]})
    preds = {"b": pd.DataFrame({"dialogue_id": ["p"], "turn": [1], "response_norm": ["NAME ."]}),
             "a": pd.DataFrame({"dialogue_id": ["p"], "turn": [1], "response_norm": ["no"]})}
    block = OutputsTable(dialogue_id="p", turn=1, context="asks", rows={
        "corpus": "NAME.", "a": "yes", "b": "NAME."}, notes={"a": "printed before normalization"})
    df = outputs_table(turns, refs, preds, block)
    assert df["row"].tolist() == ["context 0 (user)", "context 1 (system)", "context 2 (user)",
                                  "corpus", "a", "b"]
    assert df["note"].tolist()[2:] == ["asks", "matches the paper",
                                      "printed before normalization", "matches the paper"]
    with pytest.raises(InputError, match="no system turn 2"):
        outputs_table(turns, refs, preds, block.model_copy(update={"turn": 2}))


def test_fga_statistics():
    d = pd.DataFrame({"dialogue_id": ["a", "b", "pmul1455"], "n_turns": [14, 16, 8]})
    assert split_statistics(d, ["pmul1455"]) == {"conversations": 2, "turns": 15,
                                                 "avg_turns": 7.5}
    pub = read_published(PUBLISHED).fga_table2
    df = fga_table2({("mwz21", "test"): d, ("mwz21", "val"): d}, pub)
    assert df[["split", "data"]].values.tolist() == [
        ["train", "mwz21"], ["train", "paper"], ["val", "mwz21"], ["val", "paper"],
        ["test", "mwz21"], ["test", "paper"]]
    assert df.iloc[0]["turns"] == "not computed"
    assert df.iloc[4][["conversations", "turns"]].tolist() == [2, 15]
    assert df.iloc[2][["conversations", "turns"]].tolist() == [3, 19]
    assert df.iloc[4]["note"].startswith("excluding pmul1455")
