"""The recipes of docs/workflows.md, run as written there (issue 30): each block marked
``<!-- recipe: NAME -->`` is read from the Markdown (never copied here) and run line by line
in a throwaway Git+DVC repository holding the whole workflow for one version's test split and
three systems (:func:`tests.workspace.workspace_params`), built with Snakemake and recorded.

- ``threshold-change``: `dvc exp run -S inform.fuzzy_threshold=85` reruns exactly the stages
  the docs name (the backticked names after ``<!-- stages: threshold-change -->``), and
  `dvc metrics diff` is at most 120 characters wide, shows figures only (no signature) and
  lists every Kendall τ that changed;
- ``threshold-back``: back to 90, nothing left to diff, Snakemake plans nothing, `git status`
  is clean and params.yaml is byte-identical to what it was (comments included);
- ``add-system``: `mwzrepro add-system` with a file outside the repository.

Also: every metrics file holds numbers only and every τ of the ranking record is a metric.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.workflow.dags import REPO, copy_workflow, run_script, tool_env
from tests.workflow.repos import (
    commit_all,
    dvc_ran,
    git,
    init_repo,
    run,
    write_params_keeping_its_form,
)
from tests.workspace import workspace_params

pytestmark = [
    pytest.mark.slow,
    pytest.mark.mirror,
    pytest.mark.filterwarnings("ignore:_NoneStep.value:DeprecationWarning"),  # dvc 3.67 + pygtrie
]

DOC = REPO / "docs" / "workflows.md"


def recipe(name: str) -> list[str]:
    """The command lines of the ```bash block after ``<!-- recipe: name -->`` in
    docs/workflows.md (comments and blank lines dropped)."""
    text = DOC.read_text(encoding="utf-8")
    m = re.search(rf"<!-- recipe: {re.escape(name)} -->\s*```bash\n(.*?)```", text, flags=re.S)
    assert m, f"{DOC.name}: no recipe {name!r}"
    lines = [re.sub(r"\s+#.*$", "", line).strip() for line in m.group(1).splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


def named_stages(name: str) -> set[str]:
    """The stage names the paragraph after ``<!-- stages: name -->`` gives in backticks, up to
    the sentence saying what does not rerun."""
    text = DOC.read_text(encoding="utf-8")
    m = re.search(rf"<!-- stages: {re.escape(name)} -->\n(.*?)\n\n", text, flags=re.S)
    assert m, f"{DOC.name}: no stage list {name!r}"
    rerun = m.group(1).split(". What")[0]
    return set(re.findall(r"`([a-z][a-z-]+)`", rerun))


def shell(line: str, ws: Path, mirror: Path) -> subprocess.CompletedProcess:
    """One recipe line in ``ws`` as a user types it (venv tools first on the PATH)."""
    proc = subprocess.run(line, shell=True, cwd=ws, capture_output=True, text=True,
                          env=tool_env(MWZREPRO_MIRROR=str(mirror)))
    assert proc.returncode == 0, f"`{line}` failed in {ws}:\n{(proc.stdout + proc.stderr)[-4000:]}"
    return proc


def _leaves(data, prefix: str = "") -> dict[str, object]:
    if isinstance(data, dict):
        out = {}
        for k, v in data.items():
            out.update(_leaves(v, f"{prefix}{k}."))
        return out
    return {prefix[:-1]: data}


@pytest.fixture(scope="module")
def built(mirror, tmp_path_factory) -> SimpleNamespace:
    root = tmp_path_factory.mktemp("recipes")
    ws = copy_workflow(root / "ws")
    write_params_keeping_its_form(ws, workspace_params())
    run_script("make_dvc_yaml.py", "--workdir", str(ws), cwd=ws)
    init_repo(ws, root / "store")
    run(["snakemake", "--cores", "2"], ws, mirror)
    run(["mwzrepro", "record"], ws)
    commit_all(ws, "results")
    return SimpleNamespace(root=root, ws=ws, mirror=mirror)


def test_metrics_files_hold_numbers_and_tau(built) -> None:
    ws = built.ws
    metrics = sorted((ws / "results" / "metrics").glob("*.json"))
    assert metrics
    for path in metrics:
        leaves = _leaves(json.loads(path.read_text(encoding="utf-8")))
        odd = {k: v for k, v in leaves.items()
               if isinstance(v, bool) or not isinstance(v, (int, float))}
        assert not odd, f"{path.name}: not numbers: {list(odd)[:5]}"
        assert (ws / "results" / "records" / path.name).is_file()
    record = json.loads((ws / "results/records/stats_ranking.json").read_text())
    numbers = json.loads((ws / "results/metrics/stats_ranking.json").read_text())
    taus = {(c["metric"], f"{c['a']} vs {c['b']}") for c in record["comparisons"]
            if c["tau"] is not None}
    assert taus and all(numbers["tau"][m][pair] is not None for m, pair in taus)


def test_threshold_recipe_reruns_the_named_stages_and_back(built) -> None:
    ws, mirror = built.ws, built.mirror
    params_before = (ws / "params.yaml").read_bytes()
    assert git(ws, "status", "--porcelain") == ""
    before = json.loads((ws / "results/metrics/stats_ranking.json").read_text())
    ran: set[str] = set()
    outputs = []
    for line in recipe("threshold-change"):
        proc = shell(line, ws, mirror)
        ran |= {s.split("@")[0] for s in dvc_ran(proc.stdout + proc.stderr)}
        outputs.append((line, proc.stdout))
    assert ran == named_stages("threshold-change")
    diff = next(out for line, out in outputs if line.startswith("dvc metrics diff"))
    assert "inform_success." in diff                       # the figures that changed
    # the path column is as wide as the longest metrics path (keep their names short)
    assert max(len(line) for line in diff.splitlines()) <= 120
    assert "|" not in diff.replace("│", "")                # no signature in the diff
    after = json.loads((ws / "results/metrics/stats_ranking.json").read_text())
    changed = [f"tau.{m}.{pair}" for m, pairs in after["tau"].items()
               for pair, v in pairs.items() if before["tau"][m].get(pair) != v]
    assert all(key in diff for key in changed), f"τ changes missing from the diff: {changed}"

    for line in recipe("threshold-back"):
        shell(line, ws, mirror)
    # really back: nothing for Git to show, params.yaml as it was, byte for byte
    assert (ws / "params.yaml").read_bytes() == params_before
    assert git(ws, "status", "--porcelain") == ""
    assert shell("dvc metrics diff", ws, mirror).stdout.strip() == ""
    plan = run(["snakemake", "-n"], ws, mirror).stdout
    assert "Nothing to be done" in plan or "nothing to be done" in plan.lower()


def _src_digest(ws: Path) -> str:
    """SHA-256 over the paths and bytes of every file under ``ws/src``."""
    import hashlib

    h = hashlib.sha256()
    for p in sorted((ws / "src").rglob("*")):
        if p.is_file() and "__pycache__" not in p.parts:
            h.update(p.relative_to(ws).as_posix().encode() + p.read_bytes())
    return h.hexdigest()


def test_add_system_from_an_outside_path(built) -> None:
    ws = built.ws
    line, = recipe("add-system")
    outside = built.root / line.split()[2].removeprefix("../")   # ../mysystems/... of ws
    outside.parent.mkdir(parents=True, exist_ok=True)
    system = workspace_params()["systems"][0]
    shutil.copy2(ws / "data/raw/mwzeval/predictions" / f"{system}.json", outside)
    assert (ws / "src/mwzrepro").is_dir()
    src_before = _src_digest(ws)
    proc = subprocess.run(line, shell=True, cwd=ws, capture_output=True, text=True,
                          env=tool_env())
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    registration = (ws / "submissions.yaml").read_text(encoding="utf-8")
    assert "mysystem" in registration
    assert (ws / "data/submissions/mysystem.json").read_bytes() == outside.read_bytes()
    assert _src_digest(ws) == src_before  # the package is never written
