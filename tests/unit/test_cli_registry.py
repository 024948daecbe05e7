"""The lazy command line: the subcommand table is current, importing the CLI loads no command
module, running a command loads only its own, and errors are one line with exit status 1."""

from __future__ import annotations

import json
import subprocess
import sys

from click.testing import CliRunner

from mwzrepro.cli import COMMANDS, cli
from tests.workflow.dags import load_script


def _generator():
    return load_script("make_cli_registry")


def test_table_matches_the_modules_commands() -> None:
    """COMMANDS equals what the cli modules' COMMANDS lists define (regenerate with
    workflow/scripts/make_cli_registry.py when this fails)."""
    assert COMMANDS == _generator().discover()


def _modules_after(code: str) -> list[str]:
    script = code + "\nimport sys, json\nprint(json.dumps(sorted(m for m in sys.modules " \
                    "if m.startswith('mwzrepro'))))"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True).stdout
    return json.loads(out.splitlines()[-1])


def test_importing_the_cli_loads_no_command_module() -> None:
    # the version string lives in core (issue 29: nothing imports the public API package)
    assert _modules_after("import mwzrepro.cli") == ["mwzrepro", "mwzrepro.cli", "mwzrepro.core",
                                                     "mwzrepro.core.version"]


def test_a_command_loads_only_its_own_module() -> None:
    loaded = _modules_after("from mwzrepro.cli import load_command; load_command('record')")
    assert [m for m in loaded if m.startswith("mwzrepro.cli.")] == ["mwzrepro.cli.workflow"]


def _help_sections() -> dict[str, list[str]]:
    """``{section title: [command, ...]}`` of ``mwzrepro --help`` (command rows start with
    two spaces; their wrapped description lines start further right)."""
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    sections: dict[str, list[str]] = {}
    title = None
    for line in result.output.splitlines():
        if line and not line.startswith(" ") and line.endswith(":"):
            title = line[:-1]
            sections[title] = []
        elif title and line.startswith("  ") and not line.startswith("   "):
            sections[title].append(line.split()[0])
    return sections


def test_help_lists_every_command_once_in_its_group() -> None:
    """Scoring your system, the workflow, then the pipeline steps; every command once."""
    from mwzrepro.cli import SECTIONS

    sections = _help_sections()
    listed = [c for title, cmds in sections.items() if title != "Options" for c in cmds]
    assert sorted(listed) == sorted(COMMANDS)
    assert sections[SECTIONS["scoring"]] == ["compare", "explain", "score"]
    assert sections[SECTIONS["workflow"]] == ["add-system", "download", "record", "sync"]
    assert "score-success" in sections[SECTIONS["pipeline"]]
    assert list(sections)[1:] == list(SECTIONS.values())


def test_groups_match_the_modules_declarations() -> None:
    """GROUPS equals the cli modules' HELP_GROUPS (regenerate when this fails); every command
    the Snakemake rules run is a pipeline step, except download (also run by hand)."""
    import re
    from pathlib import Path

    from mwzrepro.cli import GROUPS

    assert GROUPS == _generator().discover_groups()
    rules = Path(__file__).resolve().parents[2] / "workflow" / "rules"
    run = {m for f in rules.glob("*.smk")
           for m in re.findall(r"mwzrepro ([a-z][a-z-]*)", f.read_text(encoding="utf-8"))}
    assert {c for c in run if c in GROUPS} == {"download"}


def test_dataset_version_and_its_former_name() -> None:
    """score's dataset version is --dataset-version; the former --version still parses, and
    is not shown in --help (mwzrepro --version is the tool's version)."""
    from mwzrepro.cli import load_command

    command = load_command("score")
    ctx = command.make_context("score", ["--version", "mwz20", __file__])
    assert ctx.params["version"] == "mwz20"
    ctx = command.make_context("score", ["--dataset-version", "mwz22", __file__])
    assert ctx.params["version"] == "mwz22"
    text = CliRunner().invoke(cli, ["score", "--help"]).output
    assert "--dataset-version" in text
    assert not [line for line in text.splitlines() if line.lstrip().startswith("--version")]


def test_input_error_is_one_line_and_exit_1(tmp_path) -> None:
    """An empty prediction file ({}) through the console entry point: one line, exit 1."""
    import pandas as pd

    from mwzrepro.core.io import write_table

    write_table(pd.DataFrame({"dialogue_id": ["sng0001"], "turn_id": [1],
                              "speaker": ["system"], "text": ["hi"]}),
                tmp_path / "turns.parquet", "turns")
    (tmp_path / "empty.json").write_text("{}")
    proc = subprocess.run(
        [sys.executable, "-c", "from mwzrepro.cli import main; main()", "predictions",
         "--input", str(tmp_path / "empty.json"), "--turns", str(tmp_path / "turns.parquet"),
         "--out-dir", str(tmp_path / "out")],
        capture_output=True, text=True)
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == [
        "mwzrepro: error: empty.json: no dialogues (the object is empty)"]
    assert not (tmp_path / "out").exists()
