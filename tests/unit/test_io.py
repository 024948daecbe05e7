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


def test_read_checks_the_files_schema(tmp_path) -> None:
    """Reading checks the Arrow schema only: a file of another table, or with a column of
    another type, is one SchemaError naming the file and the column."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    write_table(_turns([0, 1]), tmp_path / "turns.parquet", "turns")
    with pytest.raises(SchemaError, match=r"turns.parquet: table 'coverage' expects columns"):
        read_table(tmp_path / "turns.parquet", "coverage")
    schema = pa.schema([pa.field("dialogue_id", pa.string(), False),
                        pa.field("turn_id", pa.int64(), False),
                        pa.field("speaker", pa.string(), False),
                        pa.field("text", pa.string(), False)])
    pq.write_table(pa.Table.from_pandas(_turns([0, 1]), schema=schema, preserve_index=False),
                   tmp_path / "wide.parquet")
    with pytest.raises(SchemaError, match="wide.parquet: table 'turns': column 'turn_id' is "
                                          "int64, expected int32"):
        read_table(tmp_path / "wide.parquet", "turns")


def test_read_gives_the_validated_frame(tmp_path) -> None:
    """What read_table returns equals what write_table validated: declared columns and
    dtypes, a fresh index, list cells as lists of str (None where null), empty tables too."""
    from mwzrepro.core.schemas import validate

    preds = pd.DataFrame({
        "dialogue_id": ["b", "a"], "turn": [0, 0], "response": ["x", "y"],
        "response_norm": ["x", "y"], "state_json": [None, "{}"],
        "active_domains": [["hotel", "taxi"], None],
    }, index=[7, 3])
    write_table(preds, tmp_path / "p.parquet", "predictions")
    back = read_table(tmp_path / "p.parquet", "predictions")
    expected = validate(preds.sort_values(["dialogue_id", "turn"]), "predictions")
    pd.testing.assert_frame_equal(back, expected)
    assert back["active_domains"].tolist() == [None, ["hotel", "taxi"]]
    assert str(back["turn"].dtype) == "int32"
    write_table(preds.iloc[:0], tmp_path / "e.parquet", "predictions")
    empty = read_table(tmp_path / "e.parquet", "predictions")
    pd.testing.assert_frame_equal(empty, validate(preds.iloc[:0], "predictions"))


def test_reading_does_not_import_pandera(tmp_path) -> None:
    import subprocess
    import sys

    write_table(_turns([0, 1]), tmp_path / "t.parquet", "turns")
    code = ("import sys; from mwzrepro.core.io import read_table; "
            f"read_table({str(tmp_path / 't.parquet')!r}, 'turns'); "
            "print(any(m.startswith('pandera') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"


def test_writing_loads_pandera_without_hypothesis(tmp_path) -> None:
    """Pandera's optional data synthesis would import hypothesis (0.1 s per writing
    process): a write leaves it unimported, still importable, and still validates."""
    import subprocess
    import sys

    code = ("import sys, pandas as pd; from mwzrepro.core.io import write_table; "
            "from mwzrepro.core.errors import SchemaError; "
            "rows = pd.DataFrame({'dialogue_id': ['a'], 'turn_id': [0], 'speaker': ['user'], "
            "'text': ['hi']}); "
            f"write_table(rows, {str(tmp_path / 't.parquet')!r}, 'turns'); "
            "print('hypothesis' in sys.modules); "
            "import hypothesis.strategies; print('strategies' in dir(hypothesis)); "
            "bad = rows.assign(turn_id=['zero'])\n"
            "try:\n"
            f"    write_table(bad, {str(tmp_path / 'u.parquet')!r}, 'turns')\n"
            "except SchemaError as e:\n"
            "    print('invalid' in str(e))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ["False", "True", "True"]
    assert not (tmp_path / "u.parquet").exists()
