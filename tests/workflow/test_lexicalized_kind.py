"""The ``lexicalized`` system kind (issue 27, "The pipeline"): a system of ``systems`` whose
registry entry says ``form: lexicalized`` (``mwzrepro add-system``, submissions.yaml) is
downloaded and scored as given by ``tables-grounded`` (``--lexicalized-system``), and read by
no step that expects placeholders; a delexicalized registration of the same file goes
everywhere else, as before. Either way the file has its own download job (``--id``): the
shipped group's job (``download_mwzeval``) is the same with or without it, so registering a
system reruns only the jobs that read its file."""

from __future__ import annotations

import pytest
import yaml

from tests.workflow.dags import copy_workflow, snakemake_jobs
from tests.workspace import workspace_params

ENTRY = {"path": "mwzeval/predictions/my.llm.json", "url": "file:mine.json", "sha1": "0" * 40,
         "role": "prediction"}


@pytest.mark.parametrize("form", ["lexicalized", "delexicalized"])
def test_a_lexicalized_system_is_scored_by_tables_grounded_only(tmp_path, form):
    params = workspace_params()
    params["systems"] = [*params["systems"], "my.llm"]
    ws = copy_workflow(tmp_path / "ws", params)
    entry = {**ENTRY, **({"form": "lexicalized"} if form == "lexicalized" else {})}
    (ws / "submissions.yaml").write_text(
        yaml.safe_dump({"sources": {"mwzeval-predictions-my.llm": entry}}))
    jobs = snakemake_jobs(ws)
    path = "data/raw/mwzeval/predictions/my.llm.json"
    reading = sorted({j["rule"] for j in jobs if path in j["input"]})
    writing, = (j for j in jobs if path in j["output"])
    assert writing["output"] == [path] and " --id mwzeval-predictions-my.llm " in \
        writing["shellcmd"]
    shipped, = (j for j in jobs if j["rule"] == "download_mwzeval")
    assert path not in shipped["output"] and "submissions.yaml" not in shipped["shellcmd"]
    grounded, = (j for j in jobs if j["rule"] == "tables_grounded")
    if form == "lexicalized":
        assert reading == ["tables_grounded"]
        assert " --lexicalized-system my.llm " in grounded["shellcmd"]
        assert "--system my.llm " not in grounded["shellcmd"]
        assert not any("my.llm" in str(j["output"]) for j in jobs if j is not writing)
    else:
        assert "predictions" in reading and "--lexicalized-system" not in grounded["shellcmd"]
        assert "--system my.llm " in grounded["shellcmd"]
