"""Code dependencies are derived from the import graph (workflow/scripts/code_deps.py), never
listed: every step's code inputs equal the closure of its command; the static analysis agrees
with what a real process loads; and its rules hold on a hand-checkable package."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.workflow.dags import REPO, SCRIPTS

sys.path.insert(0, str(SCRIPTS))
from code_deps import CLI, Package, code_deps, load_closure, registry, run_closure  # noqa: E402


#: The one job that runs no mwzrepro command: it writes the code-dependency listings
#: (workflow/scripts/code_digest.py) from the union of the closures.
DIGESTS = "code_digests"


def _command(job: dict) -> str:
    words = job["shellcmd"].split()
    assert words[0] == "mwzrepro", f"{job['rule']}: runs {words[0]!r}, not mwzrepro"
    return words[1]


def test_every_step_runs_one_mwzrepro_command(jobs):
    commands = {_command(j) for j in jobs if j["rule"] != DIGESTS}
    assert commands <= set(registry(REPO / "src"))


def test_code_inputs_equal_the_import_closure(jobs, workspace):
    """(a) For every job: its inputs under src/ are exactly code_deps(<its command>), and the
    listings' job reads the union of the closures and writes one listing per command."""
    bad = []
    digests = next(j for j in jobs if j["rule"] == DIGESTS)
    commands = set()
    for job in jobs:
        if job["rule"] == DIGESTS:
            continue
        command = _command(job)
        commands.add(command)
        command = _command(job)
        code = sorted(i for i in job["input"] if i.startswith("src/") and i.endswith(".py"))
        expected = sorted(Path(p).relative_to(workspace).as_posix()
                          for p in code_deps(command, workspace / "src"))
        if code != expected:
            bad.append(f"{job['rule']} ({command}): only inputs {sorted(set(code) - set(expected))}"
                       f", only closure {sorted(set(expected) - set(code))}")
    union = {Path(p).relative_to(workspace).as_posix()
             for c in commands for p in code_deps(c, workspace / "src")}
    assert {i for i in digests["input"] if i.startswith("src/")} == union
    assert sorted(digests["output"]) == sorted(f"data/code-deps/{c}.sha1" for c in commands)
    assert not bad, "\n".join(bad)


_PROBE = """
import json, sys
from mwzrepro.cli import load_command
out = {}
for name in json.loads(sys.argv[1]):
    for m in [m for m in sys.modules if m.startswith("mwzrepro.")]:
        del sys.modules[m]
    load_command(name)
    out[name] = sorted(m for m in sys.modules if m == "mwzrepro" or m.startswith("mwzrepro."))
print(json.dumps(out))
"""


def test_static_load_closure_equals_a_real_import():
    """(b) For every subcommand: the modules a process holds after loading the command the way
    the CLI does (``load_command``) are exactly the static module-level closure of
    ``mwzrepro.cli`` and the command's module; the step's code deps contain them."""
    table = registry(REPO / "src")
    proc = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(sorted(table))],
                          capture_output=True, text=True, cwd=REPO,
                          env={"PYTHONPATH": str(REPO / "src"), "PATH": ""})
    assert proc.returncode == 0, proc.stderr[-3000:]
    loaded = json.loads(proc.stdout)
    pkg = Package(REPO / "src")
    bad = []
    for name, target in sorted(table.items()):
        static = load_closure(pkg, [CLI, target.split(":")[0]])
        if set(loaded[name]) != static:
            bad.append(f"{name}: only loaded {sorted(set(loaded[name]) - static)}, only static "
                       f"{sorted(static - set(loaded[name]))}")
        missing = static - run_closure(name, REPO / "src")
        if missing:
            bad.append(f"{name}: loaded at import but not a code dependency: {sorted(missing)}")
    assert not bad, "\n".join(bad)


# --- the rules of the analysis on a small package -------------------------------------------

