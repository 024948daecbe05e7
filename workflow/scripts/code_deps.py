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
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

PACKAGE = "mwzrepro"
CLI = f"{PACKAGE}.cli"
#: Where the console script starts (``mwzrepro = "mwzrepro.cli:main"`` in pyproject.toml).
ENTRY = (CLI, "main")

__all__ = ["code_deps", "load_closure", "registry", "Package", "PACKAGE", "CLI"]


@dataclass
class Module:
    """One source file of the package, parsed and scanned once (:func:`_scan`)."""

    name: str
    path: Path
    is_package: bool
    tree: ast.Module
    #: Top-level definitions and assignments: name -> index of the statement in the body.
    toplevel: dict[str, int] = field(default_factory=dict)
    #: Import statements that run: (statement, inside a function body?, top-level index).
    imports: list[tuple[ast.Import | ast.ImportFrom, bool, int]] = field(default_factory=list)
    #: Names referenced in each top-level statement (decorators and bodies included).
    refs: dict[int, set[str]] = field(default_factory=dict)
    #: Names called while the module loads (module-level calls, decorators).
    called: set[str] = field(default_factory=set)
    #: Names bound by import statements anywhere in the module: name -> [(module, attr)].
    bindings: dict[str, list[tuple[str, str | None]]] = field(default_factory=dict)

    @property
    def is_cli(self) -> bool:
        return self.name == CLI or self.name.startswith(CLI + ".")


