"""Inputs of the standard evaluation: one system's turns (or the reference corpus) as the
per-dialogue lists the Inform/Success scorer reads, with the state and active-domain sources
chosen by the reference evaluator's rules (spec-standard-evaluation §2.2, §8, §9.1).

Output structure (:class:`PreparedDialogues`)::

    dialogues = {dialogue_id: {"responses": [normalized response per turn],
                               "raw_responses": [raw response per turn],
                               "states": [normalized state per turn],
                               "active_domains": [[domain, ...] per turn]}}

in the input's dialogue order, plus the names of the sources used:

* state source: ``predicted`` when **every** turn of **every** dialogue has a state (an empty
  state ``{}`` counts), else ``gold`` for **all** turns (the version's gold states, turn *i*
  of the dialogue, :mod:`mwzrepro.standard.gold_states`);
* domain source (:data:`mwzrepro.standard.active_domains.DOMAIN_SOURCES`): ``auto`` resolves to
  ``provided`` when every turn has ``active_domains`` and to ``estimated`` otherwise;
  ``estimated`` runs §8.2 on the chosen states; ``slot-names`` reads the raw responses (§8.3);
  ``ground-truth`` takes the version's turn domains (§10 item 3, optimistic setting).

:func:`prepare_predictions` reads its table through :func:`mwzrepro.core.columns.column`: a
DataFrame (the pipeline's Parquet table) or plain columns (the scorer's, no pandas import).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from mwzrepro.core.columns import column, is_missing
from mwzrepro.standard.active_domains import (
    DOMAIN_SOURCES,
    domains_from_slot_names,
    estimate_from_states,
)
from mwzrepro.core.errors import ConfigError, InputError
from mwzrepro.core.normalize_state import normalize_state

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["PreparedDialogues", "prepare_predictions", "prepare_references", "dialogue_order"]


@dataclass(frozen=True)
class PreparedDialogues:
    """Scorer input (module docstring) and the sources it was built from."""

    dialogues: dict[str, dict[str, list[Any]]]
    state_source: str
    domain_source: str

    @property
    def n_turns(self) -> int:
        """Number of turns over all dialogues."""
        return sum(len(d["responses"]) for d in self.dialogues.values())

    def with_domains(self, source: str, ground_truth: Mapping[str, Sequence[Sequence[str]]]
                     | None = None) -> PreparedDialogues:
        """The same turns with active domains from ``source`` (``estimated``,
        ``slot-names`` or ``ground-truth``; ``provided``/``auto`` need the original table).

        Raises:
            InputError: ``ground-truth`` without ``ground_truth`` or with a dialogue missing
                or shorter there.
            ConfigError: another source.
        """
        out = {}
        for did, d in self.dialogues.items():
            doms = _domains(source, did, d, ground_truth, "")
            out[did] = {**d, "active_domains": doms}
        return PreparedDialogues(out, self.state_source, source)

    def for_setting(self, setting: str, ground_truth: Mapping[str, Sequence[Sequence[str]]]
                    | None) -> PreparedDialogues:
        """The dialogues an Inform/Success ``setting`` scores (spec §9): ``optimistic`` takes
        the ground-truth turn domains ``ground_truth`` (:meth:`with_domains`); every other
        setting (``standard``, ``grounded``) these dialogues themselves.

        Raises:
            InputError: ``optimistic`` and a dialogue missing or shorter in ``ground_truth``
                (or none given).
        """
        if setting == "optimistic":
            return self.with_domains("ground-truth", ground_truth)
        return self


def dialogue_order(ids: Sequence[str], order: Sequence[str] | None) -> list[str]:
    """Distinct ``ids`` in ``order`` (e.g. the key order of the original prediction file,
    which MSTTR depends on, spec §12.2); ids absent from ``order`` follow in their own order.
    ``order=None`` keeps the first-appearance order of ``ids``."""
    seen = list(dict.fromkeys(ids))
    if order is None:
        return seen
    present = set(seen)
    head = [d for d in dict.fromkeys(order) if d in present]
    in_head = set(head)
    rest = [d for d in seen if d not in in_head]
    return head + rest


def _domains(source: str, did: str, d: Mapping[str, list[Any]],
             ground_truth: Mapping[str, Sequence[Sequence[str]]] | None,
             where: str) -> list[list[str]]:
    n = len(d["responses"])
    if source == "estimated":
        return estimate_from_states(d["states"])
    if source == "slot-names":
        return [domains_from_slot_names(r) for r in d["raw_responses"]]
    if source == "ground-truth":
        if ground_truth is None:
            raise InputError(f"{where}ground-truth active domains requested but none given")
        gt = ground_truth.get(did)
        if gt is None or len(gt) < n:
            raise InputError(
                f"{where}dialogue {did}: no ground-truth turn domains for its {n} turns"
            )
        return list(gt[:n])  # the turns' lists are shared, read-only downstream
    raise ConfigError(f"cannot derive active domains from source {source!r}")


@lru_cache(maxsize=1 << 13)
def _normalized_state(state_json: str) -> dict[str, Any]:
    """Normalized state of one ``state_json`` (memoized: consecutive turns, and systems scored
    in one process, often repeat a state; the dict is shared and must not be modified). 8,192
    states hold one system's distinct states (at most about 5,000 of 7,372 turns on the 19
    public files) without keeping every system's: 2^16 of them held some 30 MiB."""
    return normalize_state(json.loads(state_json))


