"""The first step of every evaluation: a prediction mapping validated whole, normalized and
prepared for the metrics, without modifying it (spec-standard-evaluation §2–§3, §8).

:func:`prepare_input` reads the input's shape (:func:`mwzrepro.scorer.inputs.read_shape`),
checks the turn counts against the test set, delexicalizes lexicalized responses when asked
(:mod:`mwzrepro.scorer.lexicalized.delexicalize_pass`), builds the ``predictions`` columns
(:func:`mwzrepro.prepare.predictions.prediction_columns`), measures the coverage and prepares
the dialogues of Inform/Success (:func:`mwzrepro.standard.inputs.prepare_predictions`).
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from mwzrepro.core.errors import InputError
from mwzrepro.core.gc_pause import paused_gc
from mwzrepro.scorer.inputs import (
    ACCEPTED_SHAPES,
    PreparedInput,
    check_turns,
    coverage_of,
    read_shape,
)

if TYPE_CHECKING:
    from mwzrepro.scorer.resources.resource_set import VersionResources

__all__ = ["PreparedInput", "prepare_input"]

log = logging.getLogger("mwzrepro")


def prepare_input(data: Mapping[str, Any], source: str, resources: VersionResources, *,
                  allow_missing_turns: bool, strict: bool, lexicalized: bool,
                  placeholders: str, domain_source: str) -> PreparedInput:
    """Validate, normalize and prepare one prediction mapping; ``data`` is never modified.

    Args:
        data: ``{dialogue id: [{"response": ..., "state": ..., "active_domains": ...}]}`` or
            another accepted shape (:data:`mwzrepro.scorer.inputs.ACCEPTED_SHAPES`).
        source: file label for messages.
        resources: the version's evaluation resources.
        allow_missing_turns, strict: how partial coverage is treated.
        lexicalized: delexicalize every response first (lex:1).
        placeholders: ``reference`` or ``extended`` (§3.2).
        domain_source: active domains of the standard setting (§8).

    Raises:
        InputError: a malformed input, unknown ids, wrong turn counts, partial coverage under
            ``strict`` (one line naming the file and dialogues).
    """
    try:
        with paused_gc():
            return _prepare(data, source, resources, allow_missing_turns, strict, lexicalized,
                            placeholders, domain_source)
    except RecursionError:
        raise InputError(f"{source}: nested too deeply to be a prediction file; "
                         f"{ACCEPTED_SHAPES}") from None


def _prepare(data: Mapping[str, Any], source: str, resources: VersionResources,
             allow_missing_turns: bool, strict: bool, lexicalized: bool, placeholders: str,
             domain_source: str) -> PreparedInput:
    from mwzrepro.prepare.predictions import prediction_columns
    from mwzrepro.standard.inputs import prepare_predictions

    data, shape = read_shape(data, source)
    if shape == "legacy":
        log.info("%s: legacy generation file {\"ID.json\": [\"response\", ...]}: %d "
                 "dialogue(s) read as responses without states", source, len(data))
    expected = resources.expected
    truncated = check_turns(data, expected, source, allow_missing_turns)
    if lexicalized:
        from mwzrepro.scorer.lexicalized.delexicalize_pass import delexicalize_predictions

        data, _ = delexicalize_predictions(data, resources)
    unknown: Counter[str] = Counter()
    preds, _ = prediction_columns(dict(data), expected, source, allow_missing_turns=True,
                                  unknown_placeholders=unknown, placeholders=placeholders)
    counts = dict(Counter(preds["dialogue_id"]))  # first-appearance order
    coverage = coverage_of(counts, preds["response"], expected,
                           [d for d in truncated if d in counts])
    if strict and not coverage.complete:
        short = (f" (fewer turns: {', '.join(coverage.truncated_dialogues[:10])})"
                 if coverage.truncated_dialogues else "")
        raise InputError(f"{source}: coverage is {coverage.signature_value()}{short} and "
                         "--strict (strict=True) requires every test dialogue and turn")
    ev = resources.eval
    prep = prepare_predictions(preds, ev.gold, domain_source, ev.turn_domains, list(counts),
                               where=source)
    return PreparedInput(preds, prep, coverage, unknown)
