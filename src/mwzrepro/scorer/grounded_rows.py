"""The rows of ``inform_success_grounded`` (:mod:`mwzrepro.scorer.lexicalized.grounded_table`),
each scored once, the rows in parallel.

:func:`grounded_rows` scores every row of the table with one lexicalized evaluator
(``setting="all"``): the corpus's own text, each lexicalized file as given, and each round-trip
system (its delexicalized output filled from its own predicted states,
:func:`~mwzrepro.scorer.lexicalized.round_trip.round_trip`). A round-trip row is prepared once
for its scores and its filled attribute accuracy, and its text linked once (the lex:1 links
are memoized per process: the evaluation's delexicalization, the grounding and the filled
accuracy read the same pass). What the rows share (the evaluator's resources, venue
database, lexicon and grounding tables) is loaded before the rows are forked
(:func:`mwzrepro.core.workers.fork_map`), so each worker inherits it; every row is computed
by the same functions on the same inputs as in one process, so the numbers are the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from mwzrepro.core.gc_pause import paused_gc
from mwzrepro.scorer.lexicalized.grounded_table import ORACLE_ROW, corpus_text
from mwzrepro.scorer.scoring import score_prepared

if TYPE_CHECKING:
    from mwzrepro.scorer.evaluator import Evaluator

__all__ = ["GroundedInput", "grounded_rows"]

#: Source label of the rows in messages (as :meth:`Evaluator.evaluate
#: <mwzrepro.scorer.evaluator.Evaluator.evaluate>` names a mapping).
SOURCE = "<predictions>"


class GroundedInput(NamedTuple):
    """One row to score.

    Attributes:
        label: the row's label (``input`` column).
        kind: ``"as given"`` (a lexicalized file) or ``"filled"`` (a round-trip system).
        data: the prediction mapping.
        inputs: of a ``filled`` row, :func:`~mwzrepro.scorer.lexicalized.round_trip_inputs.
            round_trip_inputs` of ``data`` (None: computed in the row's worker).
    """

    label: str
    kind: str
    data: Mapping[str, Any]
    inputs: Mapping[str, Any] | None = None


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


def _row(evaluator: Evaluator, row: GroundedInput | None
         ) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """``(result.to_dict(), filled attribute accuracy or None)`` of one row (None: the
    corpus's own text)."""
    from mwzrepro.scorer.lexicalized.round_trip import filled_accuracy, round_trip
    from mwzrepro.scorer.lexicalized.round_trip_inputs import round_trip_inputs

    if row is None:
        return evaluator.evaluate(corpus_text(evaluator.resources), ORACLE_ROW).to_dict(), None
    if row.kind != "filled":
        return evaluator.evaluate(row.data, row.label).to_dict(), None
    with paused_gc():
        inputs = row.inputs
        if inputs is None:
            inputs = round_trip_inputs(row.data, evaluator.resources)
        lexical = round_trip(row.data, evaluator, inputs)
        prepared = evaluator._prepare(lexical, SOURCE)
        result = score_prepared(evaluator, lexical, prepared, row.label, SOURCE)
        filled = filled_accuracy(row.data, lexical, evaluator, row.label, inputs,
                                 checks=result.grounding.checks)
    return result.to_dict(), filled


def grounded_rows(evaluator: Evaluator, rows: Sequence[GroundedInput],
                  jobs: int | None = None
                  ) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """Score the corpus's own text (:data:`ORACLE_ROW`) and ``rows`` with ``evaluator`` (a
    lexicalized evaluator, ``setting="all"``), the rows in forked workers (``jobs``: as
    :func:`~mwzrepro.core.workers.fork_map`).

    Returns:
        ``(results, filled)``: ``{label: result.to_dict()}`` (the oracle row first, then
        ``rows`` in order) and ``{label: filled_accuracy(...)}`` of the ``filled`` rows —
        the arguments of :func:`~mwzrepro.scorer.lexicalized.grounded_table.grounded_table`.

    Raises:
        InputError: a malformed prediction mapping (as :meth:`Evaluator.evaluate
            <mwzrepro.scorer.evaluator.Evaluator.evaluate>`).
    """
    from mwzrepro.core.workers import fork_map

    _warm(evaluator)
    items: list[GroundedInput | None] = [None, *rows]
    done = fork_map(lambda item: _row(evaluator, item), items, jobs)
    results, filled = {}, {}
    for item, (result, accuracy) in zip(items, done):
        label = ORACLE_ROW if item is None else item.label
        results[label] = result
        if accuracy is not None:
            filled[label] = accuracy
    return results, filled
