"""The warnings a run adds about the dialect of its input: predicted-state domains
and slots the ontology does not know (:mod:`mwzrepro.core.state_dialects`, one line each, with
counts) and, for a file scored without ``--lexicalized`` whose responses look lexicalized, the
evidence and the figures with the option (:mod:`mwzrepro.scorer.lexicalized.detect`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from mwzrepro.core.placeholders import signature_fields
from mwzrepro.core.state_dialects import cells_have_unknown, scan_predictions, state_warnings

if TYPE_CHECKING:
    from mwzrepro.scorer.context import ScoringContext

__all__ = ["dialect_warnings", "DialectReport"]


class DialectReport(NamedTuple):
    """What a run learns about its input's dialect, from one scan of its states.

    Attributes:
        lines: warning lines (state dialects, then the lexicalized-file line).
        state_fields: the signature field of the vocabulary (``{"ph": "ext"}``) for the
            state-based blocks (the reference evaluator's state metrics and the DST
            metrics), only when ``extended`` changed a predicted state (resolved or dropped
            an unknown name); ``{}`` otherwise, so a file without unknown names keeps its
            signatures.
        has_unknown: under ``reference``, whether a predicted state names a domain or slot
            outside the ontology (:func:`~mwzrepro.core.state_dialects.cells_have_unknown`,
            reused by the ``extended`` pass); None under ``extended`` (not checked).
        lexicalized: the lexicalized-file line (also the last of ``lines``), None when the
            detector did not fire: the figures of the run carry it on stdout too.
    """

    lines: list[str]
    state_fields: dict[str, str]
    has_unknown: bool | None = None
    lexicalized: str | None = None


def dialect_warnings(evaluator: ScoringContext, data: Mapping[str, Any],
                     preds: Mapping[str, list], source: str) -> DialectReport:
    """The :class:`DialectReport` of ``data`` (the prediction mapping as given; ``preds`` its
    ``predictions`` columns): the state-dialect lines, then the lexicalized-file line (not
    under ``lexicalized``, and only when BLEU or Inform/Success are computed). The states are
    scanned at most once (under ``reference`` only when a cheap check finds an unknown name).
    """
    placeholders = evaluator.standard.placeholders
    lines: list[str] = []
    fields: dict[str, str] = {}
    hint_line = None
    # under reference the column holds the states as given: a cheap check first
    unknown = cells_have_unknown(preds["state_json"]) if placeholders == "reference" else None
    if unknown is not False:
        found = scan_predictions(data)
        lines += state_warnings(found, source, placeholders)
        fields = signature_fields(placeholders) if found else {}
    if not evaluator.lexicalized and (evaluator.metrics["bleu"] or evaluator.metrics["success"]):
        from mwzrepro.scorer.lexicalized.detect import lexicalized_hint

        hint = lexicalized_hint(evaluator, data, preds["response"], source)
        if hint is not None:
            hint_line = hint.line(source)
            lines.append(hint_line)
    return DialectReport(lines, fields, unknown, hint_line)
