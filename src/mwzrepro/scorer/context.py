"""What the scorer's helper passes need of an evaluator: the interface
:class:`~mwzrepro.scorer.evaluator.Evaluator` provides to the paired comparison
(:mod:`mwzrepro.scorer.compare`) and the placeholder pass (:mod:`mwzrepro.scorer.placeholder_pass`).

Declared here, below all three, so the helpers type their argument without importing the
evaluator that imports them (no import cycle, issue 29).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from collections import Counter

    from mwzrepro.core.params_defaults import ParamsDefaults
    from mwzrepro.scorer.inputs import Coverage
    from mwzrepro.scorer.resources import VersionResources
    from mwzrepro.standard.inputs import PreparedDialogues

__all__ = ["ScoringContext"]


class ScoringContext(Protocol):
    """An evaluator's settings, resources and preparation step.

    Attributes:
        resources: the version's evaluation resources.
        settings: the Inform/Success settings, in order (``("standard",)``, ...).
        metrics: ``{"bleu": bool, "success": bool, "richness": bool, "dst": bool}``.
        version: dataset version (``mwz21``, ...).
        inform: the ``inform`` parameter block (``matching``, ``fuzzy_threshold``).
        standard: the ``standard`` parameter block (``placeholders``, ...).
        lexicalized: whether responses are delexicalized before scoring.
    """

    resources: VersionResources
    settings: tuple[str, ...]
    metrics: dict[str, bool]
    version: str
    inform: ParamsDefaults
    standard: ParamsDefaults
    lexicalized: bool
    _dst_params: Any

    def _prepare(self, data: Mapping[str, Any], source: str
                 ) -> tuple[dict[str, list], PreparedDialogues, Coverage, Counter]: ...

    def _database(self) -> Any: ...
