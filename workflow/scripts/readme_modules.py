"""Print the README's module list (one line per module of src/mwzrepro, from the first
sentence of its docstring). tests/unit/test_readme.py checks the README lists every module.

Usage: python workflow/scripts/readme_modules.py
"""

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "mwzrepro"


def lines() -> list[str]:
    out = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC.parent).as_posix()
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        first = " ".join(doc.split("\n\n")[0].split())
        first = first.split(". ")[0].rstrip(".")
        if len(first) > 140 and ": " in first:
            first = first.split(": ")[0]
        out.append(f"- `{rel}` — {first}")
    return out


if __name__ == "__main__":
    print("\n".join(lines()))
