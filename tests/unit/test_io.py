"""Deterministic, atomic, validated Parquet and JSON output."""

import hashlib

import pandas as pd
import pytest

from mwzrepro.core.errors import SchemaError
from mwzrepro.core.io import read_metadata, read_table, write_json, write_table


def _turns(order):
    rows = [{"dialogue_id": "b", "turn_id": 1, "speaker": "system", "text": "hi"},
            {"dialogue_id": "a", "turn_id": 0, "speaker": "user", "text": "hello"}]
    return pd.DataFrame([rows[i] for i in order])


def test_row_order_does_not_change_bytes(tmp_path) -> None:
    write_table(_turns([0, 1]), tmp_path / "x.parquet", "turns", {"k": 1})
    write_table(_turns([1, 0]), tmp_path / "y.parquet", "turns", {"k": 1})
    x, y = ((tmp_path / n).read_bytes() for n in ("x.parquet", "y.parquet"))
    assert hashlib.sha256(x).digest() == hashlib.sha256(y).digest()
    back = read_table(tmp_path / "x.parquet", "turns")
    assert back["dialogue_id"].tolist() == ["a", "b"]
    assert read_metadata(tmp_path / "x.parquet") == {"table": "turns", "k": 1}


def test_schema_violations_are_rejected_and_nothing_is_written(tmp_path) -> None:
    bad = _turns([0, 1]).drop(columns=["text"])
    with pytest.raises(SchemaError, match="missing \\['text'\\]"):
        write_table(bad, tmp_path / "x.parquet", "turns")
    dup = pd.concat([_turns([0]), _turns([0])])
    with pytest.raises(SchemaError, match="duplicate key"):
        write_table(dup, tmp_path / "x.parquet", "turns")
    assert list(tmp_path.iterdir()) == []


def test_json_is_stable(tmp_path) -> None:
    write_json({"b": 1.5, "a": [1, "é"]}, tmp_path / "m.json")
    assert (tmp_path / "m.json").read_text() == '{\n  "b": 1.5,\n  "a": [\n    1,\n    "é"\n  ]\n}\n'
