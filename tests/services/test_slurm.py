"""The BLEU spine on a real single-node SLURM cluster with the project's SLURM profile
(issue 13): `snakemake --workflow-profile profiles/slurm --profile <the user's own profile>`,
where the user's profile names the account and the partition. Every job goes through sbatch;
the outputs must be byte-identical to the local run (:func:`published`).
"""

from __future__ import annotations

import pytest
import yaml

from tests.services.slurm import sacct_jobs, start_cluster, stop_jobs
from tests.services.timing import Timer
from tests.services.workspace import RULE, output_hashes, planned_jobs, run
from tests.workflow.dags import REPO, copy_workflow, tool_env
from tests.workflow.repos import reduced_params

pytestmark = [pytest.mark.services, pytest.mark.slurm]

PROFILE = REPO / "profiles" / "slurm" / "config.yaml"


def test_profile_gives_every_rule_its_resources(tmp_path):
    """Every rule has memory, time and CPUs in profiles/slurm (a new rule must be added
    there), and the profile leaves `default-resources` to the user's own profile."""
    import subprocess

    profile = yaml.safe_load(PROFILE.read_text())
    assert "default-resources" not in profile, (
        "a workflow profile's default-resources replace the user's (account, partition)")
    ws = copy_workflow(tmp_path / "ws")
    proc = subprocess.run(["snakemake", "--list-rules"], cwd=ws, capture_output=True,
                          text=True, env=tool_env())
    assert proc.returncode == 0, proc.stderr[-2000:]
    rules = set(proc.stdout.split()) - {"all"}
    listed = profile["set-resources"]
    assert sorted(rules - set(listed)) == [], "rules without resources in profiles/slurm"
    assert sorted(set(listed) - rules) == [], "profiles/slurm names rules that do not exist"
    for rule, res in listed.items():
        assert {"mem_mb", "runtime", "cpus_per_task"} <= set(res), rule


@pytest.fixture(scope="module")
def cluster(daemons, tmp_path_factory):
    with Timer("start SLURM (munge, MariaDB, slurmdbd, slurmctld, slurmd)"):
        started = start_cluster(tmp_path_factory.mktemp("slurm"), daemons)
    yield started
    stop_jobs(started)  # before the daemons fixture stops the daemons by PID


@pytest.mark.mirror
def test_bleu_spine_on_slurm(cluster, published, mirror, tmp_path):
    ws = copy_workflow(tmp_path / "ws", params=reduced_params())
    # The user's own profile (normally ~/.config/snakemake/<cluster>/): account, partition.
    mine = tmp_path / "mycluster"
    mine.mkdir()
    (mine / "config.yaml").write_text(yaml.safe_dump({"default-resources": {
        "slurm_account": cluster.account, "slurm_partition": cluster.partition}}))
    env = {**cluster.env, "MWZREPRO_MIRROR": str(mirror)}
    # One change for CI time: the first state check 1 s (not the profile's 10 s) after a
    # submission; the plugin then checks every 11 s. About 12 s per job instead of 30 s.
    with Timer("SLURM: snakemake --workflow-profile profiles/slurm (BLEU spine)"):
        proc = run(["snakemake", "--workflow-profile", "profiles/slurm", "--profile", str(mine),
                    "--slurm-init-seconds-before-status-checks", "1", RULE], ws, timeout=600,
                   env=env)
    log = proc.stdout + proc.stderr
    submitted = log.count("has been submitted with SLURM jobid")
    assert submitted == 7, f"{submitted} jobs went through sbatch, expected 7:\n{log[-3000:]}"

    jobs = sacct_jobs(cluster)
    assert len(jobs) == submitted, jobs
    assert {(j["Account"], j["Partition"], j["State"]) for j in jobs} == {
        (cluster.account, cluster.partition, "COMPLETED")}, jobs

    got = output_hashes(ws)
    # The local run's code listings (data/code-deps/) are DVC's bookkeeping, written by
    # `mwzrepro record` after its run, not by the target built here.
    local = {p: h for p, h in published.hashes.items() if not p.startswith("data/code-deps/")}
    assert sorted(got) == sorted(local), set(got) ^ set(local)
    differ = sorted(p for p in got if got[p] != local[p])
    assert not differ, f"SLURM outputs differ from the local run's: {differ}"
    assert planned_jobs(ws, env=env) == ""
