"""Table 7 (Nekvinda & Dušek 2021, Appendix A; spec-paper-tables §3, spec-standard-evaluation
§9.4): the per-turn Inform/Success trace laid out as a table next to the paper's values.

* hand-checkable: a two-turn toy trace through :func:`trace_rows` and the notes;
* real data (mirror): UBAR on sng0580 (the paper prints sng0805, a hotel dialogue in the 2.1
  test split), from the pipeline's built files when present under the checkout's data/,
  else built in-process from the mirror the way the pipeline's phases build them; then the
  ``tables-trace`` command writes the .md/.csv/.tex."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from click.testing import CliRunner

from mwzrepro.standard.trace import trace_dialogue
from mwzrepro.standard.trace_table import (
    COLUMNS,
    DIALOGUE,
    PAPER_TRACE,
    pipeline_trace,
    trace_notes,
    trace_rows,
)
from tests.conftest import REPO, mirror_file


class _DB:
    def query(self, domain, constraints):
        return ["1", "2"] if constraints.get("area") is None else ["1"]


def _toy():
    goal = {"restaurant": {"informable": {"food": "chinese"}, "requestable": ["POST"]}}
    return trace_dialogue("d1", goal, [[], []], ["NAME is nice.", "NAME, POST."],
                          [{"restaurant": {"food": "chinese", "area": "centre"}}] * 2,
                          [["restaurant"], ["restaurant"]], _DB(),
                          user_utterances=["chinese food?", "postcode?"],
                          references=["NAME serves FOOD.", "POST."])


def test_rows_of_a_toy_trace():
    rows = trace_rows(_toy(), paper={1: {"offered": "1", "provided": "-"},
                                     2: {"offered": "no update", "provided": "ADDRESS"}})
    assert list(rows.columns) == COLUMNS
    assert rows["Turn"].tolist() == [1, 2]
    assert rows["User"].tolist() == ["chinese food?", "postcode?"]
    assert rows["Ground truth"].tolist() == ["NAME serves FOOD.", "POST."]
    assert rows["Dialogue state"].tolist() == ["restaurant: food=chinese, area=centre"] * 2
    assert rows["Offered entities"].tolist() == ["1", "no update"]
    assert rows["Provided so far"].tolist() == ["-", "POST"]
    # turn 2 provides POST, the (made-up) paper row says ADDRESS: flagged.
    assert rows["Matches paper"].tolist() == ["yes", "no"]


def test_rows_without_paper_values_are_blank():
    rows = trace_rows(_toy(), paper={})
    assert rows["Paper: offered"].tolist() == ["", ""]
    assert rows["Matches paper"].tolist() == ["", ""]


def test_notes_name_goal_venues_and_outcome():
    notes = trace_notes(_toy(), "toy", "mwz21")
    assert any("goal venues 1 2; offered 1; Inform True, Success True" in n for n in notes)
    assert notes[-2] == "Total: Inform True, Success True."


# --- real data ---------------------------------------------------------------------------------

VERSION = "mwz21"
DB = {"restaurant": "multiwoz/db/restaurant_db.json", "hotel": "mwzeval/database/hotel_db.json",
      "attraction": "mwzeval/database/attraction_db.json",
      "train": "mwzeval/database/train_db.json"}
PIPELINE = {  # the pipeline's files, relative to the checkout
    "eval_goals": f"data/interim/{VERSION}/test/eval_goals.parquet",
    "booked_domains": f"data/interim/{VERSION}/test/booked_domains.parquet",
    "gold_states": f"data/interim/{VERSION}/test/gold_states.parquet",
    "turns": f"data/interim/{VERSION}/test/turns.parquet",
    "references": f"data/interim/{VERSION}/test/references.parquet",
    "predictions": "data/interim/predictions/ubar.parquet",
    **{f"db_{d}": f"data/raw/{p}" for d, p in DB.items()},
}


@pytest.fixture(scope="module")
def pipeline_files(mirror, mwz21_test, tmp_path_factory):
    """The pipeline's files: the checkout's when built, else built in-process from the mirror
    with the phases' library functions (ingest, goals, redelex, predictions)."""
    if all((REPO / p).is_file() for p in PIPELINE.values()):
        return {k: REPO / p for k, p in PIPELINE.items()}
    from mwzrepro.core.io import write_table
    from mwzrepro.prepare.delex.span import build_references
    from mwzrepro.prepare.predictions import expected_turns, parse_predictions
    from mwzrepro.standard.booked import build_booked_domains
    from mwzrepro.standard.goals import build_eval_goals
    from mwzrepro.standard.gold_states import build_gold_states

    out = tmp_path_factory.mktemp("trace-pipeline")
    t = mwz21_test
    tables = {
        "eval_goals": build_eval_goals(t["goals"]),
        "booked_domains": build_booked_domains(t["booked"], t["dialogues"]),
        "gold_states": build_gold_states(t["states"], t["dialogues"]),
        "turns": t["turns"],
        "references": build_references(t["turns"], t["spans"]),
    }
    raw = json.loads(mirror_file(mirror, "Tomiinek/MultiWOZ_Evaluation",
                                 "predictions/ubar.json").read_text(encoding="utf-8"))
    tables["predictions"], _ = parse_predictions(raw, expected_turns(t["turns"]), "ubar.json")
    files = {}
    for name, df in tables.items():
        files[name] = out / f"{name}.parquet"
        write_table(df, files[name], name)
    for d, p in DB.items():
        owner, path = (("budzianowski/multiwoz", "db/restaurant_db.json") if d == "restaurant"
                       else ("Tomiinek/MultiWOZ_Evaluation", f"mwzeval/data/database/{d}_db.json"))
        files[f"db_{d}"] = mirror_file(mirror, owner, path)
    return files


