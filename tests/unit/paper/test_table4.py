"""Table 4 assembly, ranking, metrics and plot rows from hand-made scores; BLEU per style."""

from __future__ import annotations

import pandas as pd
import pytest

from mwzrepro.bleu.styles import score_styles
from mwzrepro.core.signature import SignatureMismatch
from mwzrepro.paper.published import Table4
from mwzrepro.paper.table4 import metrics_payload, plot_rows, ranking, table4

PUB = Table4(systems=["a", "b", "c"], titles={"a": "A", "b": "B", "c": "C"},
             rows={"span": [10.0, 20.0, 15.0], "damd": [12.0, 11.0, 13.0],
                   "reported": [9.0, 9.5, 10.0]})


def _scores(values: dict[str, list[float]], sig_extra: str = "") -> pd.DataFrame:
    rows = []
    for style, vals in values.items():
        for system, v in zip("abc", vals):
            rows.append({"system": system, "version": "mwz21", "metric": "bleu",
                         "setting": style, "key": "total", "value": v,
                         "signature": f"BLEU|system:{system}|ref:{style}{sig_extra}|v:0"})
    return pd.DataFrame(rows)


SCORES = _scores({"damd": [12.2, 11.5, 13.0], "span": [10.1, 19.6, 15.0]})


def test_table4_rows_values_and_tolerance():
    df = table4(SCORES, PUB)
    assert df["style"].tolist() == ["MWZ 2.2 (span)", "MWZ 2.2 (span)", "DAMD", "DAMD", "Reported"]
    assert df["values"].tolist() == ["computed", "paper", "computed", "paper", "paper"]
    span, damd = df.iloc[0], df.iloc[2]
    assert span["B"] == pytest.approx(19.6) and span["within 0.3"] == "2/3"
    assert span["max |diff|"] == pytest.approx(0.4)
    assert damd["within 0.3"] == "2/3" and df.iloc[3]["A"] == "12.0"
    assert df.iloc[4][["A", "B", "C"]].tolist() == ["9.0", "9.5", "10.0"]


def test_ranking_shows_changes_between_styles():
    df = ranking(SCORES, PUB)
    assert df["system"].tolist() == ["A", "B", "C"]
    assert df["MWZ 2.2 (span)"].tolist() == [3, 1, 2]
    assert df["DAMD"].tolist() == [2, 3, 1]
    assert df["DAMD (paper)"].tolist() == [2, 3, 1]
    assert df["rank range"].tolist() == ["2-3", "1-3", "1-2"]


def test_metrics_and_plot():
    payload = metrics_payload(SCORES, PUB)
    assert payload["bleu_styles"]["damd"] == {"a": 12.2, "b": 11.5, "c": 13.0}
    assert payload["within_tolerance"] == {"span": 2, "damd": 2}
    assert payload["signatures"]["span"] == "BLEU|ref:span|v:0"
    assert payload["paper"]["reported"]["c"] == 10.0
    plot = plot_rows(SCORES, PUB)
    assert plot.columns.tolist() == ["style", "a", "b", "c"]
    assert plot["style"].tolist() == ["span", "damd"]
    assert plot.iloc[1, 1:].tolist() == pytest.approx([12.2, 11.5, 13.0])


def test_mixed_settings_in_one_row_are_refused():
    bad = SCORES.copy()
    bad.loc[0, "signature"] = "BLEU|system:a|ref:damd|pairs:no|v:0"
    with pytest.raises(SignatureMismatch):
        table4(bad, PUB)


def test_score_styles_on_toy_references():
    refs = pd.DataFrame({"dialogue_id": ["d"] * 2, "turn": [0, 1], "text": ["", ""],
                         "delex": ["", ""], "reference": ["the NAME is in the AREA of town.",
                                                          "it costs PRICE per night."]})
    preds = pd.DataFrame({"dialogue_id": ["d", "d"], "turn": [0, 1], "response": ["", ""],
                          "response_norm": ["the NAME is in the AREA of town.",
                                            "it costs PRICE per night."],
                          "state_json": [None, None], "active_domains": [None, None]})
    scores = score_styles({"x": preds}, {"damd": refs, "lava": refs}, {"damd": False})
    assert scores["value"].tolist() == [pytest.approx(100.0)] * 2
    assert scores["version"].tolist() == ["mwz20", "mwz20"]
    assert "|ref:damd|pairs:no|" in scores["signature"].iloc[0]
    assert "|ref:lava-as-hdsa|norm:" in scores["signature"].iloc[1]
