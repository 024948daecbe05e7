"""What the placeholder vocabulary costs a file (spec-standard-evaluation §3.2 and the addendum of
:mod:`mwzrepro.core.placeholders`): when a run under
``reference`` (spec-standard-evaluation §3.2) meets placeholders that ``extended``
(:mod:`mwzrepro.core.placeholders`) maps — ``[hotel_ref]``, ``[train-leaveat]``,
``[phone_number]`` — or predicted-state names it resolves (``restuarant``, ``book_day``,
:mod:`mwzrepro.core.state_dialects`), a second pass gives Inform and Success (the evaluator's
first setting) and BLEU under ``extended``, so the user sees the difference instead of a
silent loss::

    mine.json: with placeholders=extended: Inform 96.6, Success 88.3, BLEU 17.9 (it maps
    hotel_ref ×120, train_ref ×80; not leaderboard-comparable; ...)

The pass rescores only what changes (:mod:`mwzrepro.scorer.dialects.extended_rescoring`: the changed
dialogues' Inform/Success, the changed segments' BLEU statistics), and its figures equal a run
with ``placeholders="extended"``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Mapping

    from mwzrepro.scorer.context import ScoringContext
    from mwzrepro.scorer.inputs import Coverage
    from mwzrepro.standard.inputs import PreparedDialogues

__all__ = ["ExtendedFigures", "extended_pass"]


@dataclass(frozen=True)
class ExtendedFigures:
    """Scores of the same file with ``placeholders=extended`` (percent).

    Attributes:
        placeholders: ``{bracket content: count}`` that ``extended`` maps and ``reference``
            does not (:func:`mwzrepro.core.placeholders.gains_of`).
        states: ``{"restuarant → restaurant": turns, "hotel-colour ignored": turns}``: what
            ``extended`` does with the unknown names of the predicted states
            (:func:`mwzrepro.core.state_dialects.state_names`); empty when it changes none.
        setting: the Inform/Success setting of ``inform`` and ``success``.
        inform, success: totals (one decimal, as the main result); None when not computed.
        bleu: corpus BLEU; None when not computed.
        jga: the reference evaluator's joint accuracy (§13), when states change and the DST
            metrics are computed; else None.
    """

    placeholders: dict[str, int]
    setting: str
    inform: float | None = None
    success: float | None = None
    bleu: float | None = None
    states: dict[str, int] = field(default_factory=dict)
    jga: float | None = None

    def line(self, source: str) -> str:
        """The one line shown to the user.

        >>> ExtendedFigures({"hotel_ref": 2}, "standard", 96.6, 88.3, 17.94).line("a.json")
        'a.json: with placeholders=extended: Inform 96.6, Success 88.3, BLEU 17.9 (it maps hotel_ref ×2; not leaderboard-comparable; --placeholders extended scores with it)'
        >>> ExtendedFigures({}, "grounded", states={"restuarant → restaurant": 8}).line("a.json")
        'a.json: with placeholders=extended: Inform/Success of the grounded setting not rescored (states: restuarant → restaurant ×8 turns; not leaderboard-comparable; --placeholders extended scores with it)'
        """
        parts = [f"{name} {value:.1f}" for name, value in
                 (("Inform", self.inform), ("Success", self.success), ("BLEU", self.bleu),
                  ("JGA", self.jga)) if value is not None] or [
            f"Inform/Success of the {self.setting} setting not rescored"]
        what = []
        if self.placeholders:
            what.append("it maps " + ", ".join(f"{k} ×{v}" for k, v in self.placeholders.items()))
        if self.states:
            what.append("states: " + ", ".join(f"{k} ×{v} turns" for k, v in self.states.items()))
        return (f"{source}: with placeholders=extended: {', '.join(parts)} ({'; '.join(what)}; "
                "not leaderboard-comparable; --placeholders extended scores with it)")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures (``placeholders_extended`` of the result)."""
        out = {"inform": self.inform, "success": self.success, "bleu": self.bleu,
               "setting": self.setting, "placeholders": dict(self.placeholders)}
        if self.states:
            out["states"] = dict(self.states)
        if self.jga is not None:
            out["jga"] = self.jga
        return out


def extended_pass(evaluator: ScoringContext, preds: Mapping[str, list], prep: PreparedDialogues,
                  label: str, coverage: Coverage, blocks: Mapping[str, Any] | None = None,
                  has_unknown: bool | None = None) -> ExtendedFigures | None:
    """The :class:`ExtendedFigures` of a ``predictions`` table's columns (rows of a dialogue
    in turn order), its prepared dialogues ``prep`` and the run's result ``blocks`` (``bleu``
    with its statistics, ``success`` with its per-dialogue rows), all made under
    ``reference``; None when ``extended`` maps no placeholder and resolves no state name.
    Without ``blocks`` (or a block), that metric is rescored in full. ``has_unknown``: the
    run's check for unknown state names (:class:`~mwzrepro.scorer.dialects.warning_lines.
    DialectReport`), made here when None. Inform/Success are
    those of the evaluator's first setting other than ``grounded`` (not rescored: with
    ``setting="grounded"`` alone they are None and ``setting`` is ``grounded``).
    """
    from mwzrepro.scorer.blocks import bleu_block, success_block
    from mwzrepro.scorer.dialects.extended_rescoring import (
        changed_dialogues,
        extended_changes,
        rescore_bleu,
        rescore_joint_accuracy,
        rescore_success,
    )

    changes = extended_changes(preds, prep, has_unknown)
    gains = changes.gains
    if not gains and not changes.state_names:
        return None
    blocks = blocks or {}
    setting = next((s for s in evaluator.settings if s != "grounded"), "grounded")
    out: dict[str, Any] = {}
    again = changed_dialogues(evaluator, preds, prep, changes, label)
    if changes.states and evaluator.metrics["dst"]:
        out["jga"] = rescore_joint_accuracy(evaluator, prep, again, label)
    if evaluator.metrics["success"] and setting != "grounded":
        main = blocks.get("success", {}).get(setting)
        if main is None or not main.dialogue_rows:
            main = success_block(prep, evaluator.resources.eval, evaluator._database(),
                                 (setting,), evaluator.version, label,
                                 evaluator.inform.matching, evaluator.inform.fuzzy_threshold,
                                 coverage)[setting]
        out["inform"], out["success"] = rescore_success(evaluator, again, main, label)
    if evaluator.metrics["bleu"]:
        main = blocks.get("bleu")
        if main is None or not main.statistics:
            main = bleu_block(preds, evaluator.resources.reference_columns, evaluator.version,
                              label, coverage)
        out["bleu"] = rescore_bleu(evaluator, preds, changes, main)
    return ExtendedFigures(gains, setting, states=changes.state_names, **out)
