"""The Snakemake DAG and the DVC pipeline describe the same jobs (design.md, "Snakemake
executes, DVC records and shares"; background-snakemake-dvc-ecosystem §1.5).

Snakemake side: every job of the ``--forceall`` DAG of the default target (``rule all``).
DVC side: every expanded stage of ``dvc.yaml``. Asserted, per output file: the same producing
job (one rule = one stage family, same output group), the same inputs (DVC directory deps
expanded to the outputs under them; ``ancient()`` inputs count), the same argv after
``shlex.split``. Then the rules of the design: no nested DVC outs; no ``temp()``,
``directory()`` or ``protected()`` on tracked outputs; metrics/plots are stage outputs and
metrics are kept out of the cache (Git); DVC stages declare only params their command uses.

Finally the parameter test: every scalar of ``params.yaml`` that a ``foreach``/``matrix`` does
not iterate over is replaced by a marked value, and the two DAGs must still agree; each
stage's params.yaml keys (found by their markers) must be the same on both sides, and on the
Snakemake side reach the job through ``params:`` or an input/output path (what Snakemake's
params and input rerun triggers see), so a parameter change reruns the same jobs under both
runners. Fast (no data needed): both DAGs are built in a copy of the workflow files.
"""

from __future__ import annotations

import re
import shlex
from pathlib import PurePosixPath

import pytest
import yaml

from tests.workflow.dags import (
    copy_workflow,
    dvc_init,
    dvc_stages,
    dvc_templates,
    expand_dep,
    params_leaves,
    snakemake_jobs,
)

pytestmark = pytest.mark.filterwarnings("ignore:_NoneStep.value:DeprecationWarning")


class Dags:
    """Both DAGs of one workspace, indexed by output path."""

    def __init__(self, ws):
        self.ws = ws
        self.jobs = snakemake_jobs(ws)
        self.stages = dvc_stages(ws)
        self.templates = dvc_templates(ws)
        self.job_of = {o: j for j in self.jobs for o in j["output"]}
        self.stage_of = {o: s for s in self.stages for o in s.outs}
        self.out_paths = set(self.stage_of)

    def pairs(self):
        """(job, stage) pairs matched by their first output, one per Snakemake job."""
        for job in self.jobs:
            stage = self.stage_of.get(job["output"][0])
            if stage is not None:
                yield job, stage

    def stage_inputs(self, stage) -> set[str]:
        return set().union(*(expand_dep(d, self.out_paths - set(stage.outs), self.ws)
                             for d in stage.deps)) if stage.deps else set()


@pytest.fixture(scope="module")
def dags(tmp_path_factory):
    ws = copy_workflow(tmp_path_factory.mktemp("dag"))
    dvc_init(ws)
    return Dags(ws)


def _fmt(paths, limit=15):
    paths = sorted(paths)
    more = f" ... (+{len(paths) - limit})" if len(paths) > limit else ""
    return ", ".join(paths[:limit]) + more


def test_dags_are_not_empty(dags):
    assert dags.jobs, "Snakemake DAG has no jobs"
    assert dags.stages, "dvc.yaml has no stages"


def test_same_outputs(dags):
    sm = set(dags.job_of)
    dvc = dags.out_paths
    assert not sm - dvc, f"Snakemake outputs without a DVC stage: {_fmt(sm - dvc)}"
    assert not dvc - sm, (
        f"DVC outs that `snakemake` (rule all) never builds: {_fmt(dvc - sm)}")


def test_one_stage_per_job(dags):
    bad = []
    for job, stage in dags.pairs():
        if set(job["output"]) != set(stage.outs):
            bad.append(f"{job['rule']} {job['output']} vs {stage.name} {stage.outs}")
        if job["rule"].replace("_", "-") != stage.base:
            bad.append(f"rule {job['rule']} is stage {stage.name} (names must match, _ = -)")
    assert not bad, "\n".join(bad)


def test_same_inputs(dags):
    bad = []
    for job, stage in dags.pairs():
        sm, dvc = set(job["input"]), dags.stage_inputs(stage)
        if sm != dvc:
            bad.append(f"{stage.name}: only Snakemake: {_fmt(sm - dvc, 6)}; "
                       f"only DVC: {_fmt(dvc - sm, 6)}")
    assert not bad, f"{len(bad)} jobs with different inputs:\n" + "\n".join(bad[:20])


