"""Building the unseen-entity test set of a whole split (spec-unseen-entity-test-set §6–§8).

Three steps, each in its module:

1. :func:`~mwzrepro.unseen.plan.plan_dialogue` — a dialogue's entities (§6), their text
   mentions in every utterance and goal message (§8.1), and the order in which they receive
   replacements (§7 step 1);
2. :func:`~mwzrepro.unseen.replacements.choose_replacements` — the keyed-hash choice of one pool
   candidate per entity (§7 steps 2–6), per dialogue or globally (``mapping_scope``);
3. :func:`~mwzrepro.unseen.rewrite.apply_plan` — the rewritten dialogue: utterances, span word
   indices, dialogue-act values, states, ``booked`` names, goal values and goal messages (§8),
   with per-entity counts.

:func:`build_unseen_test_set` runs the three steps over a whole split in the ConvLab 2.0/2.1
layout (``{dialogue id: {"goal": ..., "log": [...]}}``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mwzrepro.unseen.catalog import EntityCatalog
from mwzrepro.unseen.params import UnseenParams
from mwzrepro.unseen.plan import DialoguePlan, EntityKey, plan_dialogue
from mwzrepro.unseen.replacements import (
    Candidate,
    ExhaustedPoolError,
    Pools,
    choose_replacements,
)
from mwzrepro.unseen.rewrite import apply_plan

__all__ = ["UnseenResult", "build_unseen_test_set", "ExhaustedPoolError"]


@dataclass
class UnseenResult:
    """Output of :func:`build_unseen_test_set`.

    Attributes:
        data: the new split in the base layout (same dialogue order).
        plans: ``{source id: DialoguePlan}``.
        assignments: ``{source id: {entity key: Candidate}}``.
        reports: ``{source id: apply_plan report}``.
    """

    data: dict[str, Any]
    plans: dict[str, DialoguePlan]
    assignments: dict[str, dict[EntityKey, Candidate]]
    reports: dict[str, dict[str, Any]]


def build_unseen_test_set(data: Mapping[str, Any], catalog: EntityCatalog, pools: Pools,
                          params: UnseenParams = UnseenParams()) -> UnseenResult:
    """Transform a whole split (ConvLab 2.0/2.1 layout) into its unseen-entity copy.

    Args:
        data: ``{dialogue id: dialogue}`` as read from ``test.json``.
        catalog: MultiWOZ entities.
        pools: admissible SGD candidates (after the unseen filter).
        params: :class:`UnseenParams`.

    Raises:
        ExhaustedPoolError: a family ran out of candidates.
    """
    plans = {sid: plan_dialogue(sid, d, catalog, params) for sid, d in data.items()}
    assignments_by_sid = choose_replacements(plans.values(), pools, params, catalog)
    new_data: dict[str, Any] = {}
    reports = {}
    assignments = {}
    for sid, dialogue in data.items():
        plan = plans[sid]
        assignment = assignments_by_sid[plan.source_id]
        new_data[sid], reports[sid] = apply_plan(dialogue, plan, assignment, params)
        assignments[sid] = assignment
    return UnseenResult(new_data, plans, assignments, reports)
