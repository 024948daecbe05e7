"""Every job's command line is one the command accepts: each ``mwzrepro <command> ...`` of the
``--forceall`` DAG is parsed by that command's own click definition, with full validation
(option names, choices, numbers, booleans, files present), in a directory holding an empty
file at every input path. The options come from ``params.yaml`` through the library's
``cli_args`` (``options()`` in workflow/rules/common.smk), the command's options from the same
parameter models (``click_options``): a renamed field, a bad rendering or a value a command
rejects fails here, before any data is read.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import click
import pytest

from mwzrepro.cli import cli


@pytest.fixture(scope="module")
def inputs_dir(jobs, tmp_path_factory) -> Path:
    """A directory with an empty file at every input path of every job."""
    root = tmp_path_factory.mktemp("inputs")
    for job in jobs:
        for path in job["input"]:
            target = root / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.touch()
    return root


def test_every_job_command_parses(jobs, inputs_dir, monkeypatch):
    monkeypatch.chdir(inputs_dir)
    group = click.Context(cli, info_name="mwzrepro")
    rejected, parsed = [], 0
    for job in jobs:
        words = shlex.split(job["shellcmd"])
        if job["rule"] == "code_digests":  # the one maintenance job: the code listings
            assert words[:2] == ["python", "workflow/scripts/code_digest.py"], words[:2]
            parsed += 1
            continue
        if words[:1] != ["mwzrepro"]:
            rejected.append(f"{job['rule']}: not one `mwzrepro` command: {job['shellcmd'][:80]}")
            continue
        command = cli.get_command(group, words[1])
        if command is None:
            rejected.append(f"{job['rule']}: no command {words[1]!r}")
            continue
        try:
            with command.make_context(words[1], words[2:], parent=group):
                parsed += 1
        except click.ClickException as exc:
            rejected.append(f"{job['rule']} {job['wildcards']}: {exc.format_message()}")
    assert not rejected, "\n".join(rejected)
    assert parsed == len(jobs)


def test_a_bad_rendering_is_caught(jobs, inputs_dir, monkeypatch):
    """The check can fail: a misspelt option and an out-of-range value are rejected."""
    monkeypatch.chdir(inputs_dir)
    group = click.Context(cli, info_name="mwzrepro")
    job = next(j for j in jobs if j["rule"] == "score_success")
    words = shlex.split(job["shellcmd"])
    command = cli.get_command(group, words[1])
    renamed = [w.replace("--fuzzy-threshold", "--fuzzy-treshold") for w in words[2:]]
    with pytest.raises(click.NoSuchOption):
        command.make_context(words[1], renamed, parent=group)
    i = words.index("--matching")
    with pytest.raises(click.BadParameter):
        command.make_context(words[1], words[2:i + 1] + ["closest"] + words[i + 2:],
                             parent=group)
