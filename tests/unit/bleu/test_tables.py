"""The BLEU table (paper Table 4 shape) from hand-made score rows."""

from __future__ import annotations

import pandas as pd
import pytest

from mwzrepro.bleu.tables import bleu_table
from mwzrepro.core.errors import InputError
from mwzrepro.core.signature import SignatureMismatch


def rows(system: str, version: str, bleu: float, covered: int = 2, tok: str = "13a"):
    sig = f"BLEU|system:{system}|ver:{version}|split:test|ref:span|tok:{tok}|v:0.1.0"
    vals = [("bleu", "total", bleu), ("dialogues", "covered", covered),
            ("dialogues", "expected", 2), ("turns", "covered", 3), ("turns", "expected", 3)]
    return [{"system": system, "version": version, "metric": m, "setting": "", "key": k,
             "value": float(v), "signature": sig} for m, k, v in vals]


def test_systems_by_versions():
    scores = pd.DataFrame(rows("b", "mwz21", 17.123456) + rows("a", "mwz20", 15.0, covered=1)
                          + rows("a", "mwz21", 16.0, covered=1) + rows("b", "mwz20", 18.0))
    out = bleu_table(scores)
    assert out.table.columns.tolist() == ["system", "BLEU (mwz20 refs)", "BLEU (mwz21 refs)",
                                          "dialogues"]
    assert out.table.values.tolist() == [["a", 15.0, 16.0, "1/2"], ["b", 18.0, 17.123456, "2/2"]]
    assert out.metrics["bleu"] == {"mwz20": {"a": 15.0, "b": 18.0},
                                   "mwz21": {"a": 16.0, "b": 17.1235}}
    assert out.metrics["signatures"]["mwz21"] == \
        "BLEU|ver:mwz21|split:test|ref:span|tok:13a|v:0.1.0"
    assert out.notes[0] == "mwz20: BLEU|ver:mwz20|split:test|ref:span|tok:13a|v:0.1.0"
    assert out.plot_csv().splitlines() == ["system,version,bleu", "a,mwz20,15.0000",
                                           "a,mwz21,16.0000", "b,mwz20,18.0000",
                                           "b,mwz21,17.1235"]
    assert (out.n_systems, out.n_versions) == (2, 2)


def test_one_column_holds_one_setting():
    scores = pd.DataFrame(rows("a", "mwz21", 15.0) + rows("b", "mwz21", 16.0, tok="intl"))
    with pytest.raises(SignatureMismatch, match="BLEU column mwz21.*tok:intl"):
        bleu_table(scores)


def test_no_bleu_rows():
    with pytest.raises(InputError):
        bleu_table(pd.DataFrame(columns=["system", "version", "metric", "setting", "key",
                                         "value", "signature"]))