@pytest.mark.mirror
def test_table7_on_real_data(pipeline_files, tmp_path):
    """UBAR on sng0580 reproduces every value the paper states: nothing offered at turn 1;
    19212, 19185, 19219 set and ADDRESS provided at turn 2; no update and POST at turn 3;
    goal venues 4; Inform and Success true. sng0805 is a hotel dialogue."""
    from mwzrepro.cli.trace_table import tables_trace
    from mwzrepro.core.io import read_table
    from mwzrepro.core.venue_database import VenueDatabase
    from mwzrepro.standard.scoring import EvalResources

    f = pipeline_files
    res = EvalResources.from_tables(*(read_table(f[t], t) for t in
                                      ("eval_goals", "booked_domains", "gold_states")))
    assert list(res.goals["sng0805"]) == ["hotel"]
    assert list(res.goals[DIALOGUE]) == ["restaurant"]
    db = VenueDatabase.from_files({d: f[f"db_{d}"] for d in DB})
    trace = pipeline_trace(DIALOGUE, read_table(f["predictions"], "predictions"), res, db,
                           read_table(f["turns"], "turns"),
                           read_table(f["references"], "references"))
    rows = trace_rows(trace)
    assert rows["Offered entities"].tolist() == ["-", "19212 19185 19219", "no update", "-"]
    assert rows["Provided so far"].tolist() == ["-", "ADDRESS", "ADDRESS, POST",
                                                "ADDRESS, POST"]
    assert rows["Matches paper"].tolist() == ["yes", "yes", "yes", ""]
    assert rows["Active domain"].tolist() == ["restaurant"] * 4
    assert rows["User"][0] == "I 'd like to find a resturant that serves cheap Chinese food !"
    assert len(trace.goal_venues["restaurant"]) == 4
    assert (trace.outcome.inform["total"], trace.outcome.success["total"]) == (True, True)
    assert set(PAPER_TRACE) == {1, 2, 3}

    stem = tmp_path / "inform_success_trace"
    args = ["--system", "ubar", "--predictions", f["predictions"], "--dialogue", DIALOGUE,
            "--version", VERSION, "--eval-goals", f["eval_goals"],
            "--booked-domains", f["booked_domains"], "--gold-states", f["gold_states"],
            "--turns", f["turns"], "--references", f["references"],
            *[x for d in DB for x in (f"--{d}-db", f[f"db_{d}"])], "--table", stem]
    result = CliRunner().invoke(tables_trace, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    csv = pd.read_csv(stem.with_suffix(".csv"), dtype=str, keep_default_na=False)
    assert csv["Offered entities"].tolist() == rows["Offered entities"].tolist()
    md = stem.with_suffix(".md").read_text(encoding="utf-8")
    assert "sng0805 is a hotel dialogue" in md
    assert stem.with_suffix(".tex").is_file()
