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

With a memo (:mod:`mwzrepro.scorer.lexicalized.grounded_memo`) the links and fills of an
earlier run are seeded before the fork, each worker hands back what it added, and the memo
returns holding both; a memo read from a directory also gives each row's worker the row's
preparations and scores of the last run, dialogue by dialogue
(:mod:`mwzrepro.scorer.lexicalized.prepared_memo`,
:mod:`mwzrepro.scorer.lexicalized.dialogue_score_memo`). The same numbers, with only what the
threshold changed recomputed.
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


def _prepared(evaluator: Evaluator, data: Mapping[str, Any], label: str,
              memo: GroundedMemo | None) -> tuple[Any, Any]:
    """``(evaluator._prepare(data, SOURCE), the row's scores memo or None)``; with a memo kept
    in a directory, the preparation from the row's preparations of the last run, dialogue by
    dialogue (:mod:`~mwzrepro.scorer.lexicalized.prepared_memo`), and the row's dialogue
    scores of the last run (:mod:`~mwzrepro.scorer.lexicalized.dialogue_score_memo`). The
    row's preparations file is written again when it held nothing or more than an eighth of
    the dialogues were prepared anew: the few a threshold change brings are cheaper to
    prepare again next time than the file is to write."""
    if memo is None or memo.directory is None:
        return evaluator._prepare(data, SOURCE), None
    from mwzrepro.scorer.lexicalized.dialogue_score_memo import load_scores
    from mwzrepro.scorer.lexicalized.prepared_memo import load_prepared, save_prepared

    kept = load_prepared(memo.directory, label, memo.key, evaluator)
    prepared = kept.prepare(evaluator, data, SOURCE)
    if kept.anew * 8 > len(kept.used) or not kept.entries:
        save_prepared(kept, memo.directory, label, memo.key, evaluator)
    return prepared, load_scores(memo.directory, label, memo.key, evaluator, kept.keys)


def _scored(evaluator: Evaluator, data: Mapping[str, Any], label: str,
            memo: GroundedMemo | None) -> Any:
    """``score_prepared`` of ``data`` (its preparation and dialogue scores from the memo where
    they hold, :func:`_prepared`), the memo's files written when they need to be."""
    prepared, scores = _prepared(evaluator, data, label, memo)
    result = score_prepared(evaluator, data, prepared, label, SOURCE, memo=scores)
    if scores is not None:
        from mwzrepro.scorer.lexicalized.dialogue_score_memo import save_scores

        assert memo is not None and memo.directory is not None
        save_scores(scores, memo.directory, label, memo.key, evaluator)
    return result


def _row(evaluator: Evaluator, row: GroundedInput | None, memo: GroundedMemo | None = None
         ) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """``(result.to_dict(), filled attribute accuracy or None)`` of one row (None: the
    corpus's own text, as ``evaluator.evaluate`` scores it; ``(None, None)``: a system its
    stored inputs mark as without predicted states); ``memo``: the fill memo's (seeded)
    entries to read and add to, and the rows' preparations."""
    from mwzrepro.scorer.lexicalized.round_trip import filled_accuracy, round_trip
    from mwzrepro.scorer.lexicalized.round_trip_inputs import (
        read_round_trip_inputs,
        round_trip_inputs,
    )

    if row is None:
        corpus = corpus_text(evaluator.resources)
        with paused_gc():
            result = _scored(evaluator, corpus, ORACLE_ROW, memo)
        return result.to_dict(), None
    inputs = row.inputs
    if isinstance(inputs, Path):
        inputs = read_round_trip_inputs(inputs, row.data)  # type: ignore[arg-type]
    data = None if inputs is not None and inputs.get("states") is False else _data(row)
    if row.kind != "filled":
        return evaluator.evaluate(data, row.label).to_dict(), None
    if data is None or (inputs is None and not has_states(data)):
        log.info("tables-grounded: %s gives no predicted states, left out", row.label)
        return None, None
    with paused_gc():
        if inputs is None:
            inputs = round_trip_inputs(data, evaluator.resources)
        lexical = round_trip(data, evaluator, inputs, None if memo is None else memo.fills)
        result = _scored(evaluator, lexical, row.label, memo)
        filled = filled_accuracy(data, lexical, evaluator, row.label, inputs,
                                 checks=result.grounding.checks)
    return result.to_dict(), filled


def _memo_row(evaluator: Evaluator, row: GroundedInput | None, memo: GroundedMemo
              ) -> tuple[dict[str, Any] | None, dict[str, Any] | None, tuple[dict, dict]]:
    """:func:`_row` with ``memo``, and what the row added to it (``memo.take_added()``)."""
    result, filled = _row(evaluator, row, memo)
    return result, filled, memo.take_added()


def grounded_rows(evaluator: Evaluator, rows: Sequence[GroundedInput],
                  jobs: int | None = None, memo: GroundedMemo | None = None,
                  meanwhile: Callable[[], Any] | None = None
                  ) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """Score the corpus's own text (:data:`ORACLE_ROW`) and ``rows`` with ``evaluator`` (a
    lexicalized evaluator whose settings hold ``standard`` and ``grounded``), the rows in
    forked workers (``jobs``: as :func:`~mwzrepro.core.workers.fork_map`); ``memo`` (of
    ``evaluator``'s resources, :func:`~mwzrepro.scorer.lexicalized.grounded_memo.load_memo`)
    is read, and receives what the rows added; ``meanwhile``: work of this process while the
    rows are scored (:func:`~mwzrepro.core.workers.fork_map`).

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
    if memo is None:
        done = [(*out, None) for out in
                fork_map(lambda item: _row(evaluator, item), items, jobs, meanwhile)]
    else:
        from mwzrepro.scorer.lexicalized.delexicalize_pass import delexicalizer_of

        delexicalizer = delexicalizer_of(evaluator.resources)
        delexicalizer.use_store(memo.links)
        try:
            done = fork_map(lambda item: _memo_row(evaluator, item, memo), items, jobs,
                            meanwhile)
        finally:
            delexicalizer.use_store(None)
    results, filled = {}, {}
    for item, (result, accuracy, added) in zip(items, done):
        if memo is not None:
            memo.merge(added)
        if result is None:
            continue
        label = ORACLE_ROW if item is None else item.label
        results[label] = result
        if accuracy is not None:
            filled[label] = accuracy
    return results, filled