def test_same_argv(dags):
    bad = []
    for job, stage in dags.pairs():
        a, b = shlex.split(job["shellcmd"]), shlex.split(stage.cmd)
        if a != b:
            diff = [(x, y) for x, y in zip(a, b) if x != y][:3] or (a[len(b):] or b[len(a):])
            bad.append(f"{stage.name}: first differences {diff}")
    assert not bad, f"{len(bad)} commands differ:\n" + "\n".join(bad[:20])


def test_no_nested_dvc_outs(dags):
    outs = sorted(dags.out_paths)
    nested = [(a, b) for a in outs for b in outs
              if a != b and PurePosixPath(b).is_relative_to(PurePosixPath(a))]
    assert not nested, f"DVC outs nested in other outs: {nested[:10]}"


def test_tracked_outputs_are_plain_files(dags):
    flagged = [(j["rule"], kind, f) for j in dags.jobs
               for kind in ("temp", "directory", "protected") for f in j[kind]
               if f in dags.out_paths]
    assert not flagged, f"temp()/directory()/protected() on DVC-tracked outputs: {flagged}"


def test_metrics_and_plots_are_outputs(dags):
    doc = yaml.safe_load((dags.ws / "dvc.yaml").read_text())
    uncached = set().union(*(s.uncached for s in dags.stages))
    metrics = [m if isinstance(m, str) else next(iter(m)) for m in doc.get("metrics") or []]
    plots = [p if isinstance(p, str) else next(iter(p)) for p in doc.get("plots") or []]
    assert metrics, "dvc.yaml declares no metrics"
    missing = [p for p in metrics + plots if p not in dags.out_paths]
    assert not missing, f"metrics/plots no stage outputs: {missing}"
    cached = [m for m in metrics if m not in uncached]
    assert not cached, f"metrics must be `cache: false` (committed to Git): {cached}"


def test_declared_params_are_used(dags):
    bad = {name: sorted(t["declared"] - t["interpolated"])
           for name, t in dags.templates.items() if t["declared"] - t["interpolated"]}
    assert not bad, (
        f"stages declare params their command/deps/outs never interpolate (DVC would rerun "
        f"them on a change that Snakemake ignores): {bad}")


# --- parameter perturbation -----------------------------------------------------------------


