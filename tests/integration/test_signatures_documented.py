"""docs/signatures.md covers every signature field any command prints (issue 30): the fields
are collected from real outputs — the full records and table notes of a built workspace
(:func:`tests.workspace.built_workspace`) and ``mwzrepro score`` on the scorer's fixture mirror
with the options that add fields (coverage, extended placeholders, lexicalized responses,
lists of alternatives) — and each block must have its section and each field its row."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.unit.scorer.fixture_mirror import make_mirror
from tests.unit.scorer.test_evaluator import PREDICTIONS
from tests.workspace import built_workspace

pytestmark = pytest.mark.mirror

REPO = Path(__file__).resolve().parents[2]
DOC = (REPO / "docs" / "signatures.md").read_text(encoding="utf-8")
#: A signature: a block name, then ``|key:value`` fields (v last).
SIGNATURE = re.compile(r"(?<![\w|])([A-Z][A-Za-z/]*(?:\(\d[\d.]*\))?(?:-[A-Za-z]+)?|consistency)"
                       r"((?:\|[a-z_0-9]+:[^|\s`\"]*)+\|v:[\w.]+)")


def _signatures(text: str) -> set[str]:
    return {m.group(1) + m.group(2) for m in SIGNATURE.finditer(text)}


def _documented_block(block: str) -> bool:
    generic = re.sub(r"^.+-(CI|sig)$", r"<METRIC>-\1", block)
    return f"### `{generic}`" in DOC


@pytest.fixture(scope="module")
def score_outputs(tmp_path_factory) -> str:
    root = tmp_path_factory.mktemp("sigs")
    mirror, registry = make_mirror(root, "mwz21")
    partial = {"sng9001": PREDICTIONS["sng9001"]}
    alternatives = json.loads(json.dumps(PREDICTIONS))
    alternatives["sng9001"][0]["state"]["restaurant"]["food"] = ["chinese", "thai"]
    lexicalized = {"sng9001": [{"response": "the golden house is at 12 lensfield road ."},
                               {"response": "the postcode is cb21eg ."}],
                   "sng9002": [{"response": "booked , the number is 07218068540 ."}]}
    runs = [(partial, ["--setting", "both"]), (PREDICTIONS, ["--placeholders", "extended"]),
            (alternatives, []), (lexicalized, ["--lexicalized"])]
    out = []
    for i, (data, options) in enumerate(runs):
        pred = root / f"sys{i}.json"
        pred.write_text(json.dumps(data), encoding="utf-8")
        done = subprocess.run(
            [str(Path(sys.executable).parent / "mwzrepro"), "score", str(pred), "--mirror",
             str(mirror), "--sources", str(registry), "--cache-dir", str(root / "cache"),
             "--no-result-cache", *options], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr[-2000:]
        out.append(done.stdout)
    return "\n".join(out)


def test_every_field_printed_is_documented(score_outputs, tmp_path_factory) -> None:
    ws = built_workspace(tmp_path_factory)
    texts = [score_outputs]
    texts += [p.read_text(encoding="utf-8") for p in (ws / "results" / "records").glob("*.json")]
    texts += [p.read_text(encoding="utf-8") for p in (ws / "results" / "tables").glob("*.md")]
    signatures = set().union(*map(_signatures, texts))
    blocks = {s.split("|")[0] for s in signatures}
    fields = {part.split(":")[0] for s in signatures for part in s.split("|")[1:]}
    # what the outputs must show for this test to mean anything
    assert {"BLEU", "Inform/Success", "Richness", "StateMatch", "DST", "UNSEEN",
            "BLEU-CI", "Inform-sig"} <= blocks
    assert {"cov", "ph", "lex", "alt", "dom", "ref"} <= fields
    assert "system" not in fields, "a signature names a system"
    missing_blocks = sorted(b for b in blocks if not _documented_block(b))
    missing_fields = sorted(f for f in fields if f"`{f}`" not in DOC.split("## Blocks")[0])
    assert not missing_blocks and not missing_fields, (missing_blocks, missing_fields)
