"""Nekvinda & Dušek 2021, Table 7 (Appendix A): the Inform/Success trace of one dialogue as a
table, next to the paper's values (spec-paper-tables §3; spec-standard-evaluation §9.4).

The trace itself is :func:`mwzrepro.standard.trace.trace_dialogue` — the same one the
``mwzrepro explain`` command prints; this module only

* assembles its inputs from the pipeline's tables (:func:`pipeline_trace`: a ``predictions``
  table, the ``goals`` phase's evaluator resources, the venue database, the canonical
  ``turns`` and the ``references``), and
* lays it out one row per system turn (:func:`trace_rows`) with the paper's offered venues and
  provided requestables beside ours (:data:`PAPER_TRACE`).

Turns are numbered from 1 in the table, as in the paper (the trace numbers them from 0).

The dialogue: the paper names ``sng0805``, but in the MultiWOZ 2.1 test split ``sng0805`` is a
hotel dialogue (a guesthouse in the north, no restaurant). The paper's worked example — cheap
Chinese restaurant, offered venues 19212, 19185, 19219 — is ``sng0580`` (:data:`DIALOGUE`), a
transposition of digits in the paper, as spec-standard-evaluation §9.4 and spec-paper-tables §3
write it; its UBAR trace reproduces every published value.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pandas as pd

from mwzrepro.core.errors import InputError
from mwzrepro.standard.inform_success import VenueQuery
from mwzrepro.standard.inputs import prepare_predictions
from mwzrepro.standard.scoring import EvalResources
from mwzrepro.standard.trace import DialogueTrace, trace_dialogue

__all__ = ["PAPER_DIALOGUE", "DIALOGUE", "PAPER_TRACE", "COLUMNS", "user_utterances",
           "pipeline_trace", "trace_rows", "trace_notes"]

#: The dialogue id printed in the paper's Appendix A.
PAPER_DIALOGUE = "sng0805"
#: The dialogue the paper's Table 7 actually shows (module docstring).
DIALOGUE = "sng0580"

#: The paper's Table 7 values given by spec-paper-tables §3 and spec-standard-evaluation §9.4,
#: by 1-based turn: the offered-venue change of the restaurant domain and the requestables
#: provided so far. Turns absent here are not stated by the spec.
PAPER_TRACE: dict[int, dict[str, str]] = {
    1: {"offered": "-", "provided": "-"},
    2: {"offered": "19212 19185 19219", "provided": "ADDRESS"},
    3: {"offered": "no update", "provided": "ADDRESS, POST"},
}

#: Columns of :func:`trace_rows`, in order.
COLUMNS = ["Turn", "User", "Ground truth", "Generated (normalized)", "Dialogue state",
           "Active domain", "Offered entities", "Provided so far", "Paper: offered",
           "Paper: provided", "Matches paper"]


def user_utterances(turns: pd.DataFrame, dialogue_id: str) -> list[str]:
    """The user utterances of ``dialogue_id``, one per system turn (the one before it), from
    a canonical ``turns`` table (dialogue_id, turn_id, speaker, text).

    >>> t = pd.DataFrame({"dialogue_id": ["a"] * 4, "turn_id": [0, 1, 2, 3],
    ...                   "speaker": ["user", "system", "user", "system"],
    ...                   "text": ["hi", "hello", "bye", "bye"]})
    >>> user_utterances(t, "a")
    ['hi', 'bye']
    """
    user = turns[(turns["dialogue_id"] == dialogue_id) & (turns["speaker"] == "user")]
    return user.sort_values("turn_id", kind="mergesort")["text"].tolist()


def pipeline_trace(dialogue_id: str, predictions: pd.DataFrame, resources: EvalResources,
                   database: VenueQuery, turns: pd.DataFrame, references: pd.DataFrame,
                   domain_source: str = "auto", setting: str = "standard",
                   where: str = "") -> DialogueTrace:
    """The Inform/Success trace of one dialogue of a system, from the pipeline's tables.

    Args:
        dialogue_id: e.g. ``sng0580``.
        predictions: the system's ``predictions`` table (dialogue_id, turn, response,
            response_norm, state_json, active_domains).
        resources: the version's evaluator resources
            (:meth:`~mwzrepro.standard.scoring.EvalResources.from_tables`; ``turn_domains``
            needed for ``optimistic``).
        database: the venue database (§5.1).
        turns: canonical ``turns`` table of the version's test split (user utterances).
        references: ``references`` table (dialogue_id, turn, reference = normalized
            delexicalized ground truth).
        domain_source: the system's active-domain source of the standard setting (§8;
            :meth:`~mwzrepro.standard.params.StandardParams.domain_source`).
        setting: ``standard`` or ``optimistic``.
        where: file label for error messages.

    Returns:
        :class:`~mwzrepro.standard.trace.DialogueTrace` with user utterances and references.

    Raises:
        InputError: the dialogue is not in the predictions or has no goal; see
            :func:`~mwzrepro.standard.inputs.prepare_predictions`.
        ConfigError: unknown ``setting`` or ``domain_source``.
    """
    rows = predictions[predictions["dialogue_id"] == dialogue_id]
    label = f"{where}: " if where else ""
    if rows.empty:
        raise InputError(f"{label}dialogue {dialogue_id} is not in the predictions")
    if dialogue_id not in resources.goals:
        raise InputError(f"{label}dialogue {dialogue_id} has no goal in this version")
    prep = prepare_predictions(rows, resources.gold, domain_source, where=where)
    d = prep.for_setting(setting, resources.turn_domains).dialogues[dialogue_id]
    refs = references[references["dialogue_id"] == dialogue_id].sort_values(
        "turn", kind="mergesort")["reference"].tolist()
    return trace_dialogue(dialogue_id, resources.goals[dialogue_id],
                          resources.booked[dialogue_id], d["responses"], d["states"],
                          d["active_domains"], database, setting,
                          user_utterances(turns, dialogue_id), refs)


def _state(state: Mapping[str, Mapping[str, str]]) -> str:
    return "; ".join(f"{d}: " + ", ".join(f"{s}={v}" for s, v in slots.items())
                     for d, slots in state.items() if slots)


def _offer(change: Any) -> str:
    if change is None or change.change in ("-", "no update"):
        return "-" if change is None else change.change
    return " ".join(change.offered) or "∅"


def trace_rows(trace: DialogueTrace, domain: str = "restaurant",
               paper: Mapping[int, Mapping[str, str]] | None = None) -> pd.DataFrame:
    """Table 7: one row per system turn of ``trace`` (columns :data:`COLUMNS`).

    ``Offered entities`` is the change of ``domain``'s offered venues (``-``: no query,
    ``no update``, or the venue ids offered from this turn on); ``Provided so far`` the
    requestables of ``domain`` provided up to the turn; ``Paper: …`` the values of ``paper``
    (default :data:`PAPER_TRACE`, by 1-based turn; empty where it states none) and
    ``Matches paper`` ``yes``/``no`` (empty where the paper states none).

    Example:
        >>> from mwzrepro.standard.trace import OfferChange, TraceTurn
        >>> t = TraceTurn(0, "hi", "NAME is good", "NAME is nice", {"restaurant":
        ...     {"food": "thai"}}, ["restaurant"], {"restaurant": OfferChange("set",
        ...     ["1"], ["1"])}, {}, {"restaurant": ["ADDRESS"]})
        >>> tr = DialogueTrace("d", "standard", {}, {}, [t], None, {})
        >>> r = trace_rows(tr, paper={1: {"offered": "1", "provided": "ADDRESS"}})
        >>> r.iloc[0][["Dialogue state", "Offered entities", "Matches paper"]].tolist()
        ['restaurant: food=thai', '1', 'yes']
    """
    paper = PAPER_TRACE if paper is None else paper
    rows = []
    for t in trace.turns:
        n = t.turn + 1
        offered = _offer(t.offers.get(domain))
        provided = ", ".join(t.provided_so_far.get(domain, [])) or "-"
        pub = paper.get(n, {})
        match = "" if not pub else (
            "yes" if (pub.get("offered", offered), pub.get("provided", provided))
            == (offered, provided) else "no")
        rows.append([n, t.user, t.reference, t.response, _state(t.state) or "-",
                     ", ".join(t.active_domains) or "-", offered, provided,
                     pub.get("offered", ""), pub.get("provided", ""), match])
    return pd.DataFrame(rows, columns=COLUMNS)


def trace_notes(trace: DialogueTrace, system: str, version: str) -> list[str]:
    """The notes under Table 7: which dialogue and why, the goal, the goal venues, the final
    Inform/Success per domain, and how to print the same trace with ``mwzrepro explain``."""
    notes = [
        f"{system} on {version} test, dialogue {trace.dialogue_id}, {trace.setting} setting; "
        "turns numbered from 1 as in the paper.",
    ]
    if trace.dialogue_id == DIALOGUE:
        notes.append(
            f"The paper names {PAPER_DIALOGUE}, but in the {version} test split "
            f"{PAPER_DIALOGUE} is a hotel dialogue; its worked example (cheap Chinese "
            f"restaurant, venues 19212, 19185, 19219) is {DIALOGUE}.")
    for d, g in trace.goal.items():
        venues = trace.goal_venues.get(d)
        offered = trace.outcome.offered.get(d)
        notes.append(
            f"Goal {d}: informable {json.dumps(dict(g.get('informable', {})))}; requestable "
            f"{', '.join(g.get('requestable', [])) or '-'}; goal venues "
            f"{' '.join(venues) if venues is not None else 'n/a'}; offered "
            f"{'auto' if offered is None else ' '.join(offered) or '∅'}; "
            f"Inform {trace.outcome.inform[d]}, Success {trace.outcome.success[d]}.")
    paper = " (paper: True, True)" if trace.dialogue_id == DIALOGUE else ""
    notes.append(f"Total: Inform {trace.outcome.inform['total']}, Success "
                 f"{trace.outcome.success['total']}{paper}.")
    notes.append(f"Same trace as text: mwzrepro explain <{system} predictions.json> "
                 f"{trace.dialogue_id} --version {version}.")
    return notes
