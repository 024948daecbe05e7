"""``mwzrepro score FILE 2>/dev/null`` prints the result, its coverage line and its signatures,
and no log or warning line (issue 30): warnings are the logger's, on stderr only; the result
on stdout still says what it covers."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

from tests.unit.scorer.test_evaluator import PREDICTIONS

MWZREPRO = Path(sys.executable).parent / "mwzrepro"

#: The lines a text result is made of (mwzrepro.standard.report): the header, the coverage
#: line, block titles, figure rows (a name and numbers), the sources of a block and its
#: signatures.
RESULT_LINE = re.compile(
    r"^(system \S+ on the mwz2\d test set \(.+\); units: \w+"
    r"|coverage: \d+/\d+ dialogues, \d+/\d+ turns(  <-- PARTIAL)?"
    r"|====== [A-Z][^=]+ ======"
    r"|[\w().]+ +[-\d. ]+"
    r"|combined +[\d.]+  = \(Inform \+ Success\) / 2 \+ BLEU"
    r"| +[a-z ]+"
    r"|references: .+|states: \w+, active domains: [\w-]+|scored: \d+ dialogues, \d+ turns"
    r"|(fuzzy )?signature: [A-Za-z/()\d.-]+(\|[a-z_]+:[^|\s]*)+"
    r"|)$")


def _score(mini, tmp_path: Path, data: dict, *options: str, stderr: str = "2>/dev/null"):
    pred = tmp_path / "mine.json"
    pred.write_text(json.dumps(data), encoding="utf-8")
    args = [str(MWZREPRO), "score", str(pred), "--mirror", str(mini["mirror"]), "--sources",
            str(mini["registry"]), "--cache-dir", str(tmp_path / "cache"), *options]
    return subprocess.run(" ".join(map(shlex.quote, args)) + f" {stderr}", shell=True,
                          capture_output=True, text=True, check=True)


def test_stdout_is_the_result_its_coverage_and_signatures(mini, tmp_path) -> None:
    partial = {"sng9001": PREDICTIONS["sng9001"]}          # one of the two test dialogues
    done = _score(mini, tmp_path, partial, "--no-result-cache")
    lines = done.stdout.splitlines()
    assert done.stderr == ""                               # 2>/dev/null took all of it
    odd = [line for line in lines if not RESULT_LINE.match(line)]
    assert not odd, f"lines that are not part of the result: {odd}"
    assert "coverage: 1/2 dialogues, 2/3 turns  <-- PARTIAL" in lines
    signatures = [line for line in lines if line.startswith("signature: ")]
    assert len(signatures) >= 4 and all("|cov:dialogues=1/2,turns=2/3|" in s
                                        for s in signatures)
    assert not any(re.search(r"warning|WARNING|INFO|PARTIAL COVERAGE", line) for line in lines)


def test_the_warning_is_on_stderr_once(mini, tmp_path) -> None:
    partial = {"sng9001": PREDICTIONS["sng9001"]}
    done = _score(mini, tmp_path, partial, stderr="")          # computed and stored
    assert "PARTIAL COVERAGE" not in done.stdout
    assert done.stderr.count("PARTIAL COVERAGE: 1 of 2 test dialogues") == 1
    # a stored result repeats its warnings on stderr, never on stdout
    again = _score(mini, tmp_path, partial, stderr="")
    assert again.stdout == done.stdout
    assert "PARTIAL COVERAGE" in again.stderr and "PARTIAL COVERAGE" not in again.stdout
