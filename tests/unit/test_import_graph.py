"""The package's import graph (issue 29; design.md "Target layout"): no import cycle, even
inside a package, and areas that know each other in one direction only.

The graph is the whole-file one of ``workflow/scripts/import_graph.py``
(:func:`file_graph`): every import statement counts, at module level, inside a function or
under ``if TYPE_CHECKING:``. The allowed direction, lowest first (an area imports only areas
of a lower rank; areas of one rank do not import each other):

    core  <-  prepare  <-  bleu, standard, dst  <-  consistency, unseen, stats, paper
          <-  scorer  <-  cli

The package's own ``__init__`` (the public API: ``Evaluator``, ``__version__``) sits on top:
nothing inside the package imports it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "workflow" / "scripts"))

from import_graph import Package, cycles, file_graph  # noqa: E402

#: Rank of each area (module ``mwzrepro.<area>...``); ``mwzrepro`` itself is the API on top.
RANK = {"core": 0, "prepare": 1, "bleu": 2, "standard": 2, "dst": 2, "consistency": 3,
        "unseen": 3, "stats": 3, "paper": 3, "scorer": 4, "cli": 5, "": 6}


def _area(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def backward_arrows(graph: dict[str, set[str]]) -> list[str]:
    """``"a -> b (area x -> area y)"`` for each import from an area to one of the same or a
    higher rank; an area missing from :data:`RANK` is reported too (give it a rank)."""
    out = []
    for src, targets in sorted(graph.items()):
        for dst in sorted(targets):
            x, y = _area(src), _area(dst)
            if x == y:
                continue
            if x not in RANK or y not in RANK:
                out.append(f"{src} -> {dst} (area without a rank: {x if x not in RANK else y})")
            elif RANK[x] <= RANK[y]:
                out.append(f"{src} -> {dst} (area {x or 'mwzrepro'} -> {y or 'mwzrepro'})")
    return out


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return file_graph(Package(REPO / "src"))


def test_no_import_cycle(graph: dict[str, set[str]]) -> None:
    found = cycles(graph)
    assert not found, "import cycles in src/mwzrepro:\n" + "\n".join(
        " <-> ".join(c) for c in found)


def test_areas_import_only_downward(graph: dict[str, set[str]]) -> None:
    bad = backward_arrows(graph)
    assert not bad, "imports against the area order:\n" + "\n".join(bad)


def test_the_graph_sees_every_kind_of_import(graph: dict[str, set[str]]) -> None:
    """Function-level and TYPE_CHECKING imports are edges (real modules of the package)."""
    # function-level: the evaluator loads the comparison on first use
    assert "mwzrepro.scorer.leaderboard.compare" in graph["mwzrepro.scorer.evaluator"]
    # TYPE_CHECKING only: the comparison types its argument with the scoring context
    assert "mwzrepro.scorer.context" in graph["mwzrepro.scorer.leaderboard.compare"]


def test_the_checks_can_fail() -> None:
    g = {"mwzrepro.core.a": {"mwzrepro.core.b"}, "mwzrepro.core.b": {"mwzrepro.core.a"},
         "mwzrepro.prepare.x": {"mwzrepro.standard.y"}, "mwzrepro.standard.y": set(),
         "mwzrepro.unseen.u": {"mwzrepro.consistency.c"}, "mwzrepro.consistency.c": set(),
         "mwzrepro.core.v": {"mwzrepro"}, "mwzrepro": set()}
    assert cycles(g) == [["mwzrepro.core.a", "mwzrepro.core.b"]]
    assert backward_arrows(g) == [
        "mwzrepro.core.v -> mwzrepro (area core -> mwzrepro)",
        "mwzrepro.prepare.x -> mwzrepro.standard.y (area prepare -> standard)",
        "mwzrepro.unseen.u -> mwzrepro.consistency.c (area unseen -> consistency)",
    ]


#: The parts of ``mwzrepro.scorer`` (a sub-package or a top-level module), lowest first: a
#: part imports only parts of a lower rank, besides modules of its own sub-package
#: (docs/architecture.md, "The scorer's parts").
SCORER_RANK = {
    "resources": 0,
    "inputs": 1, "prediction_file": 1, "input_drops": 1, "result_units": 1,
    "results": 2, "context": 2,
    "blocks": 3,
    "lexicalized": 4, "dst_conventions": 4,
    "dialects": 5,
    "leaderboard": 6,
    "preparation": 7, "dialogue_traces": 7,
    "scoring": 8,
    "evaluator": 9,
    "grounded_rows": 10,
    "": 10,
}


def _scorer_part(module: str) -> str | None:
    parts = module.split(".")
    if parts[:2] != ["mwzrepro", "scorer"]:
        return None
    return parts[2] if len(parts) > 2 else ""


def scorer_backward_arrows(graph: dict[str, set[str]]) -> list[str]:
    """``"a -> b (part x -> part y)"`` for each import inside the scorer from a part to one
    of the same or a higher rank; a part missing from :data:`SCORER_RANK` is reported."""
    out = []
    for src, targets in sorted(graph.items()):
        x = _scorer_part(src)
        if x is None:
            continue
        for dst in sorted(targets):
            y = _scorer_part(dst)
            if y is None or x == y:
                continue
            if x not in SCORER_RANK or y not in SCORER_RANK:
                out.append(f"{src} -> {dst} (part without a rank: "
                           f"{x if x not in SCORER_RANK else y})")
            elif SCORER_RANK[x] <= SCORER_RANK[y]:
                out.append(f"{src} -> {dst} (part {x or 'scorer'} -> {y or 'scorer'})")
    return out


def test_scorer_parts_import_only_downward(graph: dict[str, set[str]]) -> None:
    bad = scorer_backward_arrows(graph)
    assert not bad, "imports against the scorer's part order:\n" + "\n".join(bad)


def test_every_scorer_module_has_a_part(graph: dict[str, set[str]]) -> None:
    parts = {_scorer_part(m) for m in graph} - {None}
    assert parts <= set(SCORER_RANK), sorted(parts - set(SCORER_RANK))


def test_the_scorer_check_can_fail() -> None:
    g = {"mwzrepro.scorer.resources.load": {"mwzrepro.scorer.results"},
         "mwzrepro.scorer.lexicalized.grounding": {"mwzrepro.scorer.lexicalized.file_form",
                                                   "mwzrepro.scorer.blocks"},
         "mwzrepro.scorer.dialects.x": {"mwzrepro.scorer.leaderboard.compare"},
         "mwzrepro.scorer.results": set(), "mwzrepro.scorer.blocks": set(),
         "mwzrepro.scorer.leaderboard.compare": set(),
         "mwzrepro.scorer.lexicalized.file_form": set()}
    assert scorer_backward_arrows(g) == [
        "mwzrepro.scorer.dialects.x -> mwzrepro.scorer.leaderboard.compare "
        "(part dialects -> leaderboard)",
        "mwzrepro.scorer.resources.load -> mwzrepro.scorer.results (part resources -> results)",
    ]
