"""The import graph of the ``mwzrepro`` package, read from its source (AST; nothing is
executed): which package modules each module imports, at load time or inside functions, and,
for CLI modules, which top-level names each definition references and which run at load.
The facts :mod:`code_deps` turns into each pipeline step's code dependencies.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

PACKAGE = "mwzrepro"
CLI = f"{PACKAGE}.cli"

__all__ = ["Module", "Package", "load_closure", "file_graph", "cycles", "PACKAGE", "CLI"]


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


# --- the whole-file graph -------------------------------------------------------------------


def file_graph(pkg: Package) -> dict[str, set[str]]:
    """``{module: package modules it names}`` over every import statement of each file:
    module level, inside functions and under ``if TYPE_CHECKING:`` alike (the graph in which
    the layout allows no cycle: docs/architecture.md, "Area order"). A ``from package import
    name`` binding a module counts as that module, else as the package."""
    graph: dict[str, set[str]] = {}
    for name, mod in pkg.modules.items():
        out = graph.setdefault(name, set())
        for node in ast.walk(mod.tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                out.update(t for _, t, _ in pkg._targets(mod, node) if t != name)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of ``graph``: each strongly connected component of more than one
    module (Tarjan's algorithm via networkx), as a sorted module list; sorted.

    >>> cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}})
    [['a', 'b']]
    """
    import networkx as nx

    g = nx.DiGraph()
    g.add_nodes_from(graph)
    g.add_edges_from((a, b) for a, targets in graph.items() for b in targets)
    return sorted(sorted(c) for c in nx.strongly_connected_components(g) if len(c) > 1)
