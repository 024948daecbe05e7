"""One dialogue's Inform/Success, turn by turn (the paper's Appendix A, Table 7), and the
per-dialogue rows built from it: what :meth:`Evaluator.explain
<mwzrepro.scorer.evaluator.Evaluator.explain>` and :meth:`Evaluator.per_dialogue
<mwzrepro.scorer.evaluator.Evaluator.per_dialogue>` return (:mod:`mwzrepro.standard.trace`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mwzrepro.core.errors import ConfigError

if TYPE_CHECKING:
    from mwzrepro.scorer.context import ScoringContext
    from mwzrepro.standard.inputs import PreparedDialogues
    from mwzrepro.standard.trace import DialogueTrace

__all__ = ["trace_of", "dialogue_rows"]


def trace_of(ctx: ScoringContext, prep: PreparedDialogues, did: str, setting: str | None,
             context: bool = False) -> DialogueTrace:
    """The trace of dialogue ``did`` in ``setting`` (default: the evaluator's first); with
    ``context``, the user utterances and the corpus responses too.

    Raises:
        ConfigError: a setting other than ``standard`` or ``optimistic``.
    """
    from mwzrepro.standard.trace import trace_dialogue

    setting = setting or ctx.settings[0]
    if setting not in ("standard", "optimistic"):
        raise ConfigError(f"setting must be standard or optimistic, got {setting!r}")
    ev = ctx.resources.eval
    d = prep.for_setting(setting, ev.turn_domains).dialogues[did]
    user = refs = None
    if context:
        user = ctx.resources.user_utterances(did)
        r = ctx.resources.reference_columns
        refs = [ref for _, ref in sorted(
            (turn, ref) for d, turn, ref in zip(r["dialogue_id"], r["turn"], r["reference"])
            if d == did)]
    return trace_dialogue(did, ev.goals[did], ev.booked[did], d["responses"], d["states"],
                          d["active_domains"], ctx._database(), setting, user, refs)


def dialogue_rows(ctx: ScoringContext, prep: PreparedDialogues,
                  setting: str | None) -> list[dict[str, Any]]:
    """One row per dialogue of ``prep`` (:func:`mwzrepro.standard.trace.dialogue_row`)."""
    from mwzrepro.standard.trace import dialogue_row

    return [dialogue_row(trace_of(ctx, prep, did, setting)) for did in prep.dialogues]
