"""The report's captions are well-formed reStructuredText (issue 20): every caption of every
report item, and the workflow description, rendered as ``snakemake --report`` renders them
(Jinja with the job's ``snakemake`` object, then docutils; ``workflow/scripts/
report_captions.py``), gives no docutils warning and refers to no value the job lacks. Before
issue 20 the table pages' caption referred to a ``page`` wildcard and a ``source`` input that
the one report-table job does not have: Jinja rendered both as empty strings, and each of the
pages printed "Inline literal start-string without end-string" (55 warnings) and showed raw
backticks.

Fast: no built workspace, only the workflow's DAG (a copy of the workflow files, no data).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.workflow.dags import REPO, copy_workflow, run_script


def _captions(workdir: Path, *targets: str) -> list[dict]:
    return json.loads(run_script("report_captions.py", str(workdir), *targets, cwd=workdir))


@pytest.fixture(scope="module")
def captions(tmp_path_factory) -> list[dict]:
    return _captions(copy_workflow(tmp_path_factory.mktemp("captions")))


def test_every_caption_renders_without_a_docutils_warning(captions):
    warned = {f"{c['caption']} for {c['output']}": c["warnings"] for c in captions
              if c["warnings"]}
    assert not warned, json.dumps(warned, indent=1)[:3000]


def test_no_caption_refers_to_a_value_its_job_lacks(captions):
    undefined = {f"{c['caption']} for {c['output']}": c["undefined"] for c in captions
                 if c["undefined"]}
    assert not undefined, json.dumps(undefined, indent=1)[:3000]


def test_every_caption_file_and_report_item_is_rendered(captions):
    used = {c["caption"] for c in captions}
    assert used == {f"workflow/report/{p.name}" for p in (REPO / "workflow/report").glob("*.rst")}
    outputs = [c["output"] for c in captions]
    assert "(workflow description)" in outputs
    assert "results/report/pages/bleu_styles.html" in outputs
    assert "results/plots/stats_significance_mwz21_bleu.svg" in outputs
    assert len(outputs) == len(set(outputs)) > 50


def test_inline_literals_render_as_code(captions):
    """The table caption's ``results/tables/`` is an inline literal (code), not raw backticks;
    the significance caption names its job's version."""
    by_output = {c["output"]: c["html"] for c in captions}
    table = by_output["results/report/pages/bleu_styles.html"]
    assert '<tt class="docutils literal">results/tables/</tt>' in table
    assert "``" not in table and "system-message" not in table
    heat = by_output["results/plots/stats_significance_mwz20_bleu.svg"]
    assert '<tt class="docutils literal">mwz20</tt>' in heat


def test_a_broken_caption_is_caught(tmp_path):
    """The checks can fail: an inline literal around a wildcard the job does not have (the
    pre-issue-20 table caption) gives the docutils warning and the undefined value."""
    ws = copy_workflow(tmp_path / "ws")
    caption = ws / "workflow/report/dst_fga_lambda.rst"
    caption.write_text(caption.read_text(encoding="utf-8")
                       + "\nTable ``{{ snakemake.wildcards.page }}``.\n", encoding="utf-8")
    (broken,) = [c for c in _captions(ws, "results/plots/dst_fga_lambda.svg")
                 if c["caption"] == "workflow/report/dst_fga_lambda.rst"]
    assert "Inline literal start-string without end-string" in broken["warnings"]
    assert "page" in broken["undefined"]
