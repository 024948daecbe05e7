"""What the scorer's helper passes need of an evaluator: the interface
:class:`~mwzrepro.scorer.evaluator.Evaluator` provides to the paired comparison
(:mod:`mwzrepro.scorer.leaderboard.compare`) and the placeholder pass
(:mod:`mwzrepro.scorer.dialects.placeholder_pass`).

Declared here, below all of them, so the helpers type their argument without importing the
evaluator that imports them (no import cycle; docs/architecture.md, "Area order").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from mwzrepro.core.params_defaults import ParamsDefaults
    from mwzrepro.scorer.inputs import PreparedInput
    from mwzrepro.scorer.resources.resource_set import VersionResources

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
        richness_params: the ``richness`` parameter block (``msttr_window``).
        domain_source: active domains of the standard setting (spec-standard-evaluation §8).
        dst_conventions: the DST scoring presets to add (spec-dst-metrics §12.9), or None.
        allow_missing_turns, strict: how partial coverage is treated.
    """

    resources: VersionResources
    settings: tuple[str, ...]
    metrics: dict[str, bool]
    version: str
    inform: ParamsDefaults
    standard: ParamsDefaults
    lexicalized: bool
    richness_params: ParamsDefaults
    domain_source: str
    dst_conventions: list[str] | None
    allow_missing_turns: bool
    strict: bool
    _dst_params: Any

    def _prepare(self, data: Mapping[str, Any], source: str) -> PreparedInput: ...

    def _database(self) -> Any: ...
