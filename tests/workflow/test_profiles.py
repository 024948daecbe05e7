"""Snakemake profiles (profiles/default: local runs, picked up automatically; profiles/slurm:
cluster runs): every key is a `snakemake` option, every rule they name exists, and the SLURM
profile's resources and groups evaluate on the real DAG."""

from __future__ import annotations

import importlib.util
import subprocess

import pytest

from tests.workflow.dags import REPO, copy_workflow, tool_env

PROFILES = sorted(p.parent for p in (REPO / "profiles").glob("*/config.yaml"))


def _load(profile_dir):
    """The profile as Snakemake parses it (YTE + key=value flattening)."""
    from snakemake.profiles import ProfileConfigFileParser

    with open(profile_dir / "config.yaml") as fh:
        return ProfileConfigFileParser().parse(fh)


def _options() -> set[str]:
    from snakemake.cli import get_argument_parser

    return {s[2:] for a in get_argument_parser()._actions for s in a.option_strings
            if s.startswith("--")}


def _rules(ws) -> set[str]:
    proc = subprocess.run(["snakemake", "--list-rules"], cwd=ws, capture_output=True,
                          text=True, env=tool_env())
    assert proc.returncode == 0, proc.stderr[-2000:]
    return {line.strip() for line in proc.stdout.splitlines() if line.strip()}


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    return copy_workflow(tmp_path_factory.mktemp("profiles"))


@pytest.fixture(scope="module")
def rules(workspace):
    return _rules(workspace)


def test_both_profiles_exist():
    assert {p.name for p in PROFILES} >= {"default", "slurm"}


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
def test_profile_keys_are_snakemake_options(profile):
    unknown = sorted(set(_load(profile)) - _options())
    assert not unknown, f"{profile}/config.yaml: not snakemake options: {unknown}"


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
def test_profile_rules_exist(profile, rules):
    """Rule names in set-resources/set-threads/groups are rules of the workflow (a renamed
    rule would silently lose its resources)."""
    parsed = _load(profile)
    named = set()
    for key in ("set-resources", "set-threads", "groups"):
        for item in parsed.get(key, []):
            named.add(item.split(":")[0].split("=")[0])
    missing = sorted(named - rules)
    assert not missing, f"{profile.name} profile names unknown rules: {missing}"


def test_default_profile_is_used_automatically(workspace):
    proc = subprocess.run(["snakemake", "--dry-run"], cwd=workspace, capture_output=True,
                          text=True, env=tool_env())
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "profiles/default" in proc.stdout + proc.stderr


HAS_SLURM_PLUGIN = importlib.util.find_spec("snakemake_executor_plugin_slurm") is not None


def _slurm_dry_run(workspace, *extra):
    proc = subprocess.run(
        ["snakemake", "--dry-run", "--workflow-profile", "profiles/slurm", *extra],
        cwd=workspace, capture_output=True, text=True, env=tool_env())
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-3000:]
    return out


def test_slurm_profile_dry_run(workspace):
    """The SLURM profile's resource expressions and job groups evaluate on the full DAG. The
    executor is overridden by the local one (a command-line flag beats the profile), so this
    runs without snakemake-executor-plugin-slurm; everything else in the profile applies."""
    out = _slurm_dry_run(workspace, "--executor", "local")
    for group in _load(REPO / "profiles/slurm").get("group-components", []):
        name = group.split("=")[0]
        assert f"Group job {name}" in out, f"group {name} formed no group job"
    assert "mem_mb=2000" in out, "set-resources did not reach the ingest jobs"


@pytest.mark.skipif(not HAS_SLURM_PLUGIN,
                    reason="snakemake-executor-plugin-slurm is not installed (not in uv.lock); "
                           "test_slurm_profile_dry_run covers the profile with --executor local")
def test_slurm_profile_dry_run_with_plugin(workspace):
    _slurm_dry_run(workspace)
