"""Inform/Success inputs prepared once per version: everything ``score-success``
computes of a system that does not depend on ``inform.fuzzy_threshold``, stored so that a
threshold change rescores Inform/Success without preparing the system again.

Spec addendum (spec-standard-evaluation §2.2, §8–§9.1, §13; the pipeline only: every number,
signature and file of ``score-success`` is unchanged)
--------------------------------------------------------------------------------------------

**Rule.** The phase ``success-inputs`` (per version) prepares each system and the reference
corpus (the ``oracle`` row) as ``score-success`` does — state source, normalized states, the
standard setting's active domains — and computes the threshold-independent ``scores`` rows
(coverage, §13 state metrics). It writes one ``success_inputs`` table per system: per turn
the normalized response, the normalized state the scorer uses (predicted or gold) and the
active domains; the metadata hold the sources, the dialogue order, those ``scores`` rows,
the ``inform.matching`` they were computed with and the prediction file's placeholder
vocabulary. ``score-success --inputs-dir`` reads the tables back
(:func:`prepared_from_table`) and scores Inform/Success with the database built for the
threshold. A normalized state never holds a list (a list of alternatives is read as a tuple,
:mod:`mwzrepro.core.alternatives`), so a JSON array in the ``state`` column is such a tuple.

**Why.** Preparing the systems (parsing and normalizing about 140,000 predicted states) and
the state metrics took about 40 % of ``score-success``'s CPU, and none of it depends on the
threshold that the parameter-change loop varies.

**Signature fields.** None added: the rows and signatures are the ones ``score-success``
computes from the predictions.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from mwzrepro.core.errors import InputError
from mwzrepro.standard.gold_states import state_to_json
from mwzrepro.standard.inputs import PreparedDialogues

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["TABLE", "INPUT_COLUMNS", "inputs_table", "inputs_metadata",
           "prepared_from_table"]

#: Name of the table (:mod:`mwzrepro.core.schemas.evaluation`).
TABLE = "success_inputs"
#: Its columns.
INPUT_COLUMNS = ["dialogue_id", "turn", "response", "state", "active_domains"]


@lru_cache(maxsize=1 << 13)
def _state(text: str) -> dict[str, Any]:
    """The normalized state of one ``state`` cell (memoized like the normalization: turns and
    systems repeat states; the dict is shared and must not be modified)."""
    state = json.loads(text)
    for slots in state.values():
        for slot, value in slots.items():
            if isinstance(value, list):
                slots[slot] = tuple(value)
    return state


def inputs_table(prepared: PreparedDialogues) -> pd.DataFrame:
    """The ``success_inputs`` rows of a system's prepared dialogues: one per turn
    (dialogue_id, turn, normalized response, normalized state as compact JSON, active
    domains of the standard setting).

    >>> prep = PreparedDialogues({"d1": {"responses": ["[NAME] ."], "raw_responses": ["x"],
    ...     "states": [{"hotel": {"area": ("north", "east")}}], "active_domains": [["hotel"]]}},
    ...     "predicted", "estimated")
    >>> inputs_table(prep).to_dict("records")[0]["state"]
    '{"hotel":{"area":["north","east"]}}'
    """
    import pandas as pd

    texts: dict[int, str] = {}  # states are shared objects: each serialized once
    rows = []
    for did, d in prepared.dialogues.items():
        for t, (response, state, domains) in enumerate(
                zip(d["responses"], d["states"], d["active_domains"])):
            text = texts.get(id(state))
            if text is None:
                text = texts[id(state)] = state_to_json(state)  # tuples as arrays
            rows.append((did, t, response, text, list(domains)))
    return pd.DataFrame(rows, columns=INPUT_COLUMNS)


def inputs_metadata(prepared: PreparedDialogues, rows: Sequence[Mapping[str, Any]],
                    matching: str, placeholders: str | None) -> dict[str, Any]:
    """Parquet metadata of a ``success_inputs`` table: ``state_source``, ``domain_source``,
    ``dialogue_order`` (the prepared order), ``rows`` (the threshold-independent ``scores``
    rows, in order), ``matching`` and ``placeholders`` (the predictions' vocabulary or
    None)."""
    return {"state_source": prepared.state_source, "domain_source": prepared.domain_source,
            "dialogue_order": list(prepared.dialogues), "rows": [dict(r) for r in rows],
            "matching": matching, "placeholders": placeholders}


def prepared_from_table(table: pd.DataFrame, metadata: Mapping[str, Any], matching: str,
                        where: str = "") -> tuple[PreparedDialogues, list[dict[str, Any]]]:
    """The prepared dialogues and threshold-independent ``scores`` rows a ``success_inputs``
    table holds (the same values :func:`~mwzrepro.standard.scoring.success_inputs` computed;
    ``raw_responses`` are not kept: the standard setting's domains are).

    Raises:
        InputError: the table was prepared with another ``inform.matching``, or its turns
            or dialogue order do not match its rows (a hand-edited file).
    """
    if metadata.get("matching") != matching:
        raise InputError(f"{where}: prepared with inform.matching "
                         f"{metadata.get('matching')!r}, not {matching!r}: rerun success-inputs")
    dids, turns = table["dialogue_id"].tolist(), table["turn"].tolist()
    responses, domains = table["response"].tolist(), table["active_domains"].tolist()
    states = list(map(_state, table["state"].tolist()))
    n = len(dids)  # rows sorted by (dialogue_id, turn), as written
    starts = [i for i in range(n) if i == 0 or dids[i] != dids[i - 1]]
    grouped: dict[str, dict[str, list[Any]]] = {}
    for a, b in zip(starts, starts[1:] + [n]):
        if turns[a:b] != list(range(b - a)) or dids[a] in grouped:
            raise InputError(f"{where}: dialogue {dids[a]}: turns not 0, 1, ... in order")
        grouped[dids[a]] = {"responses": responses[a:b], "states": states[a:b],
                            "active_domains": domains[a:b]}
    order = metadata["dialogue_order"]
    if sorted(order) != sorted(grouped):
        raise InputError(f"{where}: the dialogue order does not list the table's dialogues")
    prepared = PreparedDialogues({did: grouped[did] for did in order},
                                 metadata["state_source"], metadata["domain_source"])
    return prepared, [dict(r) for r in metadata["rows"]]
