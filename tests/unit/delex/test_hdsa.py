"""HDSA's released references aligned with the test turns."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from mwzrepro.core.errors import IngestError
from mwzrepro.prepare.delex.hdsa import build_references, read_hdsa_references
from mwzrepro.prepare.delex.styles import STYLES, style
from mwzrepro.core.errors import ConfigError

TURNS = pd.DataFrame({
    "dialogue_id": ["d1"] * 4 + ["d2"] * 2, "turn_id": [0, 1, 2, 3, 0, 1],
    "speaker": ["user", "system"] * 3,
    "text": ["u", "There are 3 hotels .", "u", "Bye .", "u", "The Ivy ."],
})


def test_alignment_and_normalization(tmp_path):
    path = tmp_path / "test_reference.json"
    path.write_text(json.dumps({"D1": ["there are [value_count] hotel -s .", "bye ."],
                                "D2.json": ["[restaurant_name] ."]}))
    refs = build_references(read_hdsa_references(path), TURNS)
    assert refs.values.tolist() == [
        ["d1", 0, "There are 3 hotels .", "there are [value_count] hotel -s .",
         "there are COUNT hotel."],
        ["d1", 1, "Bye .", "bye .", "bye."],
        ["d2", 0, "The Ivy .", "[restaurant_name] .", "NAME."],
    ]


def test_missing_dialogue_or_turn_count_mismatch():
    with pytest.raises(IngestError, match="dialogue d2 is missing"):
        build_references({"d1": ["a", "b"]}, TURNS)
    with pytest.raises(IngestError, match="d1 has 1 responses"):
        build_references({"d1": ["a"], "d2": ["b"]}, TURNS)


def test_malformed_file(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"D1": "not a list"}))
    with pytest.raises(IngestError, match="D1"):
        read_hdsa_references(path)


def test_style_registry():
    assert [s.version for s in STYLES.values()] == ["mwz21", "mwz20", "mwz20", "mwz21", "mwz21",
                                                    "mwz20"]
    assert style("lava").module == style("hdsa").module
    with pytest.raises(ConfigError, match="known: span"):
        style("lava2")
