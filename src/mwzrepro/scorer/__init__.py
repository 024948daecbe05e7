"""The scorer researchers install: score one system's prediction file from anywhere, from a
shell (``mwzrepro score``) or from Python (:class:`~mwzrepro.scorer.evaluator.Evaluator`).

At the top, the evaluation and its results:

* :mod:`~mwzrepro.scorer.evaluator` — :class:`Evaluator`, the reference evaluator's interface,
  a thin facade over the steps: :mod:`~mwzrepro.scorer.preparation` (validate and prepare the
  input), :mod:`~mwzrepro.scorer.scoring` (the metric blocks and the passes that add to them),
  :mod:`~mwzrepro.scorer.dialogue_traces` (one dialogue turn by turn);
* :mod:`~mwzrepro.scorer.inputs` (checks of the input and its coverage),
  :mod:`~mwzrepro.scorer.prediction_file` (reading a file), :mod:`~mwzrepro.scorer.blocks`
  (one block per metric), :mod:`~mwzrepro.scorer.results` (typed results, percent everywhere,
  with ``to_dict()``), :mod:`~mwzrepro.scorer.context` (what the passes need of an evaluator).

One sub-package per job, lowest first (``tests/unit/test_import_graph.py`` holds the order):

* :mod:`~mwzrepro.scorer.resources` — a version's resources, fetched, verified, built once into
  the per-user cache with the pipeline's own library code;
* :mod:`~mwzrepro.scorer.lexicalized` — the form of a file, lex:1, grounded scoring, the round
  trip;
* :mod:`~mwzrepro.scorer.dialects` — placeholder and state dialects, the extended line;
* :mod:`~mwzrepro.scorer.leaderboard` — many files in one table, comparability, two systems
  compared with a paired bootstrap.

Importing this package imports nothing heavy; the names below load on first access.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Evaluator", "EvaluationResult", "load_resources"]

_LAZY = {
    "Evaluator": "mwzrepro.scorer.evaluator",
    "EvaluationResult": "mwzrepro.scorer.results",
    "load_resources": "mwzrepro.scorer.resources.load",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
