"""The scorer as researchers install it: ``pip install`` of this repository into a fresh
virtual environment without the workflow extra, then ``mwzrepro score`` from an empty
directory with a fresh cache (``MWZREPRO_CACHE``) and the data mirror (``MWZREPRO_MIRROR``):
the raw files are fetched and verified, the resources built, and the numbers equal the
committed pipeline outputs (results/records/standard.json, bleu.json, dst.json).

About a minute: pip builds the wheel and installs the core dependencies (from its cache when
warm); the first ``score`` builds the MultiWOZ 2.1 resources."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv

import pytest

from tests.conftest import REPO, mirror_file

pytestmark = [pytest.mark.slow, pytest.mark.mirror]

#: Packages of the workflow extra that a scoring install must not bring.
WORKFLOW_ONLY = ("snakemake", "dvc", "pyarrow", "pandera", "matplotlib")


def test_pip_install_without_the_workflow_extra_scores_like_the_pipeline(mirror, tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    shutil.copy(REPO / "pyproject.toml", source)
    shutil.copy(REPO / "README.md", source)
    shutil.copytree(REPO / "src", source / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    bin_dir = env_dir / "bin"
    # --no-compile: no .pyc for the ~10,000 files of pandas, numpy and the rest (the slowest
    # part of the install; Python compiles what it imports anyway).
    subprocess.run([bin_dir / "python", "-m", "pip", "install", "--quiet", "--no-compile",
                    "--disable-pip-version-check", str(source)], check=True, timeout=900,
                   capture_output=True)
    found = subprocess.run(
        [bin_dir / "python", "-c", "import importlib.util as u; print([m for m in "
         f"{WORKFLOW_ONLY!r} if u.find_spec(m)])"],
        check=True, capture_output=True, text=True).stdout.strip()
    assert found == "[]"

    empty = tmp_path / "empty"
    empty.mkdir()
    predictions = mirror_file(mirror, "Tomiinek/MultiWOZ_Evaluation", "predictions/ubar.json")
    env = {**os.environ, "MWZREPRO_MIRROR": str(mirror), "MWZREPRO_CACHE": str(tmp_path / "c")}
    env.pop("PYTHONPATH", None)
    run = subprocess.run([bin_dir / "mwzrepro", "score", str(predictions), "--format", "json"],
                         cwd=empty, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert list(empty.iterdir()) == []                   # nothing written where it runs
    got = json.loads(run.stdout)

    metrics = {n: json.loads((REPO / "results" / "records" / f"{n}.json").read_text())
               for n in ("standard", "bleu", "dst")}
    assert round(got["bleu"]["mwz21"], 4) == metrics["bleu"]["bleu"]["mwz21"]["ubar"]
    std = metrics["standard"]
    assert {**{m: got["success"][m]["total"] for m in ("inform", "success")},
            "combined": got["combined"]} == std["inform_success"]["mwz21"]["ubar"]["standard"]
    assert got["richness"] == std["richness"]["ubar"]
    state = std["state_match"]["mwz21"]["ubar"]
    assert got["dst"] == {**state, "slot_precision": 100 * state["slot_precision"],
                          "slot_recall": 100 * state["slot_recall"]}
    row = metrics["dst"]["rows"]["ubar@mwz21"]
    assert got["dst_fga"]["jga"] == 100 * row["jga"]
    assert got["dst_fga"]["fga"] == {lam: 100 * v for lam, v in row["fga"].items()}
    assert sys.version_info >= (3, 11)
