"""Code dependencies of a pipeline step, derived from the import graph (never listed by hand).

A step runs one ``mwzrepro <subcommand>``; its code dependencies are the package source files
that process may load. They are computed statically from ``src/mwzrepro`` (the AST, no code
is executed), starting from the console entry point (``mwzrepro.cli.main``) and the
subcommand's ``module:attribute`` in the table ``COMMANDS`` of ``mwzrepro/cli/__init__.py``:

* **CLI modules** (``mwzrepro.cli.*``) are followed per function, because one CLI module holds
  several commands whose library imports are deferred into the command bodies: loading the
  module runs its module-level imports and the functions called at import time (decorators,
  option builders); running the command adds the imports inside the command function and
  inside every function or value of a CLI module it references, transitively.
* **Library modules** are followed whole: every import they contain, at module level or
  inside a function, transitively (a module's deferred imports count as soon as the module
  is loaded; a safe over-approximation).
* Importing a module loads its parent packages (``__init__.py``) first; they count too.
* Imports under ``if TYPE_CHECKING:`` are never executed and do not count; imports outside
  ``mwzrepro`` (pandas, click, ...) are the software environment, not code dependencies.

Both the Snakefile (``workflow/rules/common.smk``: ``code=code_deps("score-bleu")``) and the
generated ``dvc.yaml`` (whose deps are the Snakemake jobs' inputs) use this one function.
:func:`load_closure` gives what merely importing modules loads (module-level imports only),
which ``tests/workflow/test_code_deps.py`` compares with ``sys.modules`` of a real process.

Usage: ``python workflow/scripts/code_deps.py SUBCOMMAND...`` prints the files.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import sys
from functools import lru_cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from import_graph import CLI, PACKAGE, Package, load_closure  # noqa: E402

#: Where the console script starts (``mwzrepro = "mwzrepro.cli:main"`` in pyproject.toml).
ENTRY = (CLI, "main")

__all__ = ["code_deps", "run_closure", "load_closure", "registry", "Package", "CLI"]


class _RunClosure:
    """Modules a process may load while running one command (see the module docstring)."""

    def __init__(self, pkg: Package) -> None:
        self.pkg = pkg
        self.modules: set[str] = set()
        self._used: set[tuple[str, str]] = set()

    def load(self, name: str) -> None:
        """Module ``name`` is imported (its parents first)."""
        for m in [*self.pkg.parents(name), name]:
            if m in self.modules:
                continue
            self.modules.add(m)
            mod = self.pkg.module(m)
            for t in self.pkg.imports(m, at_load=mod.is_cli):
                self.load(t)
            if mod.is_cli:
                for called in mod.called:
                    if called in mod.toplevel or called in mod.bindings:
                        self.use(m, called)

    def use(self, module: str, name: str) -> None:
        """Name ``name`` of module ``module`` is used (called, or passed on to be called)."""
        self.load(module)
        mod = self.pkg.module(module)
        if not mod.is_cli or (module, name) in self._used:
            return
        self._used.add((module, name))
        top = mod.toplevel.get(name)
        if top is None:
            for target, attr in mod.bindings.get(name, []):
                self.load(target)
                if attr is not None:
                    self.use(target, attr)
                elif self.pkg.module(target).is_cli:  # a CLI module object: any of its names
                    for other in self.pkg.module(target).toplevel:
                        self.use(target, other)
            return
        for t in self.pkg.imports(module, at_load=False, top=top):
            self.load(t)
        for ref in mod.refs[top]:
            if ref != name and (ref in mod.toplevel or ref in mod.bindings):
                self.use(module, ref)


# --- public API -----------------------------------------------------------------------------


@lru_cache(maxsize=8)
def _package(src_root: str) -> Package:
    return Package(src_root)


def registry(src_root: str | Path = "src") -> dict[str, str]:
    """The subcommand table ``COMMANDS`` of ``mwzrepro/cli/__init__.py``
    (``{subcommand: "module:attribute"}``), read from its AST."""
    mod = _package(str(src_root)).modules[CLI]
    index = mod.toplevel.get("COMMANDS")
    node = mod.tree.body[index] if index is not None else None
    if not isinstance(node, (ast.Assign, ast.AnnAssign)) or node.value is None:
        raise ValueError(f"{mod.path}: no COMMANDS table")
    return ast.literal_eval(node.value)


def command_target(command: str, src_root: str | Path = "src") -> tuple[str, str]:
    """``(module, attribute)`` of a subcommand. Raises KeyError naming the subcommand."""
    table = registry(src_root)
    if command not in table:
        raise KeyError(f"no mwzrepro subcommand {command!r} in {CLI}.COMMANDS")
    module, attr = table[command].split(":")
    return module, attr


@lru_cache(maxsize=256)
def _run_closure(command: str, src_root: str) -> frozenset[str]:
    pkg = _package(src_root)
    module, attr = command_target(command, src_root)
    closure = _RunClosure(pkg)
    closure.use(*ENTRY)
    closure.use(module, attr)
    return frozenset(closure.modules)


def run_closure(command: str, src_root: str | Path = "src") -> set[str]:
    """Module names a ``mwzrepro <command>`` process may load."""
    return set(_run_closure(command, str(src_root)))


def source_key(src_root: str | Path = "src") -> str:
    """SHA-1 over every package source file's path and bytes, and over this analysis' own
    code: the cache key of :func:`code_deps` (any edit, addition or removal changes it)."""
    digest = hashlib.sha1(usedforsecurity=False)
    here = Path(__file__).resolve().parent
    for own in ("code_deps.py", "import_graph.py"):
        digest.update((here / own).read_bytes() + b"\0")
    root = Path(src_root)
    for path in sorted((root / PACKAGE).rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


@lru_cache(maxsize=8)
def _cached(src_root: str, cache: str) -> dict[str, list[str]]:
    """Every subcommand's code deps, from ``cache`` when its key is current, else computed
    (all at once) and written there."""
    key = source_key(src_root)
    path = Path(cache)
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
        if stored.get("key") == key and stored.get("src_root") == src_root:
            return stored["deps"]
    except (OSError, ValueError, AttributeError):
        pass
    deps = {}
    for command in registry(src_root):
        try:
            deps[command] = code_deps(command, src_root)
        except ValueError:  # a broken import: raised when a rule asks for this command
            continue
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}")
        tmp.write_text(json.dumps({"key": key, "src_root": src_root, "deps": deps}),
                       encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass
    return deps


def code_deps(command: str, src_root: str | Path = "src", cache: str | Path | None = None
              ) -> list[str]:
    """The source files (paths under ``src_root``, sorted, ``/``-separated) that
    ``mwzrepro <command>`` may load: the step's code inputs.

    With ``cache`` (a JSON file, e.g. under ``.snakemake/``), the answers for every
    subcommand are stored there under :func:`source_key` and reused while no source file
    changes (parsing the package is most of the cost of loading the workflow).

    Raises:
        KeyError: ``command`` is not a subcommand.
        ValueError: a package import names a module that does not exist.
    """
    if cache is not None:
        deps = _cached(str(src_root), str(cache))
        if command in deps:
            return list(deps[command])
    pkg = _package(str(src_root))
    root = Path(src_root)
    return sorted(
        (root / pkg.path(m).relative_to(pkg.src_root)).as_posix()
        for m in _run_closure(command, str(src_root))
    )


if __name__ == "__main__":
    for cmd in sys.argv[1:]:
        print(f"{cmd}:")
        for path in code_deps(cmd):
            print(f"  {path}")
