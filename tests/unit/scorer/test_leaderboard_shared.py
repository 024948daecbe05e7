"""``mwzrepro score A B C --shared``: a row that lacks one turn (PPTOD's 7,371 of 7,372) is
otherwise out of the ranks and tests (``cov:`` differs); with ``--shared`` every file is
scored on the dialogues and turns all give, with a loud warning, and every row is ranked and
tested, each row equal to its file cut to that subset and scored alone."""

from __future__ import annotations

import copy
import json

from tests.unit.scorer.test_cli_compare import WORSE
from tests.unit.scorer.test_cli_score import write
from tests.unit.scorer.test_evaluator import PREDICTIONS
from tests.unit.scorer.test_score_many import files, score  # noqa: F401  (fixtures)

#: The first turn of sng9001 only: 2 of the 3 test turns.
SHORT = copy.deepcopy(PREDICTIONS)
SHORT["sng9001"] = SHORT["sng9001"][:1]

WARNING = ("SHARED COVERAGE (--shared): the rows give 2 to 2 dialogues and 2 to 3 turns; every "
           "row is scored on the 2 dialogues and 2 turns all of them give (paired): these "
           "figures are not the files' own scores")


def test_shared_ranks_and_tests_rows_that_differ_only_in_coverage(score, files, tmp_path):
    short = write(tmp_path / "short.json", SHORT)
    args = (files["base"], files["worse"], short, "--paired-bs", "--paired-bs-n", "200",
            "--format", "json")
    code, out, err = score(*args)
    assert code == 0, err
    rows = {r["system"]: r for r in json.loads(out)["systems"]}
    assert rows["short"]["differs"] == "cov:turns=2/3" and rows["short"]["rank"] is None
    assert WARNING not in err

    code, out, err = score(*args, "--shared")
    assert code == 0, err
    doc = json.loads(out)
    rows = {r["system"]: r for r in doc["systems"]}
    assert all(r["comparable"] and r["rank"] is not None for r in rows.values())
    assert rows["short"]["success_p"] is not None
    assert err.count(WARNING) == 1 and WARNING in doc["notes"]
    assert {r["turns"] for r in rows.values()} == {2}
    # each row is its file cut to the shared turns, scored alone (base cut = SHORT itself;
    # worse cut loses the goodbye turn, so it equals SHORT too)
    code, one, _ = score(short, "--format", "json", "--no-result-cache")
    one = json.loads(one)
    for name in ("base", "worse", "short"):
        assert rows[name]["success"] == one["success"]["success"]["total"]
        assert "cov:dialogues=2/2,turns=2/3" in rows[name]["signatures"]["success"]


def test_shared_changes_nothing_when_every_file_covers_the_same(score, files):
    plain = score(files["base"], files["worse"], "--format", "json")
    shared = score(files["base"], files["worse"], "--format", "json", "--shared")
    assert plain[0] == shared[0] == 0
    assert json.loads(plain[1]) == json.loads(shared[1])
    assert "SHARED COVERAGE" not in shared[2]
