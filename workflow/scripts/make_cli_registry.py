"""Regenerate the subcommand table of ``src/mwzrepro/cli/__init__.py`` (maintainer tool).

Usage: python workflow/scripts/make_cli_registry.py [--check]

Imports every ``mwzrepro.cli.<module>`` that defines ``COMMANDS`` (a list of click commands)
and writes ``{subcommand: "module:attribute"}`` between the ``# BEGIN COMMANDS`` and
``# END COMMANDS`` lines, sorted by subcommand, followed by ``GROUPS`` (``{subcommand:
group}``, the sections of ``mwzrepro --help``) from each module's optional ``HELP_GROUPS``
(``{group: [commands]}``); a command no module puts in a group is a pipeline step.
``--check`` only reports whether the table is current (exit 1 if not). Run it after adding,
renaming or moving a command.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
INIT = ROOT / "src" / "mwzrepro" / "cli" / "__init__.py"
BLOCK = re.compile(r"(# BEGIN COMMANDS[^\n]*\n)(.*?)(# END COMMANDS)", re.DOTALL)


def cli_modules() -> Iterator[ModuleType]:
    """Every ``mwzrepro.cli.<module>``, imported, in name order."""
    import mwzrepro.cli as pkg

    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name):
        yield importlib.import_module(f"mwzrepro.cli.{info.name}")


def discover() -> dict[str, str]:
    """``{subcommand: "module:attribute"}`` from the ``COMMANDS`` list of every cli module.

    Raises:
        ValueError: a subcommand is defined twice, or a listed command is not a module-level
            attribute of its module.
    """
    found: dict[str, str] = {}
    for module in cli_modules():
        for command in getattr(module, "COMMANDS", []):
            attrs = [a for a, v in vars(module).items() if v is command and a != "COMMANDS"]
            if not attrs:
                raise ValueError(f"{module.__name__}: command {command.name!r} is not a "
                                 "module-level attribute")
            if command.name in found:
                raise ValueError(f"subcommand {command.name!r} defined in {found[command.name]} "
                                 f"and {module.__name__}")
            found[command.name] = f"{module.__name__}:{sorted(attrs)[0]}"
    return dict(sorted(found.items()))


def discover_groups() -> dict[str, str]:
    """``{subcommand: group}`` from every cli module's ``HELP_GROUPS`` (``{group:
    [commands]}``); commands in no group (the pipeline steps) are left out.

    Raises:
        ValueError: a group that is not a section of ``mwzrepro --help`` other than
            ``pipeline`` (``mwzrepro.cli.SECTIONS``), or a command in two groups.
    """
    from mwzrepro.cli import SECTIONS

    known = set(SECTIONS) - {"pipeline"}
    found: dict[str, str] = {}
    for module in cli_modules():
        for group, commands in getattr(module, "HELP_GROUPS", {}).items():
            if group not in known:
                raise ValueError(f"{module.__name__}: unknown help group {group!r}")
            for command in commands:
                if command.name in found:
                    raise ValueError(f"subcommand {command.name!r} is in two help groups")
                found[command.name] = group
    return dict(sorted(found.items()))


def render(table: dict[str, str], groups: dict[str, str]) -> str:
    """The Python text of the tables (the lines between the markers)."""
    lines = ["COMMANDS: dict[str, str] = {"]
    lines += [f'    "{name}": "{target}",' for name, target in table.items()]
    lines += ["}", "GROUPS: dict[str, str] = {"]
    lines += [f'    "{name}": "{group}",' for name, group in groups.items()]
    return "\n".join(lines) + "\n}\n"


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(ROOT / "src"))
    text = INIT.read_text(encoding="utf-8")
    match = BLOCK.search(text)
    if match is None:
        sys.exit(f"{INIT}: no '# BEGIN COMMANDS' ... '# END COMMANDS' block")
    new = text[:match.start(2)] + render(discover(), discover_groups()) + text[match.end(2):]
    from generated_file import write_or_check

    return write_or_check(INIT, new, "python workflow/scripts/make_cli_registry.py",
                          "--check" in argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
