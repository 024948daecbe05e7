"""Rescoring a file under ``placeholders = extended`` from a run under ``reference`` at the cost
of what changes: only the turns whose normalized response or predicted state the
``extended`` rule changes are normalized again, only their dialogues get Inform/Success again,
and only their segments get BLEU statistics again.

* *Turns that change.* A response changes when it has a bracket that the reference table
  does not know and that ``extended`` reads differently: a name the resolver maps
  (:func:`mwzrepro.core.placeholders.unified_name`), or a name with ``-`` (left as text by
  the reference pattern, deleted by ``extended``'s); it is normalized again and compared.
  A state changes when :func:`mwzrepro.core.state_dialects.resolve_state_json` changes it
  (only when the run uses predicted states).
* *Inform/Success.* The changed dialogues are prepared again (their states normalized, their
  active domains estimated, with the run's resolved domain source) and scored; the rates are
  those of the run's per-dialogue rows with the changed dialogues' rows replaced
  (:func:`mwzrepro.standard.inform_success.rates_of_rows`).
* *JGA* (the reference evaluator's joint accuracy, §13; only when states change and the run
  computes the DST metrics): the state metrics of the run's states with the changed
  dialogues' states replaced.
* *BLEU.* The corpus sums of the run's segment statistics, minus the changed segments' old
  statistics, plus their new ones, scored by sacrebleu's formula: the same integers as a full
  rescoring, so the same score.

The figures equal a run with ``placeholders="extended"`` (tested).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from mwzrepro.core.slot_map import EXTENDED_PLACEHOLDER_RE, SLOT_MAP

if TYPE_CHECKING:
    from mwzrepro.scorer.context import ScoringContext
    from mwzrepro.scorer.results import BleuScore, SuccessScores
    from mwzrepro.standard.inputs import PreparedDialogues

__all__ = ["ExtendedChanges", "extended_changes", "changed_dialogues", "rescore_success",
           "rescore_joint_accuracy", "rescore_bleu"]


@dataclass
class ExtendedChanges:
    """What ``extended`` changes in a ``predictions`` table made under ``reference``.

    Attributes:
        responses: ``{row: normalized response under extended}`` of the changed rows.
        states: ``{row: resolved state_json}`` of the changed rows.
        state_names: ``{"restuarant → restaurant": turns, "hotel-colour ignored": turns}``.
        gains: the placeholders ``extended`` maps and ``reference`` does not
            (:func:`mwzrepro.core.placeholders.gains_of`).
    """

    responses: dict[int, str] = field(default_factory=dict)
    states: dict[int, str | None] = field(default_factory=dict)
    state_names: dict[str, int] = field(default_factory=dict)
    gains: dict[str, int] = field(default_factory=dict)

    def dialogues(self, dialogue_ids: list[str]) -> list[str]:
        """The ids of the dialogues with a changed row, in first-appearance order."""
        rows = sorted({*self.responses, *self.states})
        return list(dict.fromkeys(dialogue_ids[i] for i in rows))

    def __bool__(self) -> bool:
        return bool(self.responses or self.states)


@lru_cache(maxsize=4096)
def _reads_differently(name: str) -> bool:
    from mwzrepro.core.placeholders import unified_name

    return name not in SLOT_MAP and ("-" in name or unified_name(name) is not None)


def extended_changes(preds: Mapping[str, list], prep: PreparedDialogues,
                     has_unknown: bool | None = None) -> ExtendedChanges:
    """The :class:`ExtendedChanges` of a ``predictions`` table's columns and its prepared
    dialogues (for the state source), both made under ``reference``; ``has_unknown``: whether
    the states name a domain or slot outside the ontology, when the caller has checked."""
    from mwzrepro.core.normalize import normalize_response
    from mwzrepro.core.placeholders import gains_of

    out = ExtendedChanges()
    norms = preds["response_norm"]
    found: Counter[str] = Counter()
    for i, text in enumerate(preds["response"]):
        if "[" not in text:
            continue
        names = [m.group(1) for m in EXTENDED_PLACEHOLDER_RE.finditer(text.lower())]
        found.update(names)
        if any(map(_reads_differently, names)):
            new = normalize_response(text, None, "extended")
            if new != norms[i]:
                out.responses[i] = new
    out.gains = gains_of(found)
    from mwzrepro.core.state_dialects import cells_have_unknown

    if prep.state_source == "predicted" and (
            cells_have_unknown(preds["state_json"]) if has_unknown is None else has_unknown):
        from mwzrepro.core.state_dialects import resolve_state_json, scan_states, state_names

        raw = []
        for i, sj in enumerate(preds["state_json"]):
            new_sj = resolve_state_json(sj)
            if new_sj != sj:
                out.states[i] = new_sj
                raw.append(json.loads(sj))
        out.state_names = state_names(scan_states(raw))
    return out


def changed_dialogues(evaluator: ScoringContext, preds: Mapping[str, list],
                      prep: PreparedDialogues, changes: ExtendedChanges,
                      label: str) -> PreparedDialogues:
    """The changed dialogues prepared under ``extended``: a dialogue with a changed state is
    prepared again (states normalized, active domains with the run's resolved source); one
    with only changed responses keeps its prepared states and domains."""
    from mwzrepro.standard.inputs import PreparedDialogues, prepare_predictions

    ids = preds["dialogue_id"]
    changed = changes.dialogues(ids)
    restate = {ids[i] for i in changes.states}
    ev = evaluator.resources.eval
    dialogues = {}
    if restate:
        rows = [i for i, did in enumerate(ids) if did in restate]
        sub = {c: [v[i] for i in rows] for c, v in preds.items()}
        sub["response_norm"] = [changes.responses.get(i, preds["response_norm"][i])
                                for i in rows]
        sub["state_json"] = [changes.states.get(i, preds["state_json"][i]) for i in rows]
        dialogues = prepare_predictions(sub, ev.gold, prep.domain_source, ev.turn_domains,
                                        [d for d in changed if d in restate],
                                        where=label).dialogues
    by_dialogue: dict[str, dict[int, str]] = {}
    for i, text in changes.responses.items():
        by_dialogue.setdefault(ids[i], {})[preds["turn"][i]] = text
    for did in changed:
        if did not in dialogues:
            d = prep.dialogues[did]
            new_text = by_dialogue[did]
            dialogues[did] = {**d, "responses": [new_text.get(t, r)
                                                 for t, r in enumerate(d["responses"])]}
    return PreparedDialogues({did: dialogues[did] for did in changed}, prep.state_source,
                             prep.domain_source)


def rescore_success(evaluator: ScoringContext, again: PreparedDialogues,
                    main: SuccessScores, label: str) -> tuple[float, float]:
    """``(Inform, Success)`` totals (percent) in ``main``'s setting: the run's per-dialogue
    rows with those of the changed dialogues ``again`` (:func:`changed_dialogues`) scored
    again (module docstring)."""
    from mwzrepro.standard.inform_success import dialogue_rows, rates_of_rows

    ev = evaluator.resources.eval
    again = again.for_setting(main.setting, ev.turn_domains)
    new = dialogue_rows(again.dialogues, ev.goals, ev.booked, evaluator._database(),
                        main.setting, where=label)
    kept = [r for r in main.dialogue_rows if r["dialogue_id"] not in again.dialogues]
    rates = rates_of_rows(kept + new)
    return rates["inform"]["total"], rates["success"]["total"]


def rescore_joint_accuracy(evaluator: ScoringContext, prep: PreparedDialogues,
                           again: PreparedDialogues, label: str) -> float:
    """The reference evaluator's joint accuracy (percent, §13) of the run's prepared
    dialogues with the changed ones replaced by ``again`` (changed states: the state metrics
    of the whole file are computed again)."""
    from mwzrepro.standard.state_match import state_match

    predicted = {did: again.dialogues.get(did, d)["states"] for did, d in prep.dialogues.items()}
    return float(state_match(predicted, evaluator.resources.eval.gold,
                             evaluator.inform.matching,
                             evaluator.standard.state_match_threshold,
                             where=label)["joint_accuracy"])


def rescore_bleu(evaluator: ScoringContext, preds: Mapping[str, list],
                 changes: ExtendedChanges, main: BleuScore) -> float:
    """Corpus BLEU with the changed responses' segment statistics replaced (module
    docstring)."""
    from mwzrepro.bleu.score import reference_statistics

    stats = reference_statistics(evaluator.resources.reference_columns)
    rows = sorted(changes.responses)
    index = [stats.row[(preds["dialogue_id"][i], preds["turn"][i])] for i in rows]
    old = stats.statistics(index, [preds["response_norm"][i] for i in rows])
    new = stats.statistics(index, [changes.responses[i] for i in rows])
    total = list(main.statistics)
    for seg_old, seg_new in zip(old, new):
        for k, (a, b) in enumerate(zip(seg_old, seg_new)):
            total[k] += b - a
    return float(stats.bleu._compute_score_from_stats(total).score)