FILES = {
    "mwzrepro/__init__.py": "",
    "mwzrepro/cli/__init__.py": """
        COMMANDS = {"a": "mwzrepro.cli.cmds:a", "b": "mwzrepro.cli.cmds:b"}
        def main():
            from mwzrepro.core.errors import Error
        """,
    "mwzrepro/cli/cmds.py": """
        from mwzrepro.cli.helpers import opt

        @opt
        def a():
            from mwzrepro.lib import x
            helper()

        def b():
            from mwzrepro.lib.y import run

        def helper():
            from mwzrepro.lib import z

        COMMANDS = [a, b]
        """,
    "mwzrepro/cli/helpers.py": """
        def opt(f):
            from mwzrepro.lib import w
            return f

        def unused():
            from mwzrepro.lib import never
        """,
    "mwzrepro/core/__init__.py": "",
    "mwzrepro/core/errors.py": "class Error(Exception): ...",
    "mwzrepro/lib/__init__.py": "",
    "mwzrepro/lib/x.py": "from . import base",
    "mwzrepro/lib/y.py": "def run(): ...",
    "mwzrepro/lib/z.py": "",
    "mwzrepro/lib/w.py": "",
    "mwzrepro/lib/never.py": "",
    "mwzrepro/lib/typed.py": "",
    "mwzrepro/lib/lazy.py": "",
    "mwzrepro/lib/base.py": """
        from typing import TYPE_CHECKING
        import pandas
        if TYPE_CHECKING:
            from mwzrepro.lib import typed
        def later():
            from mwzrepro.lib import lazy
        """,
}


@pytest.fixture
def tiny(tmp_path):
    for rel, text in FILES.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return tmp_path


def test_rules_of_the_analysis(tiny):
    """Per command in CLI modules (decorators run at import, helpers the command calls),
    whole modules in the library (deferred imports included), parent packages included,
    TYPE_CHECKING imports and third-party modules excluded."""
    common = {"mwzrepro", "mwzrepro.cli", "mwzrepro.cli.cmds", "mwzrepro.cli.helpers",
              "mwzrepro.core", "mwzrepro.core.errors", "mwzrepro.lib", "mwzrepro.lib.w"}
    assert run_closure("a", tiny) == common | {"mwzrepro.lib.x", "mwzrepro.lib.base",
                                               "mwzrepro.lib.lazy", "mwzrepro.lib.z"}
    assert run_closure("b", tiny) == common | {"mwzrepro.lib.y"}
    assert code_deps("b", tiny)[-1] == (tiny / "mwzrepro/lib/y.py").as_posix()
    assert load_closure(Package(tiny), [CLI, "mwzrepro.cli.cmds"]) == {
        "mwzrepro", "mwzrepro.cli", "mwzrepro.cli.cmds", "mwzrepro.cli.helpers"}


def test_a_broken_import_is_named(tiny):
    (tiny / "mwzrepro/lib/y.py").write_text("from mwzrepro.lib import gone\n")
    with pytest.raises(ValueError, match=r"y.py:1: imports mwzrepro.lib.gone"):
        run_closure("b", tiny)


def test_a_listing_changes_exactly_with_its_closure(tiny, tmp_path):
    """The code listing of a command (workflow/scripts/code_digest.py, what each DVC stage
    depends on) changes when a file of its closure changes, and only then."""
    from code_digest import write_listings

    out = tmp_path / "listings"
    write_listings(["a", "b"], out, str(tiny))
    before = {p.name: p.read_text() for p in out.iterdir()}
    assert sorted(before) == ["a.sha1", "b.sha1"]
    line = before["b.sha1"].splitlines()[-1]
    assert line.split("  ") == [hashlib.sha1(b"def run(): ...").hexdigest(),
                                (tiny / "mwzrepro/lib/y.py").as_posix()]
    (tiny / "mwzrepro/lib/y.py").write_text("def run(): return 1\n")  # b loads y, a does not
    assert write_listings(["a", "b"], out, str(tiny)) == [out / "b.sha1"]
    (tiny / "mwzrepro/lib/z.py").write_text("X = 1\n")  # a's helper loads z, b does not
    assert write_listings(["a", "b"], out, str(tiny)) == [out / "a.sha1"]
    assert write_listings(["a", "b"], out, str(tiny)) == []
