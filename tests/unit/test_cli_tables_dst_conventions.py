"""``tables-dst-conventions`` on a hand-built workspace written with the pipeline's schemas:
two systems with states and one without, two gold versions that differ in one value; the
presets' JGA by hand, and the same bytes from one process and from forked workers."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from mwzrepro.cli.dst_conventions import COMMANDS
from mwzrepro.core.io import write_table

CMD = {c.name: c for c in COMMANDS}

#: Gold states per version: mul0001 has two user turns, pmul1455 (left out under dial:fga)
#: one, whose gold dontcare the reference drops.
GOLD = {
    "mwz20": {("mul0001", 0): [("area", "north")],
              ("mul0001", 1): [("area", "north"), ("stars", "3")],
              ("pmul1455", 0): [("area", "dontcare")]},
    "mwz21": {("mul0001", 0): [("area", "north")],
              ("mul0001", 1): [("area", "north"), ("stars", "4")],
              ("pmul1455", 0): [("area", "dontcare")]},
}
#: Predicted states per system (gamma has none).
PRED = {
    "alpha": ['{"hotel": {"area": "north"}}', '{"hotel": {"area": "north", "stars": "4"}}',
              '{"hotel": {"area": "dontcare"}}'],
    "beta": ['{"hotel": {"area": "north"}}', '{"hotel": {"area": "north"}}', "{}"],
    "gamma": [None, None, None],
}
TURNS = [("mul0001", 0), ("mul0001", 1), ("pmul1455", 0)]


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("ws")
    dialogues = pd.DataFrame({"dialogue_id": ["mul0001", "pmul1455"],
                              "source_id": ["MUL0001", "PMUL1455"], "split": ["test", "test"],
                              "n_turns": [4, 2]})
    for version, turns in GOLD.items():
        rows = [(d, t, "hotel", s, v, [v], i) for (d, t), slots in turns.items()
                for i, (s, v) in enumerate(slots)]
        states = pd.DataFrame(rows, columns=["dialogue_id", "turn", "domain", "slot", "value",
                                             "alternatives", "position"])
        write_table(states, root / version / "states.parquet", "states")
        write_table(dialogues, root / version / "dialogues.parquet", "dialogues")
    for system, texts in PRED.items():
        preds = pd.DataFrame({"dialogue_id": [d for d, _ in TURNS],
                              "turn": [t for _, t in TURNS], "response": "ok",
                              "response_norm": "ok", "state_json": texts,
                              "active_domains": None})
        write_table(preds, root / "pred" / f"{system}.parquet", "predictions")
    return root


def _run(ws: Path, out: Path) -> dict:
    args = ["--predictions-dir", str(ws / "pred")]
    for version in GOLD:
        args += ["--gold", version, str(ws / version / "states.parquet"),
                 str(ws / version / "dialogues.parquet")]
    args += ["--ladder-table", str(out / "dst_conventions"),
             "--presets-table", str(out / "dst_presets"), "--metrics", str(out / "m.json")]
    res = CliRunner().invoke(CMD["tables-dst-conventions"], args, catch_exceptions=False)
    assert res.exit_code == 0, res.output
    return json.loads((out / "m.json").read_text())


def test_presets_by_hand_and_workers_write_the_same_bytes(workspace, tmp_path, monkeypatch):
    """fga (PMUL1455 left out): alpha 2/2 on 2.1, 1/2 on 2.0 (stars 3 ≠ 4); beta 1/2.
    mwzeval (every dialogue, gold dontcare dropped): alpha 2/3 (its dontcare is a false
    positive), beta 2/3 (its empty state matches the emptied gold)."""
    runs = {}
    for jobs in ("1", "2"):
        monkeypatch.setenv("MWZREPRO_JOBS", jobs)
        runs[jobs] = _run(workspace, tmp_path / jobs)
    presets = runs["1"]["presets"]
    assert presets["mwz21"]["fga"]["alpha"]["jga"] == 1.0
    assert presets["mwz20"]["fga"]["alpha"]["jga"] == 0.5
    assert presets["mwz21"]["fga"]["beta"]["jga"] == 0.5
    assert presets["mwz21"]["mwzeval"]["alpha"]["jga"] == pytest.approx(2 / 3)
    assert presets["mwz21"]["mwzeval"]["beta"]["jga"] == pytest.approx(2 / 3)
    assert runs["1"]["not_scored"] == ["gamma"]
    assert sorted(runs["1"]["ladder"]) == ["alpha@mwz20", "alpha@mwz21", "beta@mwz20",
                                           "beta@mwz21"]
    for name in ("dst_conventions.md", "dst_conventions.csv", "dst_conventions.tex",
                 "dst_presets.md", "dst_presets.csv", "dst_presets.tex", "m.json"):
        assert (tmp_path / "1" / name).read_bytes() == (tmp_path / "2" / name).read_bytes()
