"""The warnings a run adds about the dialect of its input (issue 28): predicted-state domains
and slots the ontology does not know (:mod:`mwzrepro.core.state_dialects`, one line each, with
counts) and, for a file scored without ``--lexicalized`` whose responses look lexicalized, the
evidence and the figures with the option (:mod:`mwzrepro.scorer.lexicalized_detect`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from mwzrepro.core.placeholders import signature_fields
from mwzrepro.core.state_dialects import cells_have_unknown, scan_predictions, state_warnings

if TYPE_CHECKING:
    from mwzrepro.scorer.context import ScoringContext

__all__ = ["dialect_warnings", "state_signature_fields"]


def dialect_warnings(evaluator: ScoringContext, data: Mapping[str, Any],
                     preds: Mapping[str, list], source: str) -> list[str]:
    """Warning lines about ``data`` (the prediction mapping as given; ``preds`` its
    ``predictions`` columns): the state-dialect lines, then the lexicalized-file line (not
    under ``lexicalized``, and only when BLEU or Inform/Success are computed)."""
    placeholders = evaluator.standard.placeholders
    lines = []
    # under reference the column holds the states as given: a cheap check first
    if placeholders != "reference" or cells_have_unknown(preds["state_json"]):
        lines += state_warnings(scan_predictions(data), source, placeholders)
    if not evaluator.lexicalized and (evaluator.metrics["bleu"] or evaluator.metrics["success"]):
        from mwzrepro.scorer.lexicalized_detect import lexicalized_hint

        hint = lexicalized_hint(evaluator, data, preds["response"], source)
        if hint is not None:
            lines.append(hint.line(source))
    return lines


def state_signature_fields(data: Mapping[str, Any], placeholders: str) -> dict[str, str]:
    """The signature field of the vocabulary (``ph:ext``) for the state-based blocks (the
    reference evaluator's state metrics and the DST metrics): only when ``extended`` changed a
    predicted state of ``data`` (it resolved or dropped an unknown name); ``{}`` otherwise, so
    that a file without unknown names keeps its signatures."""
    fields = signature_fields(placeholders)
    return fields if fields and scan_predictions(data) else {}
