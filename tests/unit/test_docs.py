"""The docs stay true (issue 30): every relative link of README.md and docs/*.md resolves;
every ``mwzrepro <command>`` and option they show exists; every ``make`` target they name
exists; every "spec §" reference in the code, help texts and docs has its section in
docs/specification.md; the README stays a front door (at most 250 lines, every docs page
linked)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DOCS = sorted((REPO / "docs").glob("*.md"))
PAGES = [REPO / "README.md", REPO / "CHANGELOG.md", *DOCS]

#: ``spec-<document> §<section>`` or, in a file that names one document, ``spec §<section>``;
#: ranges ``§6-7``, ``§4.1–4.2``; ``Part B, §11``.
SPEC_REF = re.compile(r"\b(spec(?:-[a-z]+)*)(?:\s+Part\s+[AB])?,?\s*§\s*(\d+(?:\.\d+)*)"
                      r"(?:\s*[-–]\s*(\d+(?:\.\d+)*))?")
SPEC_DOC = re.compile(r"spec-(standard-evaluation|dst-metrics|annotation-consistency|"
                      r"unseen-entity-test-set|paper-tables)\b")


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _code_blocks(text: str) -> list[str]:
    return re.findall(r"```[a-z]*\n(.*?)```", text, flags=re.S)


def _anchors(path: Path) -> set[str]:
    """Explicit ``<a id>`` anchors and GitHub's heading slugs of a Markdown page."""
    text = _text(path)
    ids = set(re.findall(r'<a id="([^"]+)"', text))
    for heading in re.findall(r"^#+ (.+)$", text, flags=re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        ids.add(slug)
    return ids


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_relative_link_resolves(page: Path) -> None:
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", _text(page)):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            broken.append(target)
        elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
            broken.append(target)
    assert not broken, f"{page.name}: broken links {broken}"


def test_readme_is_a_front_door() -> None:
    readme = _text(REPO / "README.md")
    assert len(readme.splitlines()) <= 250
    linked = set(re.findall(r"\]\(docs/([\w.-]+\.md)", readme))
    assert {p.name for p in DOCS} <= linked, "docs pages the README does not link"
    assert len(DOCS) >= 5


def _shown_commands() -> list[tuple[str, str, list[str]]]:
    """``(page, command, options)`` of every ``mwzrepro <command> ...`` line in a code block
    of the pages, or in inline code."""
    found = []
    for page in PAGES:
        text = _text(page)
        snippets = [line for block in _code_blocks(text) for line in block.splitlines()]
        snippets += re.findall(r"`(mwzrepro [^`]+)`", text)
        for line in snippets:
            for m in re.finditer(r"(?:^|[\s;&|(])(?<!from )mwzrepro ([a-z][a-z-]*)([^#;&|)]*)",
                                 line):
                options = re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", m.group(2))
                found.append((page.name, m.group(1), options))
    return found


#: Options the docs show before their code lands (none now). Remove an entry once the option
#: exists (the test then fails, so the list cannot go stale).
PENDING: set[tuple[str, str]] = set()


def test_every_command_and_option_shown_exists() -> None:
    import click

    from mwzrepro.cli import COMMANDS, load_command

    missing, landed = [], set()
    shown = _shown_commands()
    assert len(shown) > 20
    for page, name, options in shown:
        if name not in COMMANDS:
            missing.append(f"{page}: mwzrepro {name}")
            continue
        command = load_command(name)
        known = {o for p in command.params if isinstance(p, click.Option)
                 for o in (*p.opts, *p.secondary_opts)} | {"--help"}
        landed |= {(name, o) for o in known} & PENDING
        missing += [f"{page}: mwzrepro {name} {o}" for o in options
                    if o not in known and (name, o) not in PENDING]
    assert not missing, "\n".join(missing)
    assert not landed, f"options now exist, remove them from PENDING: {sorted(landed)}"


def test_every_make_target_named_exists() -> None:
    makefile = _text(REPO / "Makefile")
    targets = set(re.findall(r"^([\w.-]+):", makefile, flags=re.M))
    named = set()
    for page in PAGES:   # in code blocks and inline code only (prose says "make targets")
        text = _text(page)
        code = _code_blocks(text) + re.findall(r"`([^`\n]+)`", text)
        named |= {t for c in code for t in re.findall(r"(?<![\w-])make ([a-z][\w.-]*)", c)}
    assert named, "no make target named in the docs"
    assert named <= targets, f"make targets that do not exist: {sorted(named - targets)}"


def _reference_files() -> list[Path]:
    """Code, workflow and docs files whose spec references must resolve (the generated
    params schema included: its text comes from the parameter models)."""
    files = [p for p in (REPO / "src" / "mwzrepro").rglob("*.py")]
    files += [p for p in (REPO / "workflow").rglob("*") if p.is_file() and p.suffix in
              (".py", ".smk", ".rst", ".yaml")]
    return files + [REPO / "Snakefile", *PAGES]


def spec_references(path: Path) -> list[tuple[str, str]]:
    """``(document, section)`` of every spec reference in ``path``; a bare ``spec §X``
    belongs to the one document the file names, ``("?", X)`` when it names none or several.

    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
    ...     _ = f.write("spec-dst-metrics §2.2 and spec §6-7")
    >>> spec_references(Path(f.name))
    [('spec-dst-metrics', '2.2'), ('spec-dst-metrics', '6'), ('spec-dst-metrics', '7')]
    """
    text = _text(path)
    named = set(SPEC_DOC.findall(text))
    out = []
    for m in SPEC_REF.finditer(text):
        doc = m.group(1)
        if doc == "spec":
            doc = f"spec-{next(iter(named))}" if len(named) == 1 else "?"
        out += [(doc, s) for s in (m.group(2), m.group(3)) if s]
    return out


def test_every_spec_reference_has_its_section() -> None:
    anchors = set(re.findall(r'<a id="(spec-[\w-]+-[\d.]+)"', _text(REPO / "docs" /
                                                                     "specification.md")))
    unresolved = []
    count = 0
    for path in _reference_files():
        for doc, section in spec_references(path):
            count += 1
            if f"{doc}-{section}" not in anchors:
                unresolved.append(f"{path.relative_to(REPO)}: {doc} §{section}")
    assert count > 100
    assert not unresolved, ("spec references without a section in docs/specification.md (name "
                            "the document where a file cites several):\n" +
                            "\n".join(sorted(set(unresolved))))


def test_help_texts_cite_sections_that_exist() -> None:
    """The same check on what ``--help`` prints (option help comes from parameter models)."""
    from click.testing import CliRunner

    from mwzrepro.cli import COMMANDS, cli

    anchors = set(re.findall(r'<a id="(spec-[\w-]+-[\d.]+)"', _text(REPO / "docs" /
                                                                     "specification.md")))
    bad = []
    for name in COMMANDS:
        text = CliRunner().invoke(cli, [name, "--help"], terminal_width=1000).output
        for m in SPEC_REF.finditer(text):
            doc = m.group(1)
            if doc == "spec":
                named = set(SPEC_DOC.findall(text))
                doc = f"spec-{next(iter(named))}" if len(named) == 1 else "?"
            bad += [f"mwzrepro {name} --help: {doc} §{s}" for s in m.group(2, 3)
                    if s and f"{doc}-{s}" not in anchors]
    assert not bad, "\n".join(sorted(set(bad)))


@pytest.mark.parametrize("page", [REPO / "README.md", *DOCS], ids=lambda p: p.name)
def test_rules_are_cited_by_spec_section_not_source_path(page: Path) -> None:
    """A reader is sent to docs/specification.md for a rule, never to a source file
    (docs/architecture.md, the map of the code, names files by design)."""
    if page.name == "architecture.md":
        return
    paths = re.findall(r"mwzrepro/[\w/]+\.py", page.read_text(encoding="utf-8"))
    assert not paths, f"{page.name} sends readers to source files: {paths}"


def test_system_types_are_spelled_as_the_tables_spell_them() -> None:
    """`add-system --type` in the README and the docs uses the published tables' spelling
    (``end-to-end``, ``policy``), so a registered row sorts with the published ones."""
    import yaml

    board = yaml.safe_load((REPO / "workflow/resources/published/leaderboard.yaml")
                           .read_text(encoding="utf-8"))
    types = {str(s["type"]) for s in _walk_systems(board)}
    assert "end-to-end" in types
    for page in [REPO / "README.md", *DOCS]:
        for given in re.findall(r"--type ([a-z][\w-]*)", page.read_text(encoding="utf-8")):
            assert given in types, f"{page.name}: --type {given} (the tables write {types})"


def _walk_systems(node):
    if isinstance(node, dict):
        if "type" in node and isinstance(node["type"], str):
            yield node
        for value in node.values():
            yield from _walk_systems(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk_systems(value)