def _gold_for(gold: Mapping[str, Sequence[Mapping[str, Any]]], did: str, n: int,
              where: str) -> list[Mapping[str, Any]]:
    states = gold.get(did)
    if states is None:
        raise InputError(f"{where}dialogue {did} has no gold states in this version")
    if n > len(states):
        raise InputError(
            f"{where}dialogue {did} has {n} turns but the gold annotation only {len(states)}"
        )
    return list(states[:n])


def _group_turns(p: Mapping[str, list], all_states: bool, label: str
                 ) -> dict[str, dict[str, list[Any]]]:
    """``{dialogue_id: {"responses", "raw_responses", "states" (normalized when
    ``all_states``, else empty), "active_domains" (lists or None)}}`` of a predictions table's
    columns sorted by (dialogue_id, turn). Errors as in a row-by-row scan: the first bad row
    wins."""
    dids, turns = p["dialogue_id"], p["turn"]
    n = len(dids)
    if not n:
        return {}
    starts = [i for i in range(n) if i == 0 or dids[i] != dids[i - 1]]
    ends = starts[1:] + [n]
    stop, previous = n, -1
    for a, b in zip(starts, ends):
        for i in range(a, b):
            if turns[i] != i - a:  # the turn index within its dialogue
                stop, previous = i, i - a - 1
                break
        if stop < n:
            break
    sjs = p["state_json"]
    states: list[Any] = []
    if all_states:
        for i in range(stop):
            try:
                states.append(_normalized_state(sjs[i]))  # shared, read-only downstream
            except (InputError, json.JSONDecodeError) as err:
                raise InputError(f"{label}dialogue {dids[i]}, turn {turns[i]}: state: {err}") \
                    from None
    if stop < n:
        raise InputError(f"{label}dialogue {dids[stop]}: turn {turns[stop]} follows turn "
                         f"{previous} (turns must be 0, 1, ...)")
    raw, norm = p["response"], p["response_norm"]
    doms = [None if is_missing(x) else list(x) for x in p["active_domains"]]
    return {dids[a]: {"responses": norm[a:b], "raw_responses": raw[a:b],
                      "states": states[a:b], "active_domains": doms[a:b]}
            for a, b in zip(starts, ends)}


#: Columns :func:`prepare_predictions` reads.
_PREDICTION_FIELDS = ("dialogue_id", "turn", "response", "response_norm", "state_json",
                      "active_domains")


def _sorted_columns(predictions: Any) -> dict[str, list]:
    """The columns of a ``predictions`` table (DataFrame or columns) in (dialogue_id, turn)
    order (stable, as pandas' mergesort)."""
    cols = {c: column(predictions, c) for c in _PREDICTION_FIELDS}
    dids, turns = cols["dialogue_id"], cols["turn"]
    order = sorted(range(len(dids)), key=lambda i: (dids[i], turns[i]))
    if order == list(range(len(dids))):
        return cols
    return {c: [v[i] for i in order] for c, v in cols.items()}


