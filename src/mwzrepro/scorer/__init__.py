"""The scorer researchers install: score one system's prediction file from anywhere, from a
shell (``mwzrepro score``) or from Python (:class:`~mwzrepro.scorer.evaluator.Evaluator`).

* :mod:`~mwzrepro.scorer.evaluator` — :class:`Evaluator`, the reference evaluator's interface;
* :mod:`~mwzrepro.scorer.results` — typed results (percent everywhere) with ``to_dict()``;
* :mod:`~mwzrepro.scorer.inputs` — checks of the input and its coverage;
* :mod:`~mwzrepro.scorer.resources.load` — a version's resources, built once into the per-user
  cache (:mod:`~mwzrepro.scorer.resources.cache`) from verified raw files (:mod:`~mwzrepro.scorer.resources.fetch`)
  with the pipeline's own library code (:mod:`~mwzrepro.scorer.resources.build`);
* :mod:`~mwzrepro.scorer.leaderboard.compare` — two systems compared with a paired bootstrap.

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
