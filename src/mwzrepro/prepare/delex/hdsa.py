"""HDSA-style references (Nekvinda & Dušek 2021, Table 4 rows "HDSA" and "LAVA"), from the
delexicalized test references that HDSA publishes.

Source: ``wenhuchen/HDSA-Dialog`` at commit ``88e2604``, ``data/test_reference.json``:
``{"MUL0003": [system response, ...], ...}``, 1000 dialogues, one entry per system turn, made
with the delexicalization script of the original MultiWOZ release (domain placeholders such as
``[restaurant_name]`` and ``[value_count]``, lowercase, ``-s`` plural markers). They are used
verbatim and normalized like every reference (spec-standard-evaluation §3). LAVA's own
preprocessing is not public and used the same script; its row is scored against these
references, labelled as such (spec-paper-tables §1).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

import pandas as pd

from mwzrepro.core.errors import IngestError
from mwzrepro.core.ids import canonical_dialogue_id
from mwzrepro.prepare.delex.references import reference_row, references_frame

__all__ = ["read_hdsa_references", "build_references"]


def read_hdsa_references(path: str | os.PathLike[str]) -> dict[str, list[str]]:
    """The released file as ``{dialogue id (lowercase, no .json): [response, ...]}``.

    Raises:
        IngestError: unreadable JSON, or not an object of string lists (names the file and
            the dialogue).
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise IngestError(f"{path}: cannot read HDSA references: {exc}") from None
    if not isinstance(data, dict):
        raise IngestError(f"{path}: expected an object {{dialogue id: [responses]}}")
    out: dict[str, list[str]] = {}
    for key, responses in data.items():
        if not isinstance(responses, list) or not all(isinstance(r, str) for r in responses):
            raise IngestError(f"{path}: dialogue {key}: expected a list of strings")
        out[canonical_dialogue_id(key)] = responses
    return out


def build_references(
    responses: Mapping[str, Sequence[str]], turns: pd.DataFrame,
    unknown: Counter[str] | None = None, source: str = "HDSA references",
) -> pd.DataFrame:
    """``references`` table of the released responses, aligned with a version's test turns.

    Args:
        responses: :func:`read_hdsa_references` output.
        turns: canonical ``turns`` table of the test split (gives the original text).
        unknown: receives placeholder names that response normalization deleted.
        source: name used in error messages.

    Returns:
        ``references`` table: dialogue_id, turn, text (corpus utterance), delex (HDSA's
        response), reference (normalized).

    Raises:
        IngestError: a test dialogue is missing from ``responses`` or has a different number
            of system turns.

    >>> t = pd.DataFrame({"dialogue_id": ["d1", "d1"], "turn_id": [0, 1],
    ...                   "speaker": ["user", "system"], "text": ["hi", "The Ivy is nice ."]})
    >>> build_references({"d1": ["[restaurant_name] is nice ."]}, t)["reference"].tolist()
    ['NAME is nice.']
    """
    system = turns[turns["speaker"] == "system"].sort_values(["dialogue_id", "turn_id"])
    rows = []
    for did, group in system.groupby("dialogue_id", sort=True):
        if did not in responses:
            raise IngestError(f"{source}: dialogue {did} is missing")
        delex = responses[did]
        if len(delex) != len(group):
            raise IngestError(f"{source}: dialogue {did} has {len(delex)} responses, the test "
                              f"set {len(group)} system turns")
        for (tid, text), resp in zip(group[["turn_id", "text"]].itertuples(index=False), delex):
            rows.append(reference_row(did, int(tid) // 2, text, resp, unknown))
    return references_frame(rows)
