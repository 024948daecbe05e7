"""Reader for MultiWOZ 2.0/2.1 in the ConvLab layout (``test.json.zip`` and friends).

Source format: a JSON object ``{dialogue id: {"goal": ..., "log": [turn, ...]}}`` where each
log entry has ``text`` (tokenized, words separated by whitespace), ``metadata`` (the belief
state after the preceding user turn, on system entries; ``{}`` on user entries),
``dialog_act`` (``{"Domain-Intent": [[slot, value], ...]}``) and ``span_info``
(``[[act, slot, value, first word, last word], ...]``, word indices over ``text.split()``,
inclusive end). The first log entry is the user's.

Output: the canonical tables of :mod:`mwzrepro.core.schemas` (see :data:`CANONICAL_TABLES`), with
word spans converted to character offsets so that one delexicalization algorithm serves every
version, and source slot names mapped to MultiWOZ 2.2 names (:func:`span_slot_name`).
"""

from __future__ import annotations

import json
import re
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from mwzrepro.core.ids import canonical_dialogue_id
from mwzrepro.prepare.ingest import CANONICAL_TABLES, IngestError
from mwzrepro.core.schemas import TABLES

__all__ = ["read_convlab", "load_convlab", "read_convlab_text", "convert_dialogues",
           "span_slot_name", "EMPTY_MARKERS"]

#: State values that mean "slot absent" (spec-dst-metrics §2.3; spec-annotation-consistency
#: §2.1). They produce no row in the states table.
EMPTY_MARKERS = frozenset({"", "not mentioned", "none"})

# ConvLab span slot → MultiWOZ 2.2 span slot, for every act domain; then per-domain overrides.
_SPAN_SLOTS = {
    "addr": "address",
    "post": "postcode",
    "phone": "phone",
    "name": "name",
    "area": "area",
    "food": "food",
    "price": "pricerange",
    "type": "type",
    "stars": "stars",
    "internet": "internet",
    "parking": "parking",
    "choice": "choice",
    "ref": "ref",
    "day": "bookday",
    "people": "bookpeople",
    "stay": "bookstay",
    "time": "booktime",
    "leave": "leaveat",
    "arrive": "arriveby",
    "dest": "destination",
    "depart": "departure",
    "id": "trainid",
    "ticket": "price",
    "fee": "entrancefee",
    "open": "openhours",
    "department": "department",
    "car": "type",
}
_SPAN_SLOT_OVERRIDES = {
    ("train", "day"): "day",
    ("train", "time"): "duration",
    ("train", "price"): "price",
}


def span_slot_name(domain: str, slot: str) -> str:
    """MultiWOZ 2.2 name of a ConvLab span slot (``('Train', 'Leave')`` → ``'leaveat'``).

    Day, Time and Price depend on the domain: train ``day``/``duration``/``price`` versus the
    booking ``bookday``/``booktime`` and ``pricerange`` elsewhere. Unknown names are returned
    lowercased (and then, if the reference evaluator's table lacks them, deleted by response
    normalization, spec-standard-evaluation §3.2).
    """
    d, s = domain.lower(), slot.lower()
    return _SPAN_SLOT_OVERRIDES.get((d, s), _SPAN_SLOTS.get(s, s))


def read_convlab(path: str | Path, split: str) -> tuple[dict[str, pd.DataFrame], list[dict]]:
    """Read a ConvLab-layout file (``.json`` or a ``.zip`` holding one ``.json``).

    Args:
        path: the raw file.
        split: split label written into the dialogues table (``test``, ``val``, ``train``).

    Returns:
        ``({table name: DataFrame} for every name in CANONICAL_TABLES, skipped)``, where
        ``skipped`` lists the annotations that could not be converted, each
        ``{"where": "<file>: dialogue <id>, turn <n>", "span": [...], "reason": ...}``.

    Raises:
        IngestError: unreadable file or malformed dialogue (names file, dialogue and turn).
    """
    return convert_dialogues(load_convlab(path), split=split, source=Path(path).name)


