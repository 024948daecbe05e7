"""mwzrepro: reproducible MultiWOZ evaluation — a data-versioned workflow that regenerates the
papers' tables, and a scorer for one system's outputs.

>>> from mwzrepro import Evaluator                                  # doctest: +SKIP
>>> Evaluator(bleu=True, success=True, richness=True).evaluate(predictions).to_dict()  # doctest: +SKIP

Importing the package is cheap: :class:`~mwzrepro.scorer.evaluator.Evaluator` and
:class:`~mwzrepro.scorer.results.EvaluationResult` load on first access.

>>> import mwzrepro, sys
>>> mwzrepro.__version__
'0.1.0'
>>> "Evaluator" in dir(mwzrepro)
True
"""

from __future__ import annotations

from typing import Any

from mwzrepro.core.version import __version__

__all__ = ["Evaluator", "EvaluationResult", "__version__"]

_LAZY = {
    "Evaluator": "mwzrepro.scorer.evaluator",
    "EvaluationResult": "mwzrepro.scorer.results",
}


def __getattr__(name: str) -> Any:
    """Load the public API on first access (keeps ``import mwzrepro`` free of pandas)."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