def _is_type_checking(node: ast.AST) -> bool:
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and (
        (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
        or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"))


_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _scan_statements(mod: Module) -> None:
    """The import statements of a library module (imports are statements: only statement
    bodies are searched), flagged when inside a function body."""

    def visit(stmts: list[ast.stmt], in_def: bool, top: int) -> None:
        for stmt in stmts:
            if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                mod.imports.append((stmt, in_def, top))
                continue
            if _is_type_checking(stmt):
                visit(stmt.orelse, in_def, top)
                continue
            inner = in_def or isinstance(stmt, _DEFS)
            for name in ("body", "orelse", "finalbody"):
                block = getattr(stmt, name, None)
                if isinstance(block, list):
                    visit(block, inner, top)
            for part in [*getattr(stmt, "handlers", []), *getattr(stmt, "cases", [])]:
                visit(part.body, inner, top)

    for index, stmt in enumerate(mod.tree.body):
        _index_toplevel(mod, index, stmt)
        visit([stmt], False, index)


def _index_toplevel(mod: Module, index: int, stmt: ast.stmt) -> None:
    mod.refs[index] = set()
    if isinstance(stmt, (*_DEFS, ast.ClassDef)):
        mod.toplevel[stmt.name] = index
    elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
        for target in stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]:
            for n in ast.walk(target):
                if isinstance(n, ast.Name):
                    mod.toplevel[n.id] = index


def _scan(mod: Module) -> None:
    """One pass over a CLI module: its top-level names, the import statements that can run
    (not under ``if TYPE_CHECKING:``; flagged when inside a function or lambda body, which runs
    only when called), the names each top-level statement references, and the names called
    while the module loads (module-level calls, decorators; their arguments and default
    values run at load too). Library modules only need their imports
    (:func:`_scan_statements`)."""

    def visit(node: ast.AST, in_def: bool, top: int) -> None:
        if _is_type_checking(node):
            for sub in node.orelse:
                visit(sub, in_def, top)
            return
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            mod.imports.append((node, in_def, top))
            return
        if isinstance(node, ast.Name):
            mod.refs[top].add(node.id)
            return
        if isinstance(node, ast.Call) and not in_def and isinstance(node.func, ast.Name):
            mod.called.add(node.func.id)
        if isinstance(node, (*_DEFS, ast.Lambda, ast.ClassDef)):
            for dec in getattr(node, "decorator_list", []):
                if isinstance(dec, ast.Name) and not in_def:
                    mod.called.add(dec.id)
                visit(dec, in_def, top)
            if isinstance(node, ast.ClassDef):
                for base in [*node.bases, *node.keywords]:
                    visit(base, in_def, top)
                for stmt in node.body:
                    visit(stmt, in_def, top)
                return
            args = node.args
            for default in [*args.defaults, *(d for d in args.kw_defaults if d is not None)]:
                visit(default, in_def, top)
            for stmt in node.body if isinstance(node, _DEFS) else [node.body]:
                visit(stmt, True, top)
            return
        for child in ast.iter_child_nodes(node):
            visit(child, in_def, top)

    for index, stmt in enumerate(mod.tree.body):
        _index_toplevel(mod, index, stmt)
        visit(stmt, False, index)


class Package:
    """The parsed source tree of ``mwzrepro`` under ``src_root`` (the directory holding
    ``mwzrepro/``)."""

    def __init__(self, src_root: str | Path) -> None:
        self.src_root = Path(src_root)
        self.modules: dict[str, Module] = {}
        #: Package modules imported but missing: name -> "file:line" of the first import.
        self.broken: dict[str, str] = {}
        self._targets_cache: dict[int, list[tuple[str, str, str | None]]] = {}
        for path in sorted((self.src_root / PACKAGE).rglob("*.py")):
            parts = path.relative_to(self.src_root).with_suffix("").parts
            is_pkg = parts[-1] == "__init__"
            name = ".".join(parts[:-1] if is_pkg else parts)
            tree = ast.parse(path.read_bytes(), filename=str(path))
            self.modules[name] = Module(name, path, is_pkg, tree)
        for mod in self.modules.values():
            (_scan if mod.is_cli else _scan_statements)(mod)
        for mod in self.modules.values():
            for node, _in_def, _top in mod.imports:
                for bound, target, attr in self._targets(mod, node):
                    mod.bindings.setdefault(bound, []).append((target, attr))

    # --- import resolution --------------------------------------------------------------

    def _targets(self, mod: Module,
                 node: ast.Import | ast.ImportFrom) -> list[tuple[str, str, str | None]]:
        """``(bound name, module, attribute or None)`` for each name an import binds, for
        imports of the package only. A package module that does not exist (a broken import)
        is recorded in :attr:`broken` and raises ValueError when a closure reaches it."""
        key = id(node)
        if key in self._targets_cache:
            return self._targets_cache[key]
        out: list[tuple[str, str, str | None]] = []
        self._targets_cache[key] = out
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == PACKAGE or alias.name.startswith(PACKAGE + "."):
                    self._check(alias.name, mod, node)
                    out.append((alias.asname or alias.name.split(".")[0], alias.name, None))
            return out
        if node.level:
            base = mod.name.split(".")
            if not mod.is_package:
                base = base[:-1]
            base = base[: len(base) - (node.level - 1)]
            source = ".".join(base + ([node.module] if node.module else []))
        else:
            source = node.module or ""
        if not (source == PACKAGE or source.startswith(PACKAGE + ".")):
            return out
        self._check(source, mod, node)
        for alias in node.names:
            bound = alias.asname or alias.name
            sub = f"{source}.{alias.name}"
            if sub in self.modules:
                out.append((bound, sub, None))
            elif source in self.modules and not self._defines(source, alias.name):
                self.broken.setdefault(sub, f"{mod.path}:{node.lineno}")
                out.append((bound, sub, None))
            else:
                out.append((bound, source, alias.name))
        return out

    def _defines(self, name: str, attr: str) -> bool:
        """Whether module ``name`` binds ``attr`` at top level (or may: ``*`` imports,
        module ``__getattr__``, conditional definitions)."""
        mod = self.modules[name]
        if attr == "*" or attr in mod.toplevel or "__getattr__" in mod.toplevel:
            return True
        for node in mod.tree.body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                if any((a.asname or a.name.split(".")[0]) in (attr, "*") for a in node.names):
                    return True
            elif not isinstance(node, (*_DEFS, ast.ClassDef, ast.Assign, ast.AnnAssign,
                                       ast.Expr)):
                if any(isinstance(n, ast.Name) and n.id == attr for n in ast.walk(node)):
                    return True
        return False

    def _check(self, name: str, mod: Module, node: ast.AST) -> None:
        if name not in self.modules:
            self.broken.setdefault(name, f"{mod.path}:{node.lineno}")

    def module(self, name: str) -> Module:
        """The parsed module ``name``. Raises ValueError for a module that does not exist
        (naming the import that asked for it)."""
        if name not in self.modules:
            where = self.broken.get(name, "?")
            raise ValueError(f"{where}: imports {name}, which is not a module of "
                             f"{self.src_root / PACKAGE}")
        return self.modules[name]

    def imports(self, name: str, at_load: bool, top: int | None = None) -> set[str]:
        """Package modules imported by module ``name``: by the statements that run when it
        loads (``at_load``) or by all of them; ``top`` restricts to one top-level statement."""
        mod = self.module(name)
        out: set[str] = set()
        for node, in_def, index in mod.imports:
            if (at_load and in_def) or (top is not None and index != top):
                continue
            out.update(t for _, t, _ in self._targets(mod, node))
        return out

    def parents(self, name: str) -> list[str]:
        """The packages a module's import loads first: ``mwzrepro.core.io`` ->
        ``["mwzrepro", "mwzrepro.core"]``."""
        parts = name.split(".")
        return [".".join(parts[:i]) for i in range(1, len(parts))]

    def path(self, name: str) -> Path:
        return self.modules[name].path


# --- closures -------------------------------------------------------------------------------


def load_closure(pkg: Package, roots: Iterable[str]) -> set[str]:
    """Modules loaded by importing ``roots``: module-level imports only, transitively, with
    parent packages (what ``sys.modules`` gains)."""
    seen: set[str] = set()
    stack = list(roots)
    while stack:
        name = stack.pop()
        for m in [*pkg.parents(name), name]:
            if m not in seen:
                seen.add(m)
                stack.extend(pkg.imports(m, at_load=True))
    return seen


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
    """SHA-1 over every package source file's path and bytes: the cache key of
    :func:`code_deps` (any edit, addition or removal changes it)."""
    digest = hashlib.sha1(usedforsecurity=False)
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
