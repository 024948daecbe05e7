"""The README stays true: it names every module of the package and the two commands."""

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_every_module_is_listed_in_the_architecture_section() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^- `(mwzrepro/[\w/]+\.py)` — ", readme, flags=re.M))
    modules = {p.relative_to(REPO / "src").as_posix()
               for p in (REPO / "src/mwzrepro").rglob("*.py")}
    assert modules - listed == set(), "modules missing from README"
    assert listed - modules == set(), "README lists modules that do not exist"


def test_two_commands_and_ci_agree() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "make tables" in readme and "make test" in readme
    assert "make test" in (REPO / ".ci/run").read_text(encoding="utf-8")
