"""One system's (or the reference corpus's) standard-evaluation scores from the pipeline's
tables: what the ``score-success`` and ``score-richness`` phases compute, without file paths.

* :class:`EvalResources` — a version's evaluator resources (goals §5.2, booked domains §5.3,
  gold states §5.4, ground-truth turn domains §10) as the scorers' dicts, built once and
  shared by every system scored against that version;
* :func:`score_success` — Inform/Success in the standard and optimistic settings, coverage
  rows and, for systems with their own states, the §13 state metrics: the ``scores`` rows,
  the ``success_dialogues`` rows and the Parquet metadata;
* :func:`score_richness` — lexical richness (§12) of a system's normalized responses in the
  prediction file's dialogue order, or of a version's normalized references.

Scoring several systems in one process with one :class:`EvalResources` and one venue
database gives the same numbers as scoring each alone: both are read-only, and the database's
memo only caches pure query results.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mwzrepro.standard.booked import booked_domains_to_dict
from mwzrepro.standard.goals import eval_goals_to_dict
from mwzrepro.standard.gold_states import gold_states_to_dict
from mwzrepro.standard.inform_success import DIALOGUE_COLUMNS, VenueQuery
from mwzrepro.standard.inputs import (
    PreparedDialogues,
    dialogue_order,
    prepare_predictions,
    prepare_references,
)
from mwzrepro.standard.scores import (
    SCORE_COLUMNS,
    coverage_rows,
    richness_scores,
    state_match_rows,
    success_rows,
)

if TYPE_CHECKING:  # the scorer builds EvalResources without pandas or pydantic
    import pandas as pd

    from mwzrepro.standard.params import InformParams, StandardParams

__all__ = ["EvalResources", "SuccessResult", "score_success", "success_inputs",
           "score_prepared", "score_richness",
           "expected_from_coverage", "ORACLE", "REFERENCE"]

#: System name of the reference corpus scored as a system (Inform/Success "oracle" row).
ORACLE = "oracle"
#: System name of a version's reference corpus in the richness scores.
REFERENCE = "reference"


@dataclass(frozen=True)
class EvalResources:
    """A version's evaluator resources as dicts (read-only once built).

    Attributes:
        goals: ``{dialogue_id: {domain: goal}}`` (:func:`~mwzrepro.standard.goals.eval_goals_to_dict`).
        booked: ``{dialogue_id: [[domain, ...] per system turn]}``.
        gold: ``{dialogue_id: [normalized gold state per system turn]}``.
        turn_domains: ground-truth active domains, same shape as ``booked``, or None.
    """

    goals: Mapping[str, Any]
    booked: Mapping[str, Sequence[Sequence[str]]]
    gold: Mapping[str, Sequence[Mapping[str, Any]]]
    turn_domains: Mapping[str, Sequence[Sequence[str]]] | None = None

    @classmethod
    def from_tables(cls, eval_goals: pd.DataFrame, booked_domains: pd.DataFrame,
                    gold_states: pd.DataFrame | None,
                    turn_domains: pd.DataFrame | None = None) -> EvalResources:
        """Build from the ``eval_goals``, ``booked_domains``, ``gold_states`` and (optional)
        ``turn_domains`` tables of the ``goals`` phase (``gold_states`` None: no gold states,
        for scoring prepared dialogues, :func:`score_prepared`).

        Raises:
            InputError: a table's turns of a dialogue are not 0..n-1.
        """
        return cls(eval_goals_to_dict(eval_goals), booked_domains_to_dict(booked_domains),
                   {} if gold_states is None else gold_states_to_dict(gold_states),
                   None if turn_domains is None else booked_domains_to_dict(turn_domains))


@dataclass(frozen=True)
class SuccessResult:
    """Output of :func:`score_success`.

    Attributes:
        scores: ``scores`` rows (inform/success per setting and domain, coverage, and the
            §13 state metrics when the system's own states were used).
        per_dialogue: ``success_dialogues`` rows (setting, dialogue_id, domain, inform,
            success).
        metadata: Parquet metadata of both tables: ``signatures`` (``{metric/setting:
            signature}``, sorted), ``state_source``, ``domain_source``.
        summary: one log line with the totals (percent).
    """

    scores: pd.DataFrame
    per_dialogue: pd.DataFrame
    metadata: dict[str, Any]
    summary: str


def expected_from_coverage(coverage: pd.DataFrame) -> dict[str, int]:
    """``{dialogue_id: expected system turns}`` of a ``coverage`` table."""
    return dict(zip(coverage["dialogue_id"], coverage["expected_turns"].astype(int)))


def score_success(system: str, version: str, resources: EvalResources, database: VenueQuery,
                  inform: InformParams, standard: StandardParams,
                  predictions: pd.DataFrame | None = None,
                  references: pd.DataFrame | None = None,
                  expected: Mapping[str, int] | None = None, where: str = "") -> SuccessResult:
    """Inform/Success of one system (``predictions``) or of the reference corpus
    (``references``, the oracle row) on one version, spec-standard-evaluation §9–10, §13:
    :func:`success_inputs`, then :func:`score_prepared`.

    The standard setting uses the system's active-domain source
    (:meth:`StandardParams.domain_source`; for the reference corpus ``auto`` means
    ``estimated``); the optimistic setting uses the ground-truth turn domains when
    ``resources.turn_domains`` is given. ``database`` must be built with ``inform.matching``
    and ``inform.fuzzy_threshold`` (they are recorded in the signatures).

    Args:
        expected: ``{dialogue_id: expected turns}`` (:func:`expected_from_coverage`) for the
            coverage rows ``expected``; None leaves them out.
        where: file label for error messages.

    Raises:
        ValueError: neither or both of ``predictions`` and ``references`` given.
        InputError: see :func:`~mwzrepro.standard.inputs.prepare_predictions` and
            :func:`~mwzrepro.standard.scores.success_rows`.
    """
    prep, rows = success_inputs(system, version, resources, inform.matching, standard,
                                predictions, references, expected, where)
    return score_prepared(system, version, prep, rows, resources, database, inform)


def success_inputs(system: str, version: str, resources: EvalResources, matching: str,
                   standard: StandardParams, predictions: pd.DataFrame | None = None,
                   references: pd.DataFrame | None = None,
                   expected: Mapping[str, int] | None = None, where: str = ""
                   ) -> tuple[PreparedDialogues, list[dict[str, Any]]]:
    """What :func:`score_success` computes without the fuzzy threshold: the prepared
    dialogues of the standard setting and the coverage and §13 state-metric ``scores`` rows
    (:mod:`mwzrepro.standard.success_inputs`). Arguments and errors as :func:`score_success`
    (``matching``: ``inform.matching``)."""
    if (predictions is None) == (references is None):
        raise ValueError("score_success: give exactly one of predictions and references")
    source = standard.domain_source(system)
    if predictions is not None:
        prep = prepare_predictions(predictions, resources.gold, source, where=where)
    else:
        prep = prepare_references(references, resources.gold,
                                  "estimated" if source == "auto" else source, where=where)
    rows = coverage_rows(system, version, prep, expected)
    rows += state_match_rows(system, version, prep, resources.gold, matching,
                             standard.state_match_threshold)  # none for gold states
    return prep, rows


def score_prepared(system: str, version: str, prep: PreparedDialogues,
                   rows: Sequence[Mapping[str, Any]], resources: EvalResources,
                   database: VenueQuery, inform: InformParams) -> SuccessResult:
    """Inform/Success of prepared dialogues in the standard setting and (with
    ``resources.turn_domains``) the optimistic one, followed by ``rows`` (the
    threshold-independent rows of :func:`success_inputs`). See :func:`score_success`.

    Raises:
        InputError: see :func:`~mwzrepro.standard.scores.success_rows`.
    """
    settings: dict[str, PreparedDialogues] = {"standard": prep}
    if resources.turn_domains is not None:
        settings["optimistic"] = prep.for_setting("optimistic", resources.turn_domains)
    matching, threshold = inform.matching, inform.fuzzy_threshold
    all_rows, per_setting = success_rows(system, version, settings, resources.goals,
                                         resources.booked, database, matching, threshold)
    all_rows += [dict(r) for r in rows]
    import pandas as pd

    table = pd.DataFrame(all_rows, columns=SCORE_COLUMNS)
    per_dialogue = pd.DataFrame([r for per in per_setting.values() for r in per],
                                columns=DIALOGUE_COLUMNS)
    sigs = dict(zip(table["metric"] + "/" + table["setting"], table["signature"]))
    meta = {"signatures": dict(sorted(sigs.items())), "state_source": prep.state_source,
            "domain_source": prep.domain_source}
    tot = {(r["metric"], r["setting"]): r["value"] for r in all_rows if r["key"] == "total"}
    nan = float("nan")
    summary = (
        f"{system} on {version} ({prep.state_source} states, {prep.domain_source} domains): "
        f"standard {tot.get(('inform', 'standard'), nan):.1f}/"
        f"{tot.get(('success', 'standard'), nan):.1f}, optimistic "
        f"{tot.get(('inform', 'optimistic'), nan):.1f}/"
        f"{tot.get(('success', 'optimistic'), nan):.1f}")
    return SuccessResult(table, per_dialogue, meta, summary)


def score_richness(system: str, table: pd.DataFrame, column: str, window: int,
                   version: str | None = None, order: Sequence[str] | None = None
                   ) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Lexical richness (spec §12) of ``table[column]`` (a ``predictions`` table's
    ``response_norm`` or a ``references`` table's ``reference``).

    Dialogues are taken in ``order`` (the prediction file's key order, kept by the
    ``predictions`` phase in the Parquet metadata; MSTTR depends on it) with the others
    after them in sorted id order, or in sorted id order when ``order`` is None; turns in
    order within a dialogue.

    Returns:
        ``(scores rows, Parquet metadata {"signature", "dialogue_order": "file"|"sorted"})``.

    Raises:
        InputError: no responses.
    """
    ids = dialogue_order(sorted(table["dialogue_id"].unique()), order)
    rank = {d: i for i, d in enumerate(ids)}
    df = table.assign(_rank=table["dialogue_id"].map(rank)).sort_values(
        ["_rank", "turn"], kind="mergesort")
    scores = richness_scores(system, df[column].tolist(), version, window)
    meta = {"signature": scores["signature"].iloc[0],
            "dialogue_order": "file" if order else "sorted"}
    return scores, meta
