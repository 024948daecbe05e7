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


def test_help_lists_every_command() -> None:
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    listed = {line.split()[0] for line in result.output.split("Commands:")[1].splitlines()
              if line.strip()}
    assert listed == set(COMMANDS)


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
