"""The rows of ``inform_success_grounded`` (:mod:`mwzrepro.scorer.lexicalized.grounded_table`),
each scored once, the rows in parallel.

:func:`grounded_rows` scores every row of the table with one lexicalized evaluator
(``setting="all"``, or only its ``standard`` and ``grounded`` settings, the table's two:
``tables-grounded`` narrows ``evaluator.settings`` so that no optimistic figure is computed
that the table does not show): the corpus's own text, each lexicalized file as given, and
each round-trip system (its delexicalized output filled from its own predicted states,
:func:`~mwzrepro.scorer.lexicalized.round_trip.round_trip`). A round-trip row is prepared once
for its scores and its filled attribute accuracy, and its text linked once (the lex:1 links
are memoized per process: the evaluation's delexicalization, the grounding and the filled
accuracy read the same pass). What the rows share (the evaluator's resources, venue
database, lexicon and grounding tables) is loaded before the rows are forked
(:func:`mwzrepro.core.workers.fork_map`), so each worker inherits it; every row is computed
by the same functions on the same inputs as in one process, so the numbers are the same.

With a memo (:mod:`mwzrepro.scorer.lexicalized.grounded_memo`) each row's worker reads the
row's fills, preparations and scores of the last run, dialogue by dialogue, and keeps this
run's (:mod:`mwzrepro.prepare.delex.fill_memo`,
:mod:`mwzrepro.scorer.lexicalized.prepared_memo`,
:mod:`mwzrepro.scorer.lexicalized.dialogue_score_memo`); the parent reads none of it. The same
numbers, with only what the threshold changed recomputed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from mwzrepro.core.gc_pause import paused_gc
from mwzrepro.scorer.lexicalized.grounded_table import ORACLE_ROW, corpus_text, has_states
from mwzrepro.scorer.scoring import score_prepared

if TYPE_CHECKING:
    from mwzrepro.scorer.evaluator import Evaluator
    from mwzrepro.scorer.lexicalized.grounded_memo import GroundedMemo

__all__ = ["GroundedInput", "grounded_rows"]

log = logging.getLogger("mwzrepro")

#: Source label of the rows in messages (as :meth:`Evaluator.evaluate
#: <mwzrepro.scorer.evaluator.Evaluator.evaluate>` names a mapping).
SOURCE = "<predictions>"


class GroundedInput(NamedTuple):
    """One row to score.

    Attributes:
        label: the row's label (``input`` column).
        kind: ``"as given"`` (a lexicalized file) or ``"filled"`` (a round-trip system).
        data: the prediction mapping, or the path of its JSON file (read in the row's
            worker: the files are parsed in parallel).
        inputs: of a ``filled`` row, :func:`~mwzrepro.scorer.lexicalized.round_trip_inputs.
            round_trip_inputs` of ``data``, or the path of the file ``grounded-inputs``
            wrote them to for the file ``data`` (read and checked in the row's worker), or
            None (computed in the row's worker). A system without predicted states (so
            marked there, or by its file) gives no row.
    """

    label: str
    kind: str
    data: Mapping[str, Any] | Path
    inputs: Mapping[str, Any] | Path | None = None


def _data(row: GroundedInput) -> Mapping[str, Any]:
    """The row's prediction mapping (its file read when ``data`` is a path).

    Raises:
        InputError: the file cannot be read as JSON (one line naming it,
            :func:`~mwzrepro.scorer.prediction_file.read_predictions`).
    """
    from mwzrepro.scorer.prediction_file import read_predictions

    return read_predictions(row.data) if isinstance(row.data, Path) else row.data


def _warm(evaluator: Evaluator) -> None:
    """Load what every row reads, once, before the workers fork."""
    from mwzrepro.scorer.lexicalized.delexicalize_pass import delexicalizer_of
    from mwzrepro.scorer.lexicalized.grounding import reference_values, user_named

    res = evaluator.resources
    res.reference_columns, res.expected, res.eval  # noqa: B018 (cached properties)
    len(res.eval.gold), len(res.eval.turn_domains)
    evaluator._database()
    delexicalizer_of(res)
    user_named(res), reference_values(res)


def _scored(evaluator: Evaluator, data: Mapping[str, Any], label: str,
            memo: GroundedMemo | None, anew: dict[str, int]) -> Any:
    """``score_prepared`` of ``data``; with a memo, the preparation from the row's
    preparations of the last run (:mod:`~mwzrepro.scorer.lexicalized.prepared_memo`) and the
    dialogues' scores from the row's scores of the last run
    (:mod:`~mwzrepro.scorer.lexicalized.dialogue_score_memo`), where they hold; each file is
    written again when it is worth it (:func:`~mwzrepro.scorer.lexicalized.grounded_memo.
    worth_writing`), and ``anew`` receives how many dialogues were prepared (``prepared``)
    and dialogue figures scored (``scored``) anew."""
    if memo is None:
        return score_prepared(evaluator, data, evaluator._prepare(data, SOURCE), label, SOURCE)
    from mwzrepro.scorer.lexicalized.dialogue_score_memo import load_scores, save_scores
    from mwzrepro.scorer.lexicalized.grounded_memo import worth_writing
    from mwzrepro.scorer.lexicalized.prepared_memo import load_prepared, save_prepared

    kept = load_prepared(memo.directory, label, memo.key, evaluator)
    prepared = kept.prepare(evaluator, data, SOURCE)
    if worth_writing(len(kept.entries), len(kept.used), kept.anew):
        save_prepared(kept, memo.directory, label, memo.key, evaluator)
    scores = load_scores(memo.directory, label, memo.key, evaluator, kept.keys)
    result = score_prepared(evaluator, data, prepared, label, SOURCE, memo=scores)
    if worth_writing(len(scores.entries), len(scores.used), scores.anew):
        save_scores(scores, memo.directory, label, memo.key, evaluator)
    anew.update(prepared=kept.anew, scored=scores.anew)
    return result


def _filled(data: Mapping[str, Any], evaluator: Evaluator, inputs: Mapping[str, Any],
            label: str, memo: GroundedMemo | None, anew: dict[str, int]) -> dict[str, Any]:
    """``round_trip(data, evaluator, inputs)``; with a memo, each dialogue's fill from the
    row's fills of the last run where its queries answer as then
    (:mod:`mwzrepro.prepare.delex.fill_memo`), the file written again when it is worth it,
    and ``anew["filled"]``: how many dialogues were filled anew."""
    from mwzrepro.scorer.lexicalized.round_trip import round_trip

    if memo is None:
        return round_trip(data, evaluator, inputs)
    from mwzrepro.prepare.delex.fill_memo import FillMemo
    from mwzrepro.scorer.lexicalized.grounded_memo import read_row, worth_writing, write_row

    fills = FillMemo(read_row(memo.directory, "fills", label, memo.key))
    held = len(fills.entries)
    lexical = round_trip(data, evaluator, inputs, fills)
    if worth_writing(held, len(fills.used), len(fills.added)):
        write_row(memo.directory, "fills", label, memo.key, fills.used)
    anew["filled"] = len(fills.added)
    return lexical


def _row(evaluator: Evaluator, row: GroundedInput | None, memo: GroundedMemo | None = None
         ) -> tuple[dict[str, Any] | None, dict[str, Any] | None, dict[str, int]]:
    """``(result.to_dict(), filled attribute accuracy or None, what was made anew)`` of one
    row (None: the corpus's own text, as ``evaluator.evaluate`` scores it; ``(None, None,
    {})``: a system its stored inputs mark as without predicted states); ``memo``: the row's
    fills, preparations and scores of the last run, read and kept (``{"filled",
    "prepared", "scored"}``: how many dialogues or dialogue figures were made anew)."""
    from mwzrepro.scorer.lexicalized.round_trip import filled_accuracy
    from mwzrepro.scorer.lexicalized.round_trip_inputs import (
        read_round_trip_inputs,
        round_trip_inputs,
    )

    anew: dict[str, int] = {}
    if row is None:
        corpus = corpus_text(evaluator.resources)
        with paused_gc():
            result = _scored(evaluator, corpus, ORACLE_ROW, memo, anew)
        return result.to_dict(), None, anew
    inputs = row.inputs
    if isinstance(inputs, Path):
        inputs = read_round_trip_inputs(inputs, row.data)  # type: ignore[arg-type]
    data = None if inputs is not None and inputs.get("states") is False else _data(row)
    if row.kind != "filled":
        return evaluator.evaluate(data, row.label).to_dict(), None, anew
    if data is None or (inputs is None and not has_states(data)):
        log.info("tables-grounded: %s gives no predicted states, left out", row.label)
        return None, None, anew
    with paused_gc():
        if inputs is None:
            inputs = round_trip_inputs(data, evaluator.resources)
        lexical = _filled(data, evaluator, inputs, row.label, memo, anew)
        result = _scored(evaluator, lexical, row.label, memo, anew)
        filled = filled_accuracy(data, lexical, evaluator, row.label, inputs,
                                 checks=result.grounding.checks)
    return result.to_dict(), filled, anew


def grounded_rows(evaluator: Evaluator, rows: Sequence[GroundedInput],
                  jobs: int | None = None, memo: GroundedMemo | None = None,
                  meanwhile: Callable[[], Any] | None = None
                  ) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """Score the corpus's own text (:data:`ORACLE_ROW`) and ``rows`` with ``evaluator`` (a
    lexicalized evaluator whose settings hold ``standard`` and ``grounded``), the rows in
    forked workers (``jobs``: as :func:`~mwzrepro.core.workers.fork_map`); ``memo`` (of
    ``evaluator``'s resources, :func:`~mwzrepro.scorer.lexicalized.grounded_memo.open_memo`)
    is read and kept by each row's worker, and ``memo.anew`` receives the rows' counts of
    what they made anew; ``meanwhile``: work of this process while the rows are scored
    (:func:`~mwzrepro.core.workers.fork_map`).

    Returns:
        ``(results, filled)``: ``{label: result.to_dict()}`` (the oracle row first, then
        ``rows`` in order, but those of a system without predicted states) and ``{label:
        filled_accuracy(...)}`` of the ``filled`` rows — the arguments of
        :func:`~mwzrepro.scorer.lexicalized.grounded_table.grounded_table`.

    Raises:
        InputError: a malformed prediction mapping (as :meth:`Evaluator.evaluate
            <mwzrepro.scorer.evaluator.Evaluator.evaluate>`); stored inputs of another
            version of the file (:func:`~mwzrepro.scorer.lexicalized.round_trip_inputs.
            read_round_trip_inputs`).
    """
    from mwzrepro.core.workers import fork_map

    _warm(evaluator)
    items: list[GroundedInput | None] = [None, *rows]
    done = fork_map(lambda item: _row(evaluator, item, memo), items, jobs, meanwhile)
    results, filled = {}, {}
    for item, (result, accuracy, anew) in zip(items, done):
        if memo is not None:
            memo.anew.update(anew)
        if result is None:
            continue
        label = ORACLE_ROW if item is None else item.label
        results[label] = result
        if accuracy is not None:
            filled[label] = accuracy
    return results, filled