def prepare_predictions(
    predictions: pd.DataFrame | Mapping[str, list],
    gold_states: Mapping[str, Sequence[Mapping[str, Any]]],
    domain_source: str = "auto",
    ground_truth: Mapping[str, Sequence[Sequence[str]]] | None = None,
    order: Sequence[str] | None = None,
    where: str = "",
) -> PreparedDialogues:
    """Scorer input from a ``predictions`` table (module docstring).

    Args:
        predictions: ``predictions`` table (dialogue_id, turn, response, response_norm,
            state_json or null, active_domains or null): a DataFrame or its columns
            (``{column: list}``, :func:`mwzrepro.prepare.predictions.prediction_columns`).
        gold_states: ``{dialogue_id: [normalized gold state per turn]}`` of the version.
        domain_source: one of :data:`mwzrepro.standard.active_domains.DOMAIN_SOURCES`.
        ground_truth: ``{dialogue_id: [turn domains]}`` (needed for ``ground-truth``).
        order: dialogue order (see :func:`dialogue_order`); default: first appearance in
            ``predictions`` (a table read from Parquet is sorted by dialogue id).
        where: file/system label for error messages.

    Returns:
        :class:`PreparedDialogues`.

    Raises:
        InputError: turns of a dialogue are not 0..n-1; a predicted state is not valid JSON or
            cannot be normalized; gold states or ground-truth domains are missing or shorter;
            ``provided`` requested but some turn lacks active domains. Messages name the
            dialogue and turn.
        ConfigError: unknown ``domain_source``.
    """
    if domain_source not in DOMAIN_SOURCES:
        raise ConfigError(f"unknown domain source {domain_source!r}; expected {DOMAIN_SOURCES}")
    label = f"{where}: " if where else ""
    if order is None:
        order = list(dict.fromkeys(column(predictions, "dialogue_id")))
    p = _sorted_columns(predictions)
    all_states = not any(map(is_missing, p["state_json"]))
    all_domains = not any(map(is_missing, p["active_domains"]))
    if domain_source == "auto":
        domain_source = "provided" if all_domains else "estimated"
    if domain_source == "provided" and not all_domains:
        raise InputError(f"{label}'provided' active domains requested, but some turns have none")
    grouped = _group_turns(p, all_states, label)
    out: dict[str, dict[str, list[Any]]] = {}
    for did in dialogue_order(list(grouped), order):
        d = grouped[did]
        if not all_states:
            d["states"] = _gold_for(gold_states, did, len(d["responses"]), label)
        if domain_source != "provided":
            d["active_domains"] = _domains(domain_source, did, d, ground_truth, label)
        out[did] = d
    return PreparedDialogues(out, "predicted" if all_states else "gold", domain_source)


def prepare_references(
    references: pd.DataFrame,
    gold_states: Mapping[str, Sequence[Mapping[str, Any]]],
    domain_source: str = "estimated",
    ground_truth: Mapping[str, Sequence[Sequence[str]]] | None = None,
    where: str = "",
) -> PreparedDialogues:
    """Scorer input for the reference corpus itself (the "oracle" row): the normalized
    delexicalized references (``references.reference``) as responses, gold states, and
    active domains ``estimated`` from them (what the reference evaluator does for a file
    without states or domains) or ``ground-truth``.

    Args:
        references: ``references`` table of the version's test split.
        gold_states: the version's gold states.
        domain_source: ``estimated`` or ``ground-truth`` (or ``slot-names``, on ``delex``).
        ground_truth: turn domains (for ``ground-truth``).
        where: label for error messages.

    Raises:
        InputError: as :func:`prepare_predictions`.
    """
    label = f"{where}: " if where else ""
    r = references.sort_values(["dialogue_id", "turn"], kind="mergesort")
    out: dict[str, dict[str, list[Any]]] = {}
    for did, g in r.groupby("dialogue_id", sort=True):
        resp = g["reference"].tolist()
        d: dict[str, list[Any]] = {"responses": resp, "raw_responses": g["delex"].tolist(),
                                   "states": _gold_for(gold_states, did, len(resp), label),
                                   "active_domains": []}
        d["active_domains"] = _domains(domain_source, did, d, ground_truth, label)
        out[did] = d
    return PreparedDialogues(out, "gold", domain_source)
