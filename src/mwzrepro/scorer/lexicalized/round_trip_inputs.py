"""What the round trip (:mod:`mwzrepro.scorer.lexicalized.round_trip`) reads of a system's
delexicalized output besides its text, computed once and without the database's fuzzy
matching: the parts of ``inform_success_grounded`` that no ``inform.*`` parameter changes.

For one prediction mapping with predicted states (:func:`round_trip_inputs`):

* ``heard``: ``{dialogue id as in the file: [{domain: [entity id, ...]} per turn]}``, the
  venues the user names before each turn (:func:`~mwzrepro.scorer.lexicalized.grounding.
  user_named`), then those the system's own response names in words (lex:1 links of the
  response with the turn's predicted state);
* ``domains``: ``{dialogue id as in the file: [[domain] or [] per turn]}``, the reference
  evaluator's active-domain estimate from the predicted states (spec-standard-evaluation
  §8), malformed states counting as empty;
* ``own``: ``{canonical dialogue id: [[[slot, comparable value, count], ...] per turn]}``,
  the values the responses already give in words (lex:1 links; the column ``filled attribute
  accuracy %`` leaves them out).

Each is a lex:1 link of the file's own responses (the lexicon of the database's raw entities)
or a reading of its states: no database query, so no fuzzy matching. The pipeline computes
them in the step ``grounded-inputs``, which a change of ``inform.fuzzy_threshold`` does not
rerun; ``tables-grounded`` reads them (:func:`read_round_trip_inputs`). The file records the
SHA-256 of the prediction file it was computed from, so inputs of another file are refused.

Addendum (this module): ``round_trip/<system>.json`` of the ``grounded-inputs`` output,
``{"predictions_sha256": hex, "heard": ..., "domains": ..., "own": ...}`` (a file without
predicted states: ``{"predictions_sha256": hex, "states": false}``; JSON, in the
order computed: the order of a turn's heard domains is the order the fill reads them).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mwzrepro.core.errors import InputError
from mwzrepro.core.ids import canonical_dialogue_id

__all__ = ["round_trip_inputs", "own_in_words", "own_counters", "write_round_trip_inputs",
           "check_round_trip_inputs", "read_round_trip_inputs"]


def _heard(data: Mapping[str, Any], resources: Any,
           links: Mapping[str, list[Any]]) -> dict[str, list[dict[str, list[str]]]]:
    """``heard`` of the module docstring from the links of ``data``."""
    from mwzrepro.scorer.lexicalized.grounding import user_named
    from mwzrepro.standard.grounded import named_venues

    users = user_named(resources)
    out = {}
    for raw_id in data:
        did = canonical_dialogue_id(raw_id)
        heard, own = users.get(did, []), links.get(did, [])
        out[raw_id] = [{**(heard[t] if t < len(heard) else {}),
                        **named_venues(own[t].spans)} for t in range(len(own))]
    return out


def _estimated(data: Mapping[str, Any]) -> dict[str, list[list[str]]]:
    """``domains`` of the module docstring."""
    from mwzrepro.core.normalize_state import normalize_state
    from mwzrepro.standard.active_domains import estimate_from_states

    def normalized(turn: Any) -> dict[str, Any]:
        state = turn.get("state") if isinstance(turn, Mapping) else None
        try:
            return normalize_state({d: {k: v for k, v in s.items() if isinstance(v, str)}
                                    for d, s in state.items() if isinstance(s, Mapping)})
        except (AttributeError, TypeError, ValueError, InputError):
            return {}

    return {did: estimate_from_states([normalized(t) for t in turns])
            for did, turns in data.items() if isinstance(turns, list)}


def round_trip_inputs(data: Mapping[str, Any], resources: Any) -> dict[str, Any]:
    """``{"heard", "domains", "own"}`` of a delexicalized prediction mapping (module
    docstring; JSON-ready), with the lexicon and user utterances of ``resources`` (a
    :class:`~mwzrepro.scorer.resources.resource_set.VersionResources`). Each response is linked
    once."""
    from mwzrepro.scorer.lexicalized.grounding import link_predictions

    links = link_predictions(data, resources)
    return {"heard": _heard(data, resources, links), "domains": _estimated(data),
            "own": own_in_words(links)}


def own_in_words(links: Mapping[str, list[Any]]) -> dict[str, list[list[list[Any]]]]:
    """``own`` of the module docstring (``{canonical dialogue id: [[[slot, comparable value,
    count], ...] per turn]}``, JSON-ready) from the lex:1 links of a delexicalized prediction
    mapping's responses (:func:`~mwzrepro.scorer.lexicalized.grounding.link_predictions`)."""
    from mwzrepro.standard.grounded_values import value_key

    return {did: [[[slot, key, n] for (slot, key), n in
                   Counter((s.slot, value_key(s.slot, s.text)) for s in r.spans).items()]
                  for r in turns]
            for did, turns in links.items()}


def own_counters(inputs: Mapping[str, Any]) -> dict[tuple[str, int], Counter[tuple[str, str]]]:
    """``{(canonical dialogue id, turn): Counter((slot, comparable value))}`` of the ``own``
    part of :func:`round_trip_inputs` (a fresh Counter per turn: the caller may consume it).

    >>> own_counters({"own": {"sng01": [[], [["phone", "01223", 1]]]}})[("sng01", 1)]
    Counter({('phone', '01223'): 1})
    """
    return {(did, t): Counter({(slot, key): n for slot, key, n in turn})
            for did, turns in inputs["own"].items() for t, turn in enumerate(turns)}


def write_round_trip_inputs(inputs: Mapping[str, Any], predictions: Path, path: Path) -> None:
    """Write :func:`round_trip_inputs` of the file ``predictions`` to ``path`` (module
    docstring's addendum), atomically."""
    from mwzrepro.core.io import dumps_json, write_text
    from mwzrepro.scorer.resources.cache import sha256_file

    write_text(dumps_json({"predictions_sha256": sha256_file(predictions), **inputs},
                          indent=None), path)


def check_round_trip_inputs(path: Path, predictions: Path) -> None:
    """Check that ``path`` exists (before any work; :func:`read_round_trip_inputs` checks
    its content when it reads it).

    Raises:
        InputError: ``path`` is missing (one line naming it and ``predictions``).
    """
    if not path.is_file():
        raise InputError(f"{path}: missing; the round-trip inputs of {predictions} are "
                         "written by `mwzrepro grounded-inputs`")


def read_round_trip_inputs(path: Path, predictions: Path) -> dict[str, Any]:
    """The inputs :func:`write_round_trip_inputs` wrote for the file ``predictions``.

    Raises:
        InputError: ``path`` is missing, or was computed from another version of the file
            (its SHA-256 differs): one line naming both.
    """
    import json

    from mwzrepro.scorer.resources.cache import sha256_file

    check_round_trip_inputs(path, predictions)
    stored = json.loads(path.read_text(encoding="utf-8"))
    if stored.get("predictions_sha256") != sha256_file(predictions):
        raise InputError(f"{path}: computed from another version of {predictions} "
                         "(SHA-256 differs); run `mwzrepro grounded-inputs` again")
    return stored