def load_convlab(path: str | Path) -> dict[str, Any]:
    """The raw ``{dialogue id: dialogue}`` object of a ConvLab-layout ``.json`` or ``.zip``.

    Raises:
        IngestError: unreadable file, not one JSON member, or not an object (names the file).
    """
    _, text = read_convlab_text(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise IngestError(f"{path}: cannot read MultiWOZ JSON: {exc}") from None
    if not isinstance(data, dict):
        raise IngestError(f"{path}: top level must be an object of dialogues")
    return data


def read_convlab_text(path: str | Path) -> tuple[str, str]:
    """``(member name, JSON text)`` of a ConvLab ``.json.zip`` (or a plain ``.json`` file).

    Raises:
        IngestError: unreadable file, or a zip without exactly one ``.json`` member.
    """
    path = Path(path)
    try:
        if path.suffix == ".zip":
            with zipfile.ZipFile(path) as zf:
                names = [n for n in zf.namelist() if n.endswith(".json")]
                if len(names) != 1:
                    raise IngestError(f"{path}: expected one .json member, found {names}")
                return names[0], zf.read(names[0]).decode("utf-8")
        return path.name, path.read_text(encoding="utf-8")
    except (OSError, zipfile.BadZipFile, UnicodeDecodeError) as exc:
        raise IngestError(f"{path}: cannot read MultiWOZ JSON: {exc}") from None


def _word_offsets(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]


def convert_dialogues(
    data: Mapping[str, Any], split: str, source: str = "<memory>"
) -> tuple[dict[str, pd.DataFrame], list[dict]]:
    """Convert parsed ConvLab-layout dialogues into canonical tables (see :func:`read_convlab`).

    Raises:
        IngestError: a log of odd length, a span outside its text, a non-string text, or a
            duplicate dialogue id after lowercasing; the message names ``source``, the dialogue
            and the turn.
    """
    rows: dict[str, list[dict[str, Any]]] = {t: [] for t in CANONICAL_TABLES}
    rows["_skipped"] = []
    seen: dict[str, str] = {}
    for source_id, dialogue in data.items():
        did = canonical_dialogue_id(source_id)
        if did in seen:
            raise IngestError(f"{source}: dialogue ids {seen[did]!r} and {source_id!r} collide")
        seen[did] = source_id
        where = f"{source}: dialogue {source_id}"
        log = dialogue.get("log") if isinstance(dialogue, dict) else None
        if not isinstance(log, list) or len(log) % 2:
            raise IngestError(f"{where}: 'log' must be a list of even length (user, system, ...)")
        rows["dialogues"].append(
            {"dialogue_id": did, "source_id": source_id, "split": split, "n_turns": len(log)}
        )
        for turn_id, entry in enumerate(log):
            _convert_turn(did, turn_id, entry, rows, f"{where}, turn {turn_id}")
        _convert_goal(did, dialogue.get("goal") or {}, rows["goals"])
    tables = {
        name: pd.DataFrame(rows[name], columns=list(TABLES[name].columns))
        for name in CANONICAL_TABLES
    }
    return tables, rows["_skipped"]


def _convert_turn(
    did: str, turn_id: int, entry: Any, rows: dict[str, list[dict[str, Any]]], where: str
) -> None:
    if not isinstance(entry, dict) or not isinstance(entry.get("text"), str):
        raise IngestError(f"{where}: log entry needs a string 'text'")
    text = entry["text"]
    speaker = "user" if turn_id % 2 == 0 else "system"
    rows["turns"].append({"dialogue_id": did, "turn_id": turn_id, "speaker": speaker, "text": text})
    words = _word_offsets(text)
    for i, span in enumerate(entry.get("span_info") or []):
        if len(span) != 5:
            raise IngestError(f"{where}: span_info entry {i} must have 5 fields: {span!r}")
        act, slot, value, first, last = span
        if not (0 <= int(first) <= int(last) < len(words)):
            # Two such spans exist in the 2.0/2.1 test sets (first > last); they are reported
            # in the ingest report, never silently dropped.
            rows["_skipped"].append({"where": where, "span": list(span),
                                     "reason": f"word span outside the {len(words)} words"})
            continue
        domain = act.split("-", 1)[0]
        rows["spans"].append(
            {
                "dialogue_id": did,
                "turn_id": turn_id,
                "span_index": i,
                "act": act,
                "domain": domain.lower(),
                "slot": span_slot_name(domain, slot),
                "source_slot": slot,
                "value": str(value),
                "start": words[int(first)][0],
                "end": words[int(last)][1],
            }
        )
    k = 0
    for act, pairs in (entry.get("dialog_act") or {}).items():
        domain, _, intent = act.partition("-")
        for pair in pairs:
            slot, value = (pair + ["none", "none"])[:2] if isinstance(pair, list) else (pair, "")
            rows["acts"].append(
                {
                    "dialogue_id": did,
                    "turn_id": turn_id,
                    "act_index": k,
                    "act": act,
                    "domain": domain.lower(),
                    "intent": intent.lower(),
                    "slot": str(slot),
                    "value": str(value),
                }
            )
            k += 1
    if speaker == "system":
        _convert_metadata(did, turn_id // 2, entry.get("metadata") or {}, rows, where)


def _convert_metadata(
    did: str, turn: int, metadata: Mapping[str, Any], rows: dict[str, list[dict[str, Any]]],
    where: str,
) -> None:
    pos = 0
    booked_pos = 0
    for domain, parts in metadata.items():
        if not isinstance(parts, dict):
            raise IngestError(f"{where}: metadata[{domain!r}] must be an object")
        dom = domain.lower()
        for part, prefix in (("semi", ""), ("book", "book ")):
            for name, value in (parts.get(part) or {}).items():
                if name == "booked":
                    if value:
                        rows["booked"].append(
                            {"dialogue_id": did, "turn": turn, "domain": dom,
                             "n_booked": len(value), "position": booked_pos}
                        )
                        booked_pos += 1
                    continue
                if not isinstance(value, str):
                    raise IngestError(
                        f"{where}: state value {dom}.{part}.{name} is not a string: {value!r}"
                    )
                if value in EMPTY_MARKERS:
                    continue
                rows["states"].append(
                    {"dialogue_id": did, "turn": turn, "domain": dom,
                     "slot": prefix + name.lower(), "value": value, "alternatives": [value],
                     "position": pos}
                )
                pos += 1


def _convert_goal(did: str, goal: Mapping[str, Any], out: list[dict[str, Any]]) -> None:
    for domain, parts in goal.items():
        if domain in ("message", "topic") or not isinstance(parts, dict):
            continue
        for kind in ("info", "reqt", "book", "fail_info", "fail_book"):
            part = parts.get(kind)
            if not part:
                continue
            items = [(s, "") for s in part] if isinstance(part, list) else list(part.items())
            for i, (slot, value) in enumerate(items):
                out.append(
                    {"dialogue_id": did, "domain": domain.lower(), "kind": kind, "position": i,
                     "slot": str(slot),
                     "value": value if isinstance(value, str) else json.dumps(value)}
                )
