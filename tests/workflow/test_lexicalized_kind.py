"""The ``lexicalized`` system kind (issue 27, "The pipeline"): a system of ``systems`` whose
registry entry says ``form: lexicalized`` (``mwzrepro add-system``, submissions.yaml) is
downloaded and scored as given by ``tables-grounded`` (``--lexicalized-system``), and read by
no step that expects placeholders; a delexicalized registration of the same file goes
everywhere else, as before."""

from __future__ import annotations

import pytest
import yaml

from tests.workflow.dags import copy_workflow, snakemake_jobs
from tests.workspace import workspace_params

ENTRY = {"path": "mwzeval/predictions/mine.json", "url": "file:mine.json", "sha1": "0" * 40,
         "role": "prediction"}


@pytest.mark.parametrize("form", ["lexicalized", "delexicalized"])
def test_a_lexicalized_system_is_scored_by_tables_grounded_only(tmp_path, form):
    params = workspace_params()
    params["systems"] = [*params["systems"], "mine"]
    ws = copy_workflow(tmp_path / "ws", params)
    entry = {**ENTRY, **({"form": "lexicalized"} if form == "lexicalized" else {})}
    (ws / "submissions.yaml").write_text(
        yaml.safe_dump({"sources": {"mwzeval-predictions-mine": entry}}))
    jobs = snakemake_jobs(ws)
    reading = sorted({j["rule"] for j in jobs
                      if "data/raw/mwzeval/predictions/mine.json" in j["input"]})
    grounded, = (j for j in jobs if j["rule"] == "tables_grounded")
    if form == "lexicalized":
        assert reading == ["tables_grounded"]
        assert " --lexicalized-system mine " in grounded["shellcmd"]
        assert "--system mine " not in grounded["shellcmd"]
        assert not any("mine" in str(j["output"]) for j in jobs
                       if not j["rule"].startswith("download"))
    else:
        assert "predictions" in reading and "--lexicalized-system" not in grounded["shellcmd"]
        assert "--system mine " in grounded["shellcmd"]
