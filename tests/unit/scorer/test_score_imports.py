"""``mwzrepro score`` on cached resources imports neither pandas (nor numpy or pyarrow) nor
pydantic (issue 21: the whole-process start-up), with every metric including DST; a value
other than a default is still validated by its pydantic model, with the model's error line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.unit.scorer.test_cli_score import write
from tests.unit.scorer.test_evaluator import PREDICTIONS, evaluator

HEAVY = ("numpy", "pandas", "pyarrow", "pydantic")

#: Runs the real entry point with the given arguments, then prints the heavy modules loaded.
SCRIPT = f"""
import json, sys
from mwzrepro.cli import main
sys.argv = ["mwzrepro", "score", *json.loads(sys.argv[1])]
try:
    main()
finally:
    print(json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)), file=sys.stderr)
"""


def _score(mini, tmp_path, *extra):
    evaluator(mini)  # builds the cached resources first (building them uses pandas)
    path = write(tmp_path / "mine.json", PREDICTIONS)
    args = [str(path), "--mirror", str(mini["mirror"]), "--sources", str(mini["registry"]),
            "--cache-dir", str(mini["cache"]), "--no-result-cache", "--format", "json", *extra]
    run = subprocess.run([sys.executable, "-c", SCRIPT, json.dumps(args)], capture_output=True,
                         text=True)
    return run.returncode, run.stdout, run.stderr.splitlines()


def test_score_imports_no_pandas_and_no_pydantic(mini, tmp_path):
    code, out, err = _score(mini, tmp_path)
    assert code == 0, err
    result = json.loads(out)
    # every metric ran, DST included: sng9001 turn 0 of the 3 turns is jointly right (the
    # Python API's figure, tests/unit/scorer/test_evaluator.py's fixture)
    assert result["dst_fga"]["jga"] == pytest.approx(100 / 3)
    assert result["bleu"] and result["success"]["inform"]["total"] == 100.0
    assert json.loads(err[-1]) == []


def test_a_value_other_than_the_default_is_validated_by_the_model(mini, tmp_path):
    code, out, err = _score(mini, tmp_path, "--fuzzy-threshold", "101")
    assert code == 1 and out == ""
    assert err[-2] == ("mwzrepro: error: inform.fuzzy_threshold: Input should be less than or "
                       "equal to 100 (got 101.0)")
    assert "pydantic" in json.loads(err[-1])
