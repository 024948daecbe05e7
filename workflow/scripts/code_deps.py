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
    """One source file of the package, parsed."""

    name: str
    path: Path
    is_package: bool
    tree: ast.Module
    #: Top-level definitions and assignments: name -> node (def, class or assignment).
    toplevel: dict[str, ast.AST] = field(default_factory=dict)
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


def _walk(node: ast.AST, into_defs: bool) -> Iterable[ast.AST]:
    """Nodes under ``node`` (not ``node`` itself) that run when it runs: ``if TYPE_CHECKING``
    bodies are skipped; function and lambda bodies only with ``into_defs`` (their decorators,
    default values and annotations-free signatures always run)."""
    for child in ast.iter_child_nodes(node):
        if _is_type_checking(child):
            for sub in child.orelse:
                yield sub
                yield from _walk(sub, into_defs)
            continue
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) and not into_defs:
            for expr in [*child.decorator_list, *child.args.defaults,
                         *(d for d in child.args.kw_defaults if d is not None)]:
                yield expr
                yield from _walk(expr, into_defs)
            continue
        if isinstance(child, ast.Lambda) and not into_defs:
            continue
        yield child
        yield from _walk(child, into_defs)


class Package:
    """The parsed source tree of ``mwzrepro`` under ``src_root`` (the directory holding
    ``mwzrepro/``)."""

    def __init__(self, src_root: str | Path) -> None:
        self.src_root = Path(src_root)
        self.modules: dict[str, Module] = {}
        #: Package modules imported but missing: name -> "file:line" of the first import.
        self.broken: dict[str, str] = {}
        for path in sorted((self.src_root / PACKAGE).rglob("*.py")):
            parts = path.relative_to(self.src_root).with_suffix("").parts
            is_pkg = parts[-1] == "__init__"
            name = ".".join(parts[:-1] if is_pkg else parts)
            tree = ast.parse(path.read_bytes(), filename=str(path))
            self.modules[name] = Module(name, path, is_pkg, tree)
        for mod in self.modules.values():
            self._index_toplevel(mod)
        for mod in self.modules.values():
            self._index_bindings(mod)

    # --- parsing ------------------------------------------------------------------------

    def _targets(self, mod: Module, node: ast.Import | ast.ImportFrom) -> list[tuple[str, str, str | None]]:
        """``(bound name, module, attribute or None)`` for each name an import binds, for
        imports of the package only. A package module that does not exist (a broken import)
        is recorded in :attr:`broken` and raises ValueError when a closure reaches it."""
        out = []
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == PACKAGE or alias.name.startswith(PACKAGE + "."):
                    self._check(alias.name, mod, node)
                    bound = alias.asname or alias.name.split(".")[0]
                    out.append((bound, alias.name if alias.asname else alias.name, None))
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
                continue
            if source in self.modules and not self._defines(source, alias.name):
                self.broken.setdefault(sub, f"{mod.path}:{node.lineno}")
                out.append((bound, sub, None))
                continue
            out.append((bound, source, alias.name))
        return out

    def _defines(self, name: str, attr: str) -> bool:
        """Whether module ``name`` binds ``attr`` at top level (or may: ``*`` imports,
        module ``__getattr__``)."""
        mod = self.modules[name]
        if attr == "*" or attr in mod.toplevel or "__getattr__" in mod.toplevel:
            return True
        for node in mod.tree.body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                if any((a.asname or a.name.split(".")[0]) in (attr, "*") for a in node.names):
                    return True
            elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                                       ast.Assign, ast.AnnAssign, ast.Expr)):
                # conditional or looped definitions: look inside
                if any(isinstance(n, (ast.Name,)) and n.id == attr
                       for n in ast.walk(node)):
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

    def _index_toplevel(self, mod: Module) -> None:
        for node in mod.tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                mod.toplevel[node.name] = node
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    for n in ast.walk(t):
                        if isinstance(n, ast.Name):
                            mod.toplevel[n.id] = node

    def _index_bindings(self, mod: Module) -> None:
        for node in _walk(mod.tree, into_defs=True):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for bound, target, attr in self._targets(mod, node):
                    mod.bindings.setdefault(bound, []).append((target, attr))

    def imports(self, name: str, into_defs: bool, node: ast.AST | None = None) -> set[str]:
        """Package modules imported by the statements of module ``name`` that run when the
        module is loaded (``into_defs=False``) or anywhere in it (``True``); ``node``
        restricts the search to one definition (including its body)."""
        mod = self.module(name)
        root = mod.tree if node is None else node
        nodes = list(_walk(root, into_defs))
        if node is not None:
            nodes.append(node)
        out = set()
        for n in nodes:
            if isinstance(n, (ast.Import, ast.ImportFrom)):
                out.update(t for _, t, _ in self._targets(mod, n))
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
                stack.extend(pkg.imports(m, into_defs=False))
    return seen