def _marker(i: int) -> str:
    """Fixed-length letter marker (never a substring of another marker)."""
    return "zq" + chr(97 + i // 26 % 26) + chr(97 + i % 26)


def perturb(params: dict, loop_keys: set[str]):
    """Replace every scalar leaf not under a foreach/matrix key. Values that equal an element
    of an iterated list (a dataset version, say) are swapped for another element (they are
    used in paths); other strings get a marker suffix, numbers a marker value, booleans are
    flipped. Returns (new params, {key: marker}, swapped keys)."""
    leaves = params_leaves(params)
    pools = [v for k, v in leaves.items() if k in loop_keys and isinstance(v, list)]
    markers, swapped, new_leaves = {}, set(), {}
    for i, (key, v) in enumerate(sorted(leaves.items())):
        if any(key == lk or key.startswith(lk + ".") for lk in loop_keys):
            continue
        if isinstance(v, bool):
            new_leaves[key] = not v
            continue
        if isinstance(v, int):
            new = 910001 + i
            markers[key] = str(new)
        elif isinstance(v, float):
            new = round(0.8101 + 0.0001 * i, 4)
            markers[key] = str(new)
        elif isinstance(v, str):
            pool = next((p for p in pools if v in p and len(set(p)) > 1), None)
            if pool is not None:
                new = next(x for x in pool if x != v)
                swapped.add(key)
            else:
                new = v + _marker(i)
                markers[key] = _marker(i)
        else:
            continue
        new_leaves[key] = new
    out = yaml.safe_load(yaml.safe_dump(params))
    for key, value in new_leaves.items():
        node = out
        *head, last = key.split(".")
        for h in head:
            node = node[h]
        node[last] = value
    return out, markers, swapped


def _found(markers: dict[str, str], haystack: list[str]) -> set[str]:
    text = "\n".join(haystack)
    keys = set()
    for key, m in markers.items():
        if m.startswith("zq"):
            hit = m in text
        else:
            hit = re.search(rf"(?<![0-9A-Za-z.]){re.escape(m)}(?![0-9A-Za-z])", text)
        if hit:
            keys.add(key)
    return keys


@pytest.fixture(scope="module")
def perturbed(dags, tmp_path_factory):
    params = yaml.safe_load((dags.ws / "params.yaml").read_text())
    loop_keys = set().union(*(t["loop"] for t in dags.templates.values()))
    new, markers, swapped = perturb(params, loop_keys)
    ws = copy_workflow(tmp_path_factory.mktemp("dag-perturbed"), params=new)
    dvc_init(ws)
    return Dags(ws), markers, swapped


def test_perturbed_dags_agree(perturbed):
    """Hard-coding a value on one side (a constant in the shell string that happens to equal
    params.yaml) shows up here: the other side follows the changed parameter."""
    pdags, _, _ = perturbed
    test_same_outputs(pdags)
    test_same_inputs(pdags)
    test_same_argv(pdags)


def test_same_params_per_job(perturbed):
    pdags, markers, _ = perturbed
    bad = []
    for job, stage in pdags.pairs():
        t = pdags.templates[stage.base]
        dvc_refs = (t["interpolated"] | t["declared"]) & set(markers)
        dvc_seen = _found(markers, shlex.split(stage.cmd) + stage.deps + stage.outs)
        sm_seen = _found(markers, job["params"] + job["input"] + job["output"])
        sm_cmd = _found(markers, [job["shellcmd"]])
        if dvc_refs != dvc_seen:
            bad.append(f"{stage.name}: declared/interpolated {sorted(dvc_refs)} but the "
                       f"command uses {sorted(dvc_seen)}")
        if sm_cmd - sm_seen:
            bad.append(f"rule {job['rule']}: {sorted(sm_cmd - sm_seen)} reach the shell "
                       f"command but not through params:/input/output (Snakemake's params "
                       f"trigger would miss a change)")
        if sm_seen != dvc_seen:
            bad.append(f"{stage.name}: params.yaml keys Snakemake {sorted(sm_seen)} vs DVC "
                       f"{sorted(dvc_seen)}")
    assert not bad, "\n".join(sorted(set(bad))[:30])


def test_every_parameter_is_used(perturbed):
    """Every scalar in params.yaml reaches at least one job (on both sides), or is a
    foreach/matrix key: no dead parameters."""
    pdags, markers, _ = perturbed
    used = set()
    for job, stage in pdags.pairs():
        used |= _found(markers, job["params"] + job["input"] + job["output"])
    unused = sorted(set(markers) - used)
    assert not unused, f"params.yaml keys that no rule/stage uses: {unused}"


def test_params_change_reaches_same_jobs(dags, perturbed):
    """The set of jobs whose params/inputs change under the perturbation is the same set of
    stages whose command changes."""
    pdags, _, _ = perturbed
    sm_changed, dvc_changed = set(), set()
    before_jobs = {tuple(sorted(j["output"])): j for j in dags.jobs}
    before_stages = {s.name: s for s in dags.stages}
    for job, stage in pdags.pairs():
        old = before_jobs.get(tuple(sorted(job["output"])))
        if old is None or (old["params"], sorted(old["input"])) != (job["params"],
                                                                    sorted(job["input"])):
            sm_changed.add(stage.name)
        old_s = before_stages.get(stage.name)
        if old_s is None or (old_s.cmd, sorted(old_s.deps), old_s.params) != (
                stage.cmd, sorted(stage.deps), stage.params):
            dvc_changed.add(stage.name)
    assert sm_changed, "perturbing every parameter changed no job"
    assert sm_changed == dvc_changed, (
        f"only Snakemake: {_fmt(sm_changed - dvc_changed)}; "
        f"only DVC: {_fmt(dvc_changed - sm_changed)}")
