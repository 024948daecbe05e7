"""System outputs in the reference evaluator's input format → a validated ``predictions`` table.

Input (spec-standard-evaluation §2.1): ``{dialogue id: [{"response": str, "state": {...}
(optional), "active_domains": [...] (optional)}, ...]}``, one entry per system turn in order.

Validation against the test set (the system turns of a canonical ``turns`` table):

* an id that is not a test dialogue (after lowercasing and dropping ``.json``) is an error;
* more turns than the dialogue has is an error;
* a non-string response, a non-object state or a non-list active_domains is an error;
* a turn with a state and no ``response`` key is a states-only turn (a DST system's output,
  scored with ``--metrics dst``): its response reads as empty. Addendum to §2.1: the rule as
  stated; why, a state tracker has no responses to give; signature fields: none (the DST
  signatures do not depend on responses);
* a missing dialogue or missing trailing turns are allowed (the reference evaluator scores the
  given prefix, §2.3) but always reported in the ``coverage`` table, never silently dropped;
  with ``allow_missing_turns=False`` missing trailing turns are an error as well.

The validation is plain Python (:func:`prediction_columns`: the table as lists, what the
scorer reads, without importing pandas); :func:`parse_predictions` is its DataFrame form for
the pipeline.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from mwzrepro.core.errors import InputError
from mwzrepro.core.normalize import normalize_response
from mwzrepro.core.state_dialects import resolve_state_json

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["PREDICTION_COLUMNS", "COVERAGE_COLUMNS", "parse_predictions", "prediction_columns",
           "expected_turns"]

#: Columns of a ``predictions`` table, in order.
PREDICTION_COLUMNS = ("dialogue_id", "turn", "response", "response_norm", "state_json",
                      "active_domains")
#: Columns of a ``coverage`` table, in order.
COVERAGE_COLUMNS = ("dialogue_id", "expected_turns", "predicted_turns")


def expected_turns(turns: pd.DataFrame) -> dict[str, int]:
    """Number of system turns per dialogue of a canonical ``turns`` table."""
    system = turns[turns["speaker"] == "system"]
    return {str(k): int(v) for k, v in system.groupby("dialogue_id").size().items()}


def parse_predictions(
    data: Any,
    expected: Mapping[str, int],
    source: str = "<predictions>",
    allow_missing_turns: bool = True,
    unknown_placeholders: Counter[str] | None = None,
    placeholders: str = "reference",
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """:func:`prediction_columns` as the pipeline's tables: ``(predictions, coverage)``
    DataFrames (columns :data:`PREDICTION_COLUMNS` and :data:`COVERAGE_COLUMNS`). Arguments
    and errors as :func:`prediction_columns`."""
    import pandas as pd

    columns, coverage = prediction_columns(data, expected, source, allow_missing_turns,
                                           unknown_placeholders, placeholders)
    return (pd.DataFrame(dict(columns), columns=list(PREDICTION_COLUMNS)),
            pd.DataFrame(coverage, columns=list(COVERAGE_COLUMNS)))


def prediction_columns(
    data: Any,
    expected: Mapping[str, int],
    source: str = "<predictions>",
    allow_missing_turns: bool = True,
    unknown_placeholders: Counter[str] | None = None,
    placeholders: str = "reference",
) -> tuple[dict[str, list], list[dict[str, Any]]]:
    """Validate and normalize one prediction file.

    Args:
        data: the parsed JSON.
        expected: ``{dialogue_id: number of system turns}`` of the test set.
        source: file name for error messages.
        allow_missing_turns: accept dialogues with fewer turns than the test set (reported).
        unknown_placeholders: receives counts of placeholder names normalization deleted.
        placeholders: placeholder vocabulary of the normalization (``reference``, §3.2, or
            ``extended``, :mod:`mwzrepro.core.placeholders`); under ``extended`` the
            predicted states' unknown domain and slot names are resolved or dropped too
            (:mod:`mwzrepro.core.state_dialects`).

    Returns:
        ``(predictions, coverage)``: the ``predictions`` table as columns
        (``{column: list}``, :data:`PREDICTION_COLUMNS`: response, response_norm per
        spec-standard-evaluation §3, state_json, active_domains; one entry per turn in file
        order) and the ``coverage`` rows, one per *test* dialogue in id order
        (``predicted_turns`` 0 for a missing dialogue).

    Raises:
        InputError: malformed structure, no dialogue at all, unknown dialogue ids (all
            listed, up to 10), too many turns, or bad field types; the message names the
            file, dialogue and turn.

    >>> cols, cov = prediction_columns({"SNG1.json": [{"response": "the [hotel_name] ."}]},
    ...                                {"sng1": 2, "sng2": 1})
    >>> cols["dialogue_id"], cols["response_norm"], cols["state_json"]
    (['sng1'], ['the NAME.'], [None])
    >>> [c["predicted_turns"] for c in cov]
    [1, 0]
    """
    if not isinstance(data, dict):
        raise InputError(f"{source}: top level must be an object {{dialogue id: [turns]}}")
    if not data:
        raise InputError(f"{source}: no dialogues (the object is empty)")
    ids = {}
    for raw_id in data:
        did = str(raw_id).lower()
        did = did[:-5] if did.endswith(".json") else did
        if did in ids:
            raise InputError(f"{source}: dialogue ids {ids[did]!r} and {raw_id!r} collide")
        ids[did] = raw_id
    unknown = sorted(d for d in ids if d not in expected)
    if unknown:
        more = f" (+{len(unknown) - 10} more)" if len(unknown) > 10 else ""
        raise InputError(
            f"{source}: {len(unknown)} dialogue id(s) not in the test set: "
            f"{', '.join(unknown[:10])}{more}"
        )
    columns: dict[str, list] = {c: [] for c in PREDICTION_COLUMNS}
    given: dict[str, int] = {}
    for did, raw_id in ids.items():
        turns = data[raw_id]
        where = f"{source}: dialogue {raw_id}"
        if not isinstance(turns, list):
            raise InputError(f"{where}: value must be a list of turns")
        if len(turns) > expected[did]:
            raise InputError(
                f"{where}: {len(turns)} turns, but the test set has {expected[did]} system turns"
            )
        if len(turns) < expected[did] and not allow_missing_turns:
            raise InputError(
                f"{where}: {len(turns)} turns, but the test set has {expected[did]} system turns"
            )
        for i, turn in enumerate(turns):
            row = _parse_turn(did, i, turn, f"{where}, turn {i}", unknown_placeholders,
                              placeholders)
            for c in PREDICTION_COLUMNS:
                columns[c].append(row[c])
        if turns:
            given[did] = len(turns)
    coverage = [{"dialogue_id": d, "expected_turns": n, "predicted_turns": given.get(d, 0)}
                for d, n in sorted(expected.items())]
    return columns, coverage


def _parse_turn(did: str, i: int, turn: Any, where: str, unknown: Counter[str] | None,
                placeholders: str = "reference") -> dict[str, Any]:
    if not isinstance(turn, dict):
        raise InputError(f"{where}: each turn must be an object with a 'response'")
    # a states-only turn (a state, no response) reads as an empty response (module docstring)
    response = turn.get("response", "" if "state" in turn else None)
    if not isinstance(response, str):
        raise InputError(f"{where}: 'response' must be a string, got {type(response).__name__}")
    state_json = None
    if "state" in turn:
        state = turn["state"]
        if not isinstance(state, dict) or not all(isinstance(v, dict) for v in state.values()):
            raise InputError(f"{where}: 'state' must be an object {{domain: {{slot: value}}}}")
        state_json = json.dumps(state, ensure_ascii=False, separators=(",", ":"))
        if placeholders == "extended":      # state dialects (core.state_dialects)
            state_json = resolve_state_json(state_json)
    domains = None
    if "active_domains" in turn:
        domains = turn["active_domains"]
        if not isinstance(domains, list) or not all(isinstance(d, str) for d in domains):
            raise InputError(f"{where}: 'active_domains' must be a list of domain names")
    return {
        "dialogue_id": did,
        "turn": i,
        "response": response,
        "response_norm": normalize_response(response, unknown, placeholders),
        "state_json": state_json,
        "active_domains": domains,
    }
