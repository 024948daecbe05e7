"""Reader for the official MultiWOZ 2.2 release (schema-guided layout).

Source format (``data/MultiWOZ_2.2/README.md`` of the MultiWOZ repository; the layout of the
schema-guided dialogue dataset):

* ``{train,dev,test}/dialogues_NNN.json``: a JSON list of dialogues
  ``{"dialogue_id": "PMUL4398.json", "services": [...], "turns": [turn, ...]}``. Each turn has
  ``speaker`` (``USER``/``SYSTEM``, alternating, user first), ``turn_id`` (its position, as a
  string), ``utterance`` (untokenized text) and ``frames``, one per service. A user frame has
  ``state`` = ``{"active_intent", "requested_slots", "slot_values": {"domain-slot": [values]}}``
  (cumulative for its service; the list holds every acceptable spelling) and ``slots`` =
  character spans ``{"slot": "restaurant-name", "start", "exclusive_end", "value"}`` or
  "copy from" annotations ``{"slot", "copy_from", "value": [values]}``.
* ``dialog_acts.json``: ``{dialogue_id: {turn_id: {"dialog_act": {"Domain-Intent":
  [[slot, value], ...]}, "span_info": [[act, slot, value, start, exclusive end], ...]}}}``,
  keyed like the dialogue files (``"PMUL4398.json"``, ``"0"``); character offsets; slot names
  are the 2.2 lowercase span names (``name``, ``address``, ``bookday``, ``arriveby``, ...).

Output: the canonical tables of :mod:`mwzrepro.core.schemas` (see :data:`CANONICAL_TABLES`),
exactly the columns and conventions of :mod:`mwzrepro.prepare.ingest.convlab`, so every later stage
serves every version:

* ``dialogues``/``turns``: dialogue id = ``dialogue_id`` up to the first ``.``, lowercased
  (spec-standard-evaluation §5.4); ``turn_id`` = position in ``turns``; text verbatim.
* ``spans``: user turns from ``frames[].slots`` (frame order, then slot order; ``act`` is ``''``
  because frame spans carry no act; ``slot`` is the name after the domain prefix, ``source_slot``
  the full source name); system turns from ``dialog_acts.json`` ``span_info`` (the spans the
  reference evaluator delexicalizes, spec-standard-evaluation §5.4). ``copy_from`` annotations
  point at another slot, not at text, and give no span.
* ``acts``: ``dialog_act`` of every turn present in ``dialog_acts.json``.
* ``states``: ``frames[].state.slot_values`` of user turn ``turns[2t]`` give B_t
  (spec-dst-metrics §2.5): slot names via :func:`state_slot` (``restaurant-bookpeople`` →
  ``restaurant``, ``book people``); ``alternatives`` = the listed values without the empty
  markers of :data:`mwzrepro.prepare.ingest.convlab.EMPTY_MARKERS` (a slot left with none gives no
  row), ``value`` = the first of them; ``dontcare`` is kept; every domain is kept (hospital,
  bus, police too); ``position`` counts rows in frame order, then slot order.
* ``booked``: always empty (2.2 has no ``booked`` lists; the evaluator takes booked domains from
  its own ``booked_domains.json``).
* ``goals``: always empty (2.2 has no goals). Pipelines take goals from MultiWOZ 2.1 (the
  same 1,000 test dialogues; the reference evaluator's goal file derives from the 2.1 ``goal``
  field, and the test goals are identical in 2.0 and 2.1; spec-standard-evaluation §5.2).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from mwzrepro.core.schemas import TABLES
from mwzrepro.core.schemas.spec import empty_frame
from mwzrepro.prepare.ingest import CANONICAL_TABLES, IngestError
from mwzrepro.prepare.ingest.convlab import EMPTY_MARKERS
from mwzrepro.prepare.ingest.mwz22_annotations import act_spans, convert_acts, frame_spans

__all__ = ["read_mwz22", "convert_mwz22", "canonical_dialogue_id", "state_slot"]

#: 2.2 booking slot names → spec-dst-metrics §2.2 canonical names.
_BOOK_SLOTS = {
    "bookday": "book day",
    "bookpeople": "book people",
    "booktime": "book time",
    "bookstay": "book stay",
}

_SPEAKERS = ("USER", "SYSTEM")


def canonical_dialogue_id(source_id: str) -> str:
    """Canonical id of a 2.2 dialogue: the id up to the first ``.``, lowercased
    (``'PMUL4398.json'`` → ``'pmul4398'``; spec-standard-evaluation §5.4)."""
    return source_id.split(".", 1)[0].lower()


def state_slot(name: str) -> tuple[str, str]:
    """``(domain, canonical slot)`` of a 2.2 state key (spec-dst-metrics §2.5).

    The name is lowercased and split at the first ``-``; ``bookday``, ``bookpeople``,
    ``booktime`` and ``bookstay`` become ``book day``, ``book people``, ``book time`` and
    ``book stay``; other slots keep their 2.2 name (``restaurant-pricerange`` →
    ``('restaurant', 'pricerange')``, ``hospital-department`` → ``('hospital', 'department')``).

    Raises:
        ValueError: the name has no ``domain-`` prefix.
    """
    domain, sep, slot = name.lower().partition("-")
    if not sep or not domain or not slot:
        raise ValueError(f"state slot {name!r} is not of the form 'domain-slot'")
    return domain, _BOOK_SLOTS.get(slot, slot)


def read_mwz22(
    dialogue_files: Sequence[str | Path],
    dialog_acts_file: str | Path | None,
    split: str,
) -> tuple[dict[str, pd.DataFrame], list[dict]]:
    """Read MultiWOZ 2.2 dialogue files of one split, plus ``dialog_acts.json``.

    Args:
        dialogue_files: the split's ``dialogues_NNN.json`` files (a JSON list of dialogues each),
            read in the given order.
        dialog_acts_file: the release's ``dialog_acts.json`` (all splits in one file), or
            ``None``: then the acts table and the system-turn spans are empty.
        split: split label written into the dialogues table (``test``, ``dev``, ``train``).

    Returns:
        ``({table name: DataFrame} for every name in CANONICAL_TABLES, issues)``. Tables have
        the columns of :data:`mwzrepro.core.schemas.TABLES`, rows in source order. ``issues`` lists
        the span annotations that need attention, each
        ``{"where": "<split dir>/<file>: dialogue <id>, turn <n>",
        "span": [act, slot, value, start, end], "reason": ...}``:

        * offsets outside the utterance or inverted: left out of the spans table (the reason
          starts with ``skipped:``);
        * a value that differs from ``utterance[start:end]`` beyond case and surrounding
          whitespace: kept in the table, because the reference evaluator delexicalizes by
          offsets alone (the reason starts with ``kept:``).

    Raises:
        IngestError: unreadable file; malformed dialogue or turn; speakers that do not alternate
            starting with the user; a ``turn_id`` that differs from the position; an odd number
            of turns; a dialogue id present twice (also across files); two values for one
            (domain, slot) in a state; a system turn without a ``dialog_acts.json`` entry. The
            message names the file, the dialogue and the turn.
    """
    parts: list[tuple[str, Any]] = []
    for path in map(Path, dialogue_files):
        # 'test/dialogues_001.json': the file name alone repeats across splits
        parts.append((f"{path.parent.name}/{path.name}", _load_json(path)))
    acts = None
    acts_name = "<no dialog_acts.json>"
    if dialog_acts_file is not None:
        acts_name = Path(dialog_acts_file).name
        acts = _load_json(Path(dialog_acts_file))
    return convert_mwz22(parts, acts, split=split, acts_source=acts_name)


def _load_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise IngestError(f"{path}: cannot read MultiWOZ 2.2 JSON: {exc}") from None


def convert_mwz22(
    files: Iterable[tuple[str, Any]],
    dialog_acts: Mapping[str, Any] | None,
    split: str,
    acts_source: str = "dialog_acts.json",
) -> tuple[dict[str, pd.DataFrame], list[dict]]:
    """Convert parsed 2.2 data into canonical tables (see :func:`read_mwz22`).

    Args:
        files: ``(file label, parsed JSON list of dialogues)`` per dialogue file.
        dialog_acts: parsed ``dialog_acts.json`` or ``None``.
        split: split label.
        acts_source: label of the acts file in error messages.

    Raises:
        IngestError: as :func:`read_mwz22`.
    """
    acts_index = _index_dialog_acts(dialog_acts, acts_source) if dialog_acts is not None else None
    rows: dict[str, list[dict[str, Any]]] = {t: [] for t in CANONICAL_TABLES}
    issues: list[dict] = []
    seen: dict[str, str] = {}
    for source, dialogues in files:
        if not isinstance(dialogues, list):
            raise IngestError(f"{source}: top level must be a list of dialogues")
        for n, dialogue in enumerate(dialogues):
            if not isinstance(dialogue, dict) or not isinstance(dialogue.get("dialogue_id"), str):
                raise IngestError(f"{source}: dialogue #{n} needs a string 'dialogue_id'")
            source_id = dialogue["dialogue_id"]
            did = canonical_dialogue_id(source_id)
            where = f"{source}: dialogue {source_id}"
            if did in seen:
                raise IngestError(f"{where}: dialogue id {did!r} already read from {seen[did]}")
            seen[did] = f"{source} ({source_id})"
            turns = dialogue.get("turns")
            if not isinstance(turns, list) or len(turns) % 2:
                raise IngestError(
                    f"{where}: 'turns' must be a list of even length (user, system, ...)"
                )
            acts = None
            if acts_index is not None:
                if did not in acts_index:
                    raise IngestError(f"{acts_source}: no entry for dialogue {source_id}")
                acts = acts_index[did]
            rows["dialogues"].append(
                {"dialogue_id": did, "source_id": source_id, "split": split,
                 "n_turns": len(turns)}
            )
            for k, turn in enumerate(turns):
                acts_where = f"{acts_source}: dialogue {source_id}, turn {k}"
                _convert_turn(did, k, turn, acts, rows, issues, f"{where}, turn {k}", acts_where)
    tables = {name: _frame(rows[name], name) for name in CANONICAL_TABLES}
    return tables, issues


def _frame(rows: list[dict[str, Any]], table: str) -> pd.DataFrame:
    """Rows as a DataFrame with the table's columns; typed columns when there are no rows
    (pandas would otherwise create ``object`` columns, which schema validation rejects)."""
    spec = TABLES[table]
    if not rows:
        return empty_frame(spec)
    return pd.DataFrame(rows, columns=list(spec.columns))


def _index_dialog_acts(data: Any, source: str) -> dict[str, dict[str, Any]]:
    """``{canonical dialogue id: {turn key: entry}}`` of a parsed ``dialog_acts.json``."""
    if not isinstance(data, dict):
        raise IngestError(f"{source}: top level must be an object keyed by dialogue id")
    index: dict[str, dict[str, Any]] = {}
    origin: dict[str, str] = {}
    for key, turns in data.items():
        did = canonical_dialogue_id(key)
        if did in index:
            raise IngestError(f"{source}: dialogue ids {origin[did]!r} and {key!r} collide")
        if not isinstance(turns, dict):
            raise IngestError(f"{source}: dialogue {key}: expected an object keyed by turn id")
        index[did], origin[did] = turns, key
    return index


def _convert_turn(
    did: str,
    k: int,
    turn: Any,
    acts: Mapping[str, Any] | None,
    rows: dict[str, list[dict[str, Any]]],
    issues: list[dict],
    where: str,
    acts_where: str,
) -> None:
    if not isinstance(turn, dict):
        raise IngestError(f"{where}: turn must be an object")
    text = turn.get("utterance")
    if not isinstance(text, str):
        raise IngestError(f"{where}: turn needs a string 'utterance'")
    expected = _SPEAKERS[k % 2]
    if turn.get("speaker") != expected:
        raise IngestError(
            f"{where}: speaker {turn.get('speaker')!r}, expected {expected!r} "
            "(turns alternate USER, SYSTEM, starting with USER)"
        )
    if str(turn.get("turn_id")) != str(k):
        raise IngestError(f"{where}: turn_id {turn.get('turn_id')!r} differs from position {k}")
    frames = turn.get("frames", [])
    if not isinstance(frames, list) or not all(isinstance(f, dict) for f in frames):
        raise IngestError(f"{where}: 'frames' must be a list of objects")
    speaker = "user" if k % 2 == 0 else "system"
    rows["turns"].append({"dialogue_id": did, "turn_id": k, "speaker": speaker, "text": text})

    entry = None
    if acts is not None:
        entry = acts.get(str(k))
        if entry is None and speaker == "system":
            # The reference evaluator reads span_info of every system turn (§5.4).
            raise IngestError(f"{acts_where}: no entry for this system turn")
        if entry is not None and not isinstance(entry, dict):
            raise IngestError(f"{acts_where}: entry must be an object")

    if speaker == "user":
        frame_spans(did, k, text, frames, rows["spans"], issues, where)
        _frame_states(did, k // 2, frames, rows["states"], where)
    elif entry is not None:
        act_spans(did, k, text, entry.get("span_info") or [], rows["spans"], issues, acts_where)
    if entry is not None:
        # The README spells the key "dialogue_acts"; the released file uses "dialog_act".
        dialog_act = entry.get("dialog_act", entry.get("dialogue_acts")) or {}
        convert_acts(did, k, dialog_act, rows["acts"], acts_where)


def _frame_states(
    did: str, t: int, frames: list[dict], out: list[dict[str, Any]], where: str
) -> None:
    """Rows of B_t (spec-dst-metrics §2.5): union of the user turn's frame states."""
    position = 0
    seen: set[tuple[str, str]] = set()
    for frame in frames:
        service = frame.get("service")
        state = frame.get("state")
        if not isinstance(state, dict):
            raise IngestError(f"{where}: user frame {service!r} has no 'state' object")
        slot_values = state.get("slot_values") or {}
        if not isinstance(slot_values, dict):
            raise IngestError(f"{where}: frame {service!r}: 'slot_values' must be an object")
        for name, values in slot_values.items():
            try:
                domain, slot = state_slot(name)
            except ValueError as exc:
                raise IngestError(f"{where}: frame {service!r}: {exc}") from None
            if isinstance(service, str) and domain != service.lower():
                raise IngestError(f"{where}: slot {name!r} in the frame of service {service!r}")
            if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
                raise IngestError(
                    f"{where}: slot_values[{name!r}] must be a list of strings: {values!r}"
                )
            kept = [v for v in values if v not in EMPTY_MARKERS]
            if not kept:
                continue
            if (domain, slot) in seen:
                raise IngestError(f"{where}: two values for {domain}-{slot} in one state")
            seen.add((domain, slot))
            out.append(
                {"dialogue_id": did, "turn": t, "domain": domain, "slot": slot,
                 "value": kept[0], "alternatives": kept, "position": position}
            )
            position += 1
