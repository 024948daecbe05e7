"""The README's two commands are the ones CI runs, and docs/architecture.md lists every
package of the library (one line each, as ``workflow/scripts/readme_modules.py`` prints
them)."""

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _readme() -> str:
    return (REPO / "README.md").read_text(encoding="utf-8")


def _architecture() -> str:
    return (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")


def test_every_package_is_listed_in_the_architecture_page() -> None:
    listed = re.findall(r"^- `(mwzrepro/(?:[\w/]*/)?)` — ", _architecture(), flags=re.M)
    packages = {p.parent.relative_to(REPO / "src").as_posix() + "/"
                for p in (REPO / "src/mwzrepro").rglob("__init__.py")}
    assert set(listed) == packages
    assert len(listed) == len(set(listed)), "a package is listed twice"


def test_package_lines_are_the_generated_ones() -> None:
    out = subprocess.run([sys.executable, str(REPO / "workflow/scripts/readme_modules.py")],
                         capture_output=True, text=True, check=True).stdout.split("\n")
    page_lines = set(_architecture().split("\n"))
    stale = [line for line in out if line and line not in page_lines]
    assert not stale, ("docs/architecture.md package lines differ from readme_modules.py:\n" +
                       "\n".join(stale))


def test_two_commands_and_ci_agree() -> None:
    readme = _readme()
    tables = "MWZREPRO_MIRROR=../shared/mirror make tables"
    test = "MWZREPRO_MIRROR=../shared/mirror make test"
    assert tables in readme and test in readme
    assert test in (REPO / ".ci/run").read_text(encoding="utf-8")
