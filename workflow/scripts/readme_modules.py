"""Print the package list of docs/architecture.md: one line per package of src/mwzrepro (the
first sentence of its ``__init__`` docstring) followed by its modules. tests/unit/test_readme.py
checks that docs/architecture.md lists exactly these packages.

Usage: python workflow/scripts/readme_modules.py
"""

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "mwzrepro"


def first_sentence(path: Path) -> str:
    """The first sentence of ``path``'s module docstring, on one line."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    first = " ".join(doc.split("\n\n")[0].split())
    return first.split(". ")[0].rstrip(".")


def lines() -> list[str]:
    """``- `mwzrepro/<pkg>/` — <summary> (<modules>)`` for every package."""
    out = []
    for init in sorted(SRC.rglob("__init__.py")):
        pkg = init.parent
        rel = pkg.relative_to(SRC.parent).as_posix() + "/"
        modules = sorted(p.stem for p in pkg.glob("*.py") if p.name != "__init__.py")
        subpackages = sorted(p.parent.name + "/" for p in pkg.glob("*/__init__.py"))
        parts = ", ".join(modules + subpackages)
        out.append(f"- `{rel}` — {first_sentence(init)}" + (f" ({parts})" if parts else ""))
    return out


if __name__ == "__main__":
    print("\n".join(lines()))