class _RunClosure:
    """Modules a process may load while running one command (see the module docstring)."""

    def __init__(self, pkg: Package) -> None:
        self.pkg = pkg
        self.modules: set[str] = set()
        self._defs: set[tuple[str, str]] = set()
        self._loaded: set[str] = set()

    def load(self, name: str) -> None:
        """Module ``name`` is imported (its parents first)."""
        for m in [*self.pkg.parents(name), name]:
            if m in self._loaded:
                continue
            self._loaded.add(m)
            self.modules.add(m)
            mod = self.pkg.module(m)
            if not mod.is_cli:
                for t in self.pkg.imports(m, into_defs=True):
                    self.load(t)
                continue
            for t in self.pkg.imports(m, into_defs=False):
                self.load(t)
            for called in _called_at_load(mod):
                self.use(m, called)

    def use(self, module: str, name: str) -> None:
        """Name ``name`` of module ``module`` is used (called, or passed on to be called)."""
        self.load(module)
        mod = self.pkg.module(module)
        if not mod.is_cli or (module, name) in self._defs:
            return
        self._defs.add((module, name))
        node = mod.toplevel.get(name)
        if node is None:
            for target, attr in mod.bindings.get(name, []):
                self.load(target)
                if attr is not None:
                    self.use(target, attr)
                elif self.pkg.module(target).is_cli:  # a CLI module object: any of its names
                    for other in self.pkg.module(target).toplevel:
                        self.use(target, other)
            return
        for t in self.pkg.imports(module, into_defs=True, node=node):
            self.load(t)
        for ref in _names(node):
            if ref != name and (ref in mod.toplevel or ref in mod.bindings):
                self.use(module, ref)


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _called_at_load(mod: Module) -> set[str]:
    """Names called while module ``mod`` loads: callees of calls in module-level code
    (including decorators and default values) and names used as decorators."""
    called = set()
    for node in _walk(mod.tree, into_defs=False):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            called.add(node.func.id)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            called.update(d.id for d in node.decorator_list if isinstance(d, ast.Name))
    for node in mod.tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            called.update(d.id for d in node.decorator_list if isinstance(d, ast.Name))
    return {c for c in called if c in mod.toplevel or c in mod.bindings}


# --- public API -----------------------------------------------------------------------------


@lru_cache(maxsize=8)
def _package(src_root: str) -> Package:
    return Package(src_root)


def registry(src_root: str | Path = "src") -> dict[str, str]:
    """The subcommand table ``COMMANDS`` of ``mwzrepro/cli/__init__.py``
    (``{subcommand: "module:attribute"}``), read from its AST."""
    mod = _package(str(src_root)).modules[CLI]
    node = mod.toplevel.get("COMMANDS")
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


def run_closure(command: str, src_root: str | Path = "src") -> set[str]:
    """Module names a ``mwzrepro <command>`` process may load."""
    pkg = _package(str(src_root))
    module, attr = command_target(command, src_root)
    closure = _RunClosure(pkg)
    closure.use(*ENTRY)
    closure.use(module, attr)
    return closure.modules


def code_deps(command: str, src_root: str | Path = "src") -> list[str]:
    """The source files (paths under ``src_root``, sorted, ``/``-separated) that
    ``mwzrepro <command>`` may load: the step's code inputs.

    Raises:
        KeyError: ``command`` is not a subcommand.
        ValueError: a package import names a module that does not exist.
    """
    pkg = _package(str(src_root))
    root = Path(src_root)
    return sorted(
        (root / pkg.path(m).relative_to(pkg.src_root)).as_posix()
        for m in run_closure(command, src_root)
    )


if __name__ == "__main__":
    for cmd in sys.argv[1:]:
        print(f"{cmd}:")
        for path in code_deps(cmd):
            print(f"  {path}")
