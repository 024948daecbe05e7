"""The package layout of design.md holds: small modules, knowledge flowing one way.

* every module of ``src/mwzrepro`` has at most 350 lines;
* no docstring or comment of ``src/`` cites an issue number (a reader of the code cannot open
  the tracker: cite ``docs/specification.md`` sections or the module's own addendum);
* the library never imports the CLI, Snakemake or DVC;
* ``core`` imports no area package (areas build on core, never the reverse).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "mwzrepro"
MODULES = sorted(SRC.rglob("*.py"))
AREAS = {"prepare", "bleu", "standard", "dst", "consistency", "unseen", "stats", "paper",
         "scorer"}


def _imports(path: Path) -> set[str]:
    """Every module named by an import statement of ``path`` (any depth)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def _rel(path: Path) -> str:
    return path.relative_to(SRC.parent).as_posix()


#: Most lines of a module (design.md, "Target layout").
MAX_LINES = 350
#: A citation of the tracker: "issue 27", "issues 18 and 28", "Issue 27's".
ISSUE_CITATION = re.compile(r"\bissues? \d+", re.IGNORECASE)


@pytest.mark.parametrize("path", MODULES, ids=_rel)
def test_module_has_at_most_350_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{_rel(path)} has {lines} lines"


def issue_citations(text: str) -> list[str]:
    """``"line N: <text>"`` for each line of ``text`` that cites an issue number."""
    return [f"line {n}: {line.strip()}" for n, line in enumerate(text.splitlines(), 1)
            if ISSUE_CITATION.search(line)]


@pytest.mark.parametrize("path", MODULES, ids=_rel)
def test_no_docstring_cites_an_issue(path: Path) -> None:
    found = issue_citations(path.read_text(encoding="utf-8"))
    assert not found, f"{_rel(path)} cites the tracker:\n" + "\n".join(found)


@pytest.mark.parametrize("path", [p for p in MODULES if "cli" not in p.parts], ids=_rel)
def test_library_never_imports_cli_snakemake_or_dvc(path: Path) -> None:
    bad = {m for m in _imports(path)
           if m.startswith(("mwzrepro.cli", "snakemake", "dvc"))}
    assert not bad, f"{_rel(path)} imports {sorted(bad)}"


@pytest.mark.parametrize("path", sorted((SRC / "core").rglob("*.py")), ids=_rel)
def test_core_imports_no_area(path: Path) -> None:
    bad = {m for m in _imports(path)
           if m.startswith("mwzrepro.") and m.split(".")[1] in AREAS}
    assert not bad, f"{_rel(path)} imports {sorted(bad)}"


def test_the_layout_checks_can_fail(tmp_path: Path) -> None:
    """The import scan sees imports inside functions too (a lazy import still counts); the
    citation scan finds each form of an issue citation and nothing else."""
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from mwzrepro.cli import main\n")
    assert _imports(module) == {"mwzrepro.cli"}
    text = ('"""Rule (issue 27).\nIssues 18 and 28 say so.\n'
            'spec-standard-evaluation §9; tissue 3; reissue\n"""')
    assert issue_citations(text) == ["line 1: \"\"\"Rule (issue 27).",
                                     "line 2: Issues 18 and 28 say so."]
