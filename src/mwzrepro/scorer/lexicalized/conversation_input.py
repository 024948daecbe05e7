"""The conversation input form (the conversation setting, :mod:`mwzrepro.standard.
conversation`): JSON or JSON Lines, one conversation per record::

    {"dialogue_id": "MUL0201.json",
     "turns": [{"user": "...", "system": "..."}, ...],        # any length, at least one
     "goal": {"restaurant": {"info": {...}, "reqt": [...], "book": {...}}, ...}}  # optional

A JSON file holds one record or a list of them; a JSON Lines file one record per line.
Without ``goal``, the goal is the test set's goal of ``dialogue_id`` (ids as elsewhere:
upper-case and ``.json`` allowed); a goal neither given nor known is an error.

**Dialect** ``autotod`` (``--conversation-format autotod``): the result files of AutoTOD (Xu et
al. 2024, ``results/*.jsonl``), whose records hold ``dialog_id``, ``run_result.dialog_pred``
(``user``/``agent`` turns), ``run_result.goals`` and AutoTOD's own judgement
``eval_summary``. The same conversion in five lines of Python::

    for r in map(json.loads, open("0613.jsonl")):
        print(json.dumps({"dialogue_id": r["dialog_id"],
                          "goal": r["run_result"]["goals"],
                          "turns": [{"user": t["user"], "system": t["agent"]}
                                    for t in r["run_result"]["dialog_pred"]]}))

**Form detection** (:func:`is_conversation_data`): a record (or the first of a list) with a
``turns`` list — or, for the dialect, a ``run_result`` — is a conversation file. This is
the hook for the rules that decide a file's form
(:mod:`mwzrepro.scorer.lexicalized.file_form`).

Validation reads the whole file before any work: one line naming the file, the record (its
number and dialogue id) and the turn.

>>> conversations_of([{"dialogue_id": "x", "turns": [{"user": "hi"}]}], "c.json")
Traceback (most recent call last):
...
mwzrepro.core.errors.InputError: c.json, record 1 (dialogue x), turn 0: needs a string 'system' (the agent's response)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mwzrepro.core.errors import InputError
from mwzrepro.core.ids import canonical_dialogue_id

__all__ = ["FORMATS", "Conversation", "is_conversation_data", "looks_like_conversation_file",
           "read_records", "dialogue_label", "conversations_of", "read_conversations"]

#: Values of ``--conversation-format``.
FORMATS = ("multiwoz", "autotod")


@dataclass(frozen=True)
class Conversation:
    """One conversation: canonical dialogue id, ``[(user, system), ...]``, the raw goal (None:
    the test set's) and, for the autotod dialect, AutoTOD's judgement ``{"summary": {domain:
    {"inform": 0/1, "success" or "book": 0/1}}, "results": its eval_results}``."""

    dialogue_id: str
    turns: tuple[tuple[str, str], ...]
    goal: Any = None
    judge: Mapping[str, Any] | None = field(default=None, compare=False)


def _first(data: Any) -> Any:
    return data[0] if isinstance(data, list) and data else data


def is_conversation_data(data: Any) -> bool:
    """Whether parsed input is in the conversation form (module docstring).

    >>> is_conversation_data([{"dialogue_id": "a", "turns": []}]), is_conversation_data({"a": []})
    (True, False)
    """
    first = _first(data)
    return isinstance(first, Mapping) and (isinstance(first.get("turns"), list)
                                           or isinstance(first.get("run_result"), Mapping))


def looks_like_conversation_file(path: Path, head: int = 1 << 16) -> bool:
    """Whether a file holds conversation records, read from its first ``head`` characters:
    its first record (a JSON Lines line, or the document) has ``turns`` or ``run_result``
    (:func:`is_conversation_data`). A prediction file (``{dialogue id: [...]}``) never
    does. A file that cannot be read answers False (the prediction path reports it)."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read(head)
    except (OSError, UnicodeDecodeError):
        return False
    if '"turns"' not in text and '"run_result"' not in text:
        return False
    first = text.lstrip().split("\n", 1)[0]
    try:
        return is_conversation_data(json.loads(first))
    except json.JSONDecodeError:
        try:
            return is_conversation_data(read_records(path))
        except (InputError, OSError, UnicodeDecodeError):
            return False


def read_records(path: Path) -> Any:
    """The parsed file: a JSON document, else JSON Lines (a list of records).

    Raises:
        InputError: neither (the line that fails).
    """
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(f"{path.name}: cannot be read as UTF-8 text ({type(err).__name__})") \
            from None
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError as err:
                raise InputError(f"{path.name}, line {n}: not JSON ({err.msg})") from None
    return out


def _autotod(record: Mapping[str, Any], where: str) -> dict[str, Any]:
    run = record.get("run_result")
    if not isinstance(run, Mapping) or not isinstance(run.get("dialog_pred"), list):
        raise InputError(f"{where}: an autotod record needs run_result.dialog_pred")
    turns = [{"user": t.get("user"), "system": t.get("agent")} if isinstance(t, Mapping)
             else t for t in run["dialog_pred"]]
    return {"dialogue_id": record.get("dialog_id"), "turns": turns,
            "goal": run.get("goals", record.get("goals")),
            "judge": {"summary": record.get("eval_summary") or {},
                      "results": record.get("eval_results") or {}}}


def dialogue_label(dialogue_id: str) -> str:
    """A dialogue id as messages show it: itself, or its ``repr`` when it holds a line break
    or another unprintable character (an error stays one line).

    >>> dialogue_label("mul0201"), dialogue_label("a\\nb")
    ('mul0201', "'a\\\\nb'")
    """
    return dialogue_id if dialogue_id.isprintable() else repr(dialogue_id)


def conversations_of(data: Any, source: str, fmt: str = "multiwoz") -> list[Conversation]:
    """The validated conversations of parsed input (module docstring).

    Raises:
        InputError: not a list of records, a record without ``dialogue_id`` or ``turns``, a
            turn without a string ``user``/``system``, a repeated dialogue id (one line).
    """
    if fmt not in FORMATS:
        raise InputError(f"conversation format {fmt!r}: expected one of {', '.join(FORMATS)}")
    records = [data] if isinstance(data, Mapping) else data
    if not isinstance(records, list) or not records:
        raise InputError(f"{source}: expected conversation records {{\"dialogue_id\", "
                         "\"turns\": [{\"user\", \"system\"}, ...], \"goal\"}} (JSON or JSON Lines)")
    out, seen = [], set()
    for n, record in enumerate(records, 1):
        where = f"{source}, record {n}"
        if not isinstance(record, Mapping):
            raise InputError(f"{where}: must be an object, got {type(record).__name__}")
        if fmt == "autotod":
            record = _autotod(record, where)
        did = record.get("dialogue_id")
        if not isinstance(did, str) or not did.strip():
            raise InputError(f"{where}: needs a string 'dialogue_id'")
        where = f"{where} (dialogue {dialogue_label(did)})"
        turns = record.get("turns")
        if not isinstance(turns, list) or not turns:
            raise InputError(f"{where}: needs 'turns', a non-empty list of {{\"user\", "
                             "\"system\"}} objects")
        pairs = []
        for t, turn in enumerate(turns):
            if not isinstance(turn, Mapping):
                raise InputError(f"{where}, turn {t}: must be an object {{\"user\", \"system\"}}")
            for key, role in (("user", "the user's utterance"), ("system", "the agent's "
                                                                            "response")):
                if not isinstance(turn.get(key), str):
                    raise InputError(f"{where}, turn {t}: needs a string '{key}' ({role})")
            pairs.append((turn["user"], turn["system"]))
        cid = canonical_dialogue_id(did)
        if cid in seen:
            raise InputError(f"{where}: dialogue id repeated (one record per conversation)")
        seen.add(cid)
        out.append(Conversation(cid, tuple(pairs), record.get("goal"), record.get("judge")))
    return out


def read_conversations(path: Path, fmt: str = "multiwoz") -> list[Conversation]:
    """:func:`conversations_of` of a file (:func:`read_records`)."""
    return conversations_of(read_records(path), path.name, fmt)
