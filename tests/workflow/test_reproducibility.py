"""The reproducibility workflows of the README, each proven in a throwaway Git+DVC repository
on a small real subset of the data (issue 6; see tests/workflow/repos.py for the subset):

(a) parameter granularity: one params.yaml change → `dvc status`, `dvc repro --dry` and
    Snakemake's params trigger name exactly the stages that use the parameter; `dvc repro`
    and `snakemake` then execute the same stages and write byte-identical outputs;
(b) push/pull round trip: `dvc push`, fresh `git clone`, `mwzrepro sync --pull`: outputs
    byte-identical, `dvc status` clean, `snakemake -n` plans nothing, nothing recomputed;
(c) metrics diff: two commits differing in one parameter → `dvc metrics diff` and `dvc params
    diff` show exactly the changed figures and the changed parameter;
(d) experiments: `dvc exp run -S <param>=<value>` works and `dvc exp show` lists metrics.

The base repository is built once per module with Snakemake and recorded with
`mwzrepro record`; every test works on its own copy or clone.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.workflow import repos
from tests.workflow.dags import params_leaves
from tests.workflow.repos import (
    commit_all,
    copy_repo,
    dvc_ran,
    dvc_status,
    git,
    run,
    set_param,
    snakemake_summary,
    snakemake_targets,
    stages_of,
    timed,
    tracked_files,
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.mirror,
    pytest.mark.filterwarnings("ignore:_NoneStep.value:DeprecationWarning"),  # dvc 3.67 + pygtrie
]


@pytest.fixture(scope="module")
def base(mirror, tmp_path_factory):
    root = tmp_path_factory.mktemp("repro")
    ws, pipe, seconds = repos.build_base(root, mirror)
    return SimpleNamespace(root=root, ws=ws, pipe=pipe, seconds=seconds, mirror=mirror)


def snakemake_ran(output: str) -> set[str]:
    """Output files of the jobs a `snakemake` run executed (its job blocks' output lines)."""
    return {f for line in re.findall(r"^\s+output: (.+)$", output, flags=re.MULTILINE)
            for f in line.split(", ")}


@pytest.fixture(scope="module")
def changed(base):
    """The same parameter change under DVC (`dvc repro`, then committed) and under Snakemake
    (`snakemake`, then `mwzrepro record`), each in its own copy of the base repository."""
    pipe, targets = base.pipe, base.pipe.targets
    dvc_ws = copy_repo(base.ws, base.root / "dvc")
    sm_ws = copy_repo(base.ws, base.root / "snakemake")
    for ws in (dvc_ws, sm_ws):
        set_param(ws, pipe.param, pipe.new)
    r = SimpleNamespace(dvc_ws=dvc_ws, sm_ws=sm_ws)
    # What each runner plans before running anything.
    r.dvc_status = set(dvc_status(dvc_ws, pipe.dvc_targets))
    dry = run(["dvc", "repro", "--dry", *pipe.dvc_targets], dvc_ws)
    r.dvc_dry = dvc_ran(dry.stdout + dry.stderr)
    rows = snakemake_summary(sm_ws, snakemake_targets(targets))
    r.sm_params = stages_of({x["output_file"] for x in rows if x["status"] == "params changed"},
                            pipe.outs)
    r.sm_plan = stages_of({x["output_file"] for x in rows if x["plan"] == "update pending"},
                          pipe.outs)
    # Run both.
    proc, r.dvc_seconds = timed(run, ["dvc", "repro", *pipe.dvc_targets], dvc_ws, base.mirror)
    r.dvc_executed = dvc_ran(proc.stdout + proc.stderr)
    commit_all(dvc_ws, f"{pipe.param}={pipe.new}")
    proc, r.sm_seconds = timed(run, ["snakemake", "--cores", "2", *snakemake_targets(targets)],
                               sm_ws, base.mirror)
    r.sm_executed = stages_of(snakemake_ran(proc.stdout + proc.stderr), pipe.outs)
    run(["mwzrepro", "record", *targets], sm_ws)
    return r


def test_a_parameter_granularity(base, changed):
    pipe = base.pipe
    assert pipe.users, f"no stage uses {pipe.param}"
    # Directly affected: exactly the stages whose command uses the parameter, on both sides.
    assert changed.dvc_status == pipe.users
    assert changed.dvc_dry == pipe.users
    assert changed.sm_params == pipe.users
    # Executed: the same stages under both runners (the users and what depends on them).
    assert changed.dvc_executed == changed.sm_plan == changed.sm_executed
    assert pipe.users <= changed.dvc_executed < set(pipe.outs)
    print(f"\n{pipe.param} {pipe.old} -> {pipe.new}: {len(changed.dvc_executed)} of "
          f"{len(pipe.outs)} stages re-run ({sorted(changed.dvc_executed)}); dvc repro "
          f"{changed.dvc_seconds:.1f} s, snakemake {changed.sm_seconds:.1f} s; base build "
          f"(snakemake) {base.seconds:.1f} s")


def test_a_both_runners_write_identical_outputs(base, changed):
    dvc_files = tracked_files(changed.dvc_ws, base.pipe.outs)
    sm_files = tracked_files(changed.sm_ws, base.pipe.outs)
    differ = sorted(p for p in dvc_files if dvc_files[p] != sm_files[p])
    assert not differ, f"dvc repro and snakemake wrote different bytes: {differ}"
    before = tracked_files(base.ws, base.pipe.outs)
    rewritten = {p for p in dvc_files if dvc_files[p] != before[p]}
    assert stages_of(rewritten, base.pipe.outs) <= changed.dvc_executed
    # Both workspaces are recorded (dvc.lock) and Snakemake has nothing left to do.
    for ws in (changed.dvc_ws, changed.sm_ws):
        assert dvc_status(ws, base.pipe.dvc_targets) == {}
    run(["mwzrepro", "sync", *base.pipe.targets], changed.dvc_ws)  # records Snakemake's view


def test_b_push_pull_round_trip(base):
    clone = base.root / "clone"
    run(["git", "clone", "-q", str(base.ws), str(clone)], base.root)
    run(["mwzrepro", "sync", "--pull", *base.pipe.targets], clone)
    assert dvc_status(clone, base.pipe.dvc_targets) == {}
    plan = run(["snakemake", "--dry-run", *snakemake_targets(base.pipe.targets)], clone)
    assert "Nothing to be done" in plan.stdout + plan.stderr
    pulled, built = tracked_files(clone, base.pipe.outs), tracked_files(base.ws, base.pipe.outs)
    assert pulled == built, [p for p in built if pulled[p] != built[p]]
    # Nothing recomputed: every job writes its --log; `snakemake --touch` leaves them empty.
    written = [p for p in (clone / "logs").rglob("*") if p.is_file() and p.stat().st_size]
    assert not written, f"jobs ran after the pull: {written[:5]}"
    # Snakemake recorded its metadata while touching: a parameter change is seen again.
    set_param(clone, base.pipe.param, base.pipe.new)
    rows = snakemake_summary(clone, snakemake_targets(base.pipe.targets))
    assert stages_of({x["output_file"] for x in rows if x["status"] == "params changed"},
                     base.pipe.outs) == base.pipe.users


def _flat(obj, prefix=""):
    if isinstance(obj, dict):
        out = {}
        for k, v in obj.items():
            out.update(_flat(v, f"{prefix}{k}."))
        return out
    return {prefix[:-1]: obj}


def _metrics_at(ws: Path, rev: str, path: str) -> dict:
    proc = run(["git", "show", f"{rev}:{path}"], ws, check=False)
    return _flat(json.loads(proc.stdout)) if proc.returncode == 0 else {}


def test_c_metrics_and_params_diff(base, changed):
    ws, pipe = changed.dvc_ws, base.pipe
    assert git(ws, "rev-list", "--count", "HEAD~1..HEAD").strip() == "1"
    params = json.loads(run(["dvc", "params", "diff", "HEAD~1", "HEAD", "--json"], ws).stdout)
    assert {f: {k: (v["old"], v["new"]) for k, v in d.items()} for f, d in params.items()} == {
        "params.yaml": {pipe.param: (pipe.old, pipe.new)}}
    diff = json.loads(run(["dvc", "metrics", "diff", "HEAD~1", "HEAD", "--json"], ws).stdout)
    reported = {(f, k): (v["old"], v["new"]) for f, d in diff.items() for k, v in d.items()}
    expected = {}
    for f in diff.keys() | set(_metric_files(ws)):
        old, new = _metrics_at(ws, "HEAD~1", f), _metrics_at(ws, "HEAD", f)
        expected.update({(f, k): (old.get(k), new.get(k)) for k in old.keys() | new.keys()
                         if old.get(k) != new.get(k)})
    assert reported == expected
    figures = {k: v for k, v in reported.items() if isinstance(v[1], (int, float))}
    assert figures, "the parameter change changed no figure"
    # Only metrics files written by stages the change re-ran may differ.
    rerun_outs = {o for s in changed.dvc_executed for o in pipe.outs[s]}
    assert {f for f, _ in reported} <= rerun_outs


def _metric_files(ws: Path) -> list[str]:
    import yaml

    doc = yaml.safe_load((ws / "dvc.yaml").read_text())
    return [m if isinstance(m, str) else next(iter(m)) for m in doc.get("metrics") or []]


def test_d_experiment_run(base, changed):
    ws = copy_repo(base.ws, base.root / "exp")
    pipe = base.pipe
    proc = run(["dvc", "exp", "run", "-S", f"{pipe.param}={pipe.new}", *pipe.dvc_targets], ws,
               base.mirror)
    assert dvc_ran(proc.stdout + proc.stderr) == changed.dvc_executed
    show = json.loads(run(["dvc", "exp", "show", "--json"], ws).stdout)
    baseline = next(r for r in show if r["rev"] != "workspace")
    exps = [rev for e in baseline.get("experiments") or [] for rev in e.get("revs", [])]
    assert len(exps) == 1
    data = exps[0]["data"]
    assert params_leaves(data["params"]["params.yaml"]["data"])[pipe.param] == pipe.new
    listed = {f: m["data"] for f, m in data["metrics"].items() if "data" in m}
    assert listed, "dvc exp show lists no metrics"
    # The experiment's metrics are those of the committed `dvc repro` of the same change.
    for f, values in listed.items():
        committed = _flat(json.loads((changed.dvc_ws / f).read_text()))
        shown = _flat(values)
        differ = {k: (shown.get(k), committed.get(k)) for k in shown.keys() | committed.keys()
                  if shown.get(k) != committed.get(k)}
        assert not differ, f"{f}: {sorted(differ.items())[:5]}"
    base_metrics = {f: m["data"] for f, m in baseline["data"]["metrics"].items() if "data" in m}
    assert any(base_metrics[f] != listed[f] for f in listed)
