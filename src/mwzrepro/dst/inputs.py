"""Readers of DST inputs, and their alignment into scorable dialogues with coverage.

Sources (spec-dst-metrics §10; section numbers refer to that spec):

* gold states from the canonical ``states`` and ``dialogues`` tables of a (version, split)
  (:func:`gold_from_tables`, §2.4/§2.5);
* predicted states of an end-to-end system from its ``predictions`` table (mwzeval format
  ``{domain: {slot: value}}`` as ``state_json`` per system turn i = the state after user turn
  i, §2.6) (:func:`predictions_from_table`);
* per-slot correctness vectors, the layout of TripPy's released results (§7.1)
  (:func:`read_flag_file`);
* the FGA release's human-evaluation logs, with per-turn ``GT`` and ``PR`` states (§10 item 4)
  (:func:`read_human_eval_log`, :func:`read_human_eval_logs`).

:func:`align_states` and :func:`align_flags` pair predictions with gold per dialogue, apply the
``excluded_dialogues`` parameter (§2.6; default ``PMUL1455`` in the pipeline) and return a
:class:`Coverage` record: no dialogue or turn is ever dropped without being counted there.

Errors are :class:`mwzrepro.dst.metrics.DSTError` naming the file, dialogue and turn.
"""

from __future__ import annotations

import ast
import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from mwzrepro.dst.metrics import (
    SLOT_INDEX,
    N_SLOTS,
    DialogueFlags,
    DialogueStates,
    DSTError,
    State,
    Alternatives,
    canonical_slot,
    canonical_value,
    make_state,
)

__all__ = [
    "GoldDialogue",
    "Coverage",
    "canonical_dialogue_id",
    "gold_from_tables",
    "predictions_from_table",
    "align_states",
    "read_flag_file",
    "parse_flags",
    "align_flags",
    "read_human_eval_log",
    "read_human_eval_logs",
    "parse_state_literal",
    "select_dialogues",
    "read_paired_states",
    "MISSING_POLICIES",
    "PAPER_EXCLUDED_DIALOGUES",
]

MISSING_POLICIES = ("error", "skip")

#: Default ``excluded_dialogues``: the FGA paper's Table 1 leaves out PMUL1455 (§2.6).
PAPER_EXCLUDED_DIALOGUES: tuple[str, ...] = ("pmul1455",)


def canonical_dialogue_id(did: str) -> str:
    """Lowercase, without a ``.json`` suffix (``PMUL2563.json`` → ``pmul2563``, §2.4)."""
    d = str(did).strip().lower()
    return d[:-5] if d.endswith(".json") else d


@dataclass(frozen=True)
class GoldDialogue:
    """Gold states of one dialogue: B_0 … B_{N−1} and, per turn, the 2.2 alternatives."""

    states: tuple[State, ...]
    alternatives: tuple[Alternatives, ...]


@dataclass
class Coverage:
    """What was scored, and what was not and why (§2.6, §10).

    Attributes:
        source: label of the prediction source (file name).
        gold_dialogues, gold_turns: size of the gold corpus before exclusions.
        excluded: excluded dialogue ids found in the gold corpus (parameter
            ``excluded_dialogues``), with ``excluded_turns`` their turns.
        excluded_absent: excluded ids that were not in the gold corpus.
        missing_dialogues: gold dialogues without predictions (only with policy ``skip``).
        missing_turns: ``{dialogue id: [turns]}`` gold turns without predictions at the end of
            a dialogue (only with policy ``skip``).
        scored_dialogues, scored_turns: the evaluated corpus.
        dropped_pred_slots: ``{"domain-slot": n}`` predicted values outside the 30 slots
            removed by the explicit filter (§2.2).
        dropped_gold_slots: ``{"domain-slot": n}`` gold values outside the 30 slots (police,
            hospital, bus, ``train-book ticket``; not in 𝒮 by definition).
    """

    source: str = ""
    gold_dialogues: int = 0
    gold_turns: int = 0
    excluded: list[str] = field(default_factory=list)
    excluded_turns: int = 0
    excluded_absent: list[str] = field(default_factory=list)
    missing_dialogues: list[str] = field(default_factory=list)
    missing_turns: dict[str, list[int]] = field(default_factory=dict)
    scored_dialogues: int = 0
    scored_turns: int = 0
    dropped_pred_slots: dict[str, int] = field(default_factory=dict)
    dropped_gold_slots: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready record (sorted lists and keys)."""
        return {
            "source": self.source,
            "gold_dialogues": self.gold_dialogues,
            "gold_turns": self.gold_turns,
            "excluded": sorted(self.excluded),
            "excluded_turns": self.excluded_turns,
            "excluded_absent": sorted(self.excluded_absent),
            "missing_dialogues": sorted(self.missing_dialogues),
            "missing_turns": {k: v for k, v in sorted(self.missing_turns.items())},
            "n_missing_turns": sum(len(v) for v in self.missing_turns.values()),
            "scored_dialogues": self.scored_dialogues,
            "scored_turns": self.scored_turns,
            "dropped_pred_slots": dict(sorted(self.dropped_pred_slots.items())),
            "dropped_gold_slots": dict(sorted(self.dropped_gold_slots.items())),
        }


# --------------------------------------------------------------------------------------------
# Gold states from the canonical tables


def gold_from_tables(
    states: pd.DataFrame,
    dialogues: pd.DataFrame,
    where: str = "",
    dropped: Counter | None = None,
) -> dict[str, GoldDialogue]:
    """Gold belief states per dialogue from the canonical ``states`` and ``dialogues`` tables.

    Args:
        states: the ``states`` table (dialogue_id, turn = user-turn index, domain, slot with
            canonical names, value verbatim, alternatives, position).
        dialogues: the ``dialogues`` table (dialogue_id, n_turns = log length); N = n_turns/2.
        where: file label for error messages.
        dropped: if given, gold values outside the 30 slots are counted here (they are not in
            𝒮 and are always left out, §2.2).

    Returns:
        ``{dialogue id: GoldDialogue}`` with N canonical states each (turns without a row
        have the empty state); values canonicalised per §2.3, alternatives likewise (first =
        canonical spelling).

    Raises:
        DSTError: a state row for an unknown dialogue or a turn ≥ N, or two values for one slot
            (names ``where``, dialogue and turn).
    """
    dropped = Counter() if dropped is None else dropped
    n_user = {str(d): int(n) // 2 for d, n in zip(dialogues["dialogue_id"], dialogues["n_turns"])}
    rows: dict[tuple[str, int], list[tuple[str, str, str, list[str]]]] = {}
    cols = ["dialogue_id", "turn", "domain", "slot", "value", "alternatives"]
    ordered = states.sort_values(["dialogue_id", "turn", "position"], kind="mergesort")
    for did, turn, domain, slot, value, alts in ordered[cols].itertuples(index=False):
        did, turn = str(did), int(turn)
        if did not in n_user:
            raise DSTError(f"{where}: dialogue {did}, turn {turn}: state row for a dialogue "
                           f"missing from the dialogues table")
        if not 0 <= turn < n_user[did]:
            raise DSTError(f"{where}: dialogue {did}, turn {turn}: state turn outside the "
                           f"{n_user[did]} user turns")
        alt_list = list(alts) if alts is not None and len(alts) else [value]
        rows.setdefault((did, turn), []).append((domain, slot, value, alt_list))
    out: dict[str, GoldDialogue] = {}
    for did, n in n_user.items():
        states_t: list[State] = []
        alts_t: list[Alternatives] = []
        for t in range(n):
            here = f"{where}: dialogue {did}, turn {t}"
            trip = rows.get((did, t), [])
            state = make_state(((d, s, v) for d, s, v, _ in trip), here, dropped)
            alts: dict = {}
            for d, s, _, al in trip:
                pair = canonical_slot(d, s)
                if pair in state:
                    vals = [canonical_value(a, here) for a in al]
                    vals = [state[pair]] + [v for v in vals if v is not None and v != state[pair]]
                    alts[pair] = tuple(dict.fromkeys(vals))
            states_t.append(state)
            alts_t.append(alts)
        out[did] = GoldDialogue(tuple(states_t), tuple(alts_t))
    return out


# --------------------------------------------------------------------------------------------
# End-to-end systems' predicted states (predictions table, mwzeval format)


def predictions_from_table(
    predictions: pd.DataFrame,
    where: str = "",
    dropped: Counter | None = None,
) -> dict[str, dict[int, State]] | None:
    """Predicted belief states from a ``predictions`` table (``state_json`` per system turn).

    System turn i carries the state after user turn i (§2.6), so the turn index is kept.
    mwzeval slot spellings (``arrive``, ``leave``, ``arrive by``, ``price range``, ``people``,
    ``day``, ``time``, ``stay``) are mapped to the canonical 30 slots by
    :func:`mwzrepro.dst.metrics.canonical_slot`.

    Args:
        predictions: the ``predictions`` table (dialogue_id, turn, state_json, ...).
        where: file label for error messages.
        dropped: if given, predicted values for slots outside the 30 (``taxi-day``,
            ``hotel-arrive``, ``hospital-department``, ...) are removed and counted here — the
            explicit filter of §2.2; if ``None`` they are an error.

    Returns:
        ``{dialogue id: {turn: state}}``, or ``None`` when no turn has a state (the system
        releases no states).

    Raises:
        DSTError: some turns have a state and others do not; ``state_json`` that is not a JSON
            object of objects of strings; two values for one slot; an unknown slot when
            ``dropped`` is ``None``. Messages name ``where``, dialogue and turn.
    """
    sj = predictions["state_json"]
    has = sj.notna()
    if not has.any():
        return None
    if not has.all():
        first = predictions.loc[~has].iloc[0]
        raise DSTError(f"{where}: dialogue {first['dialogue_id']}, turn {int(first['turn'])}: "
                       f"no predicted state, but other turns have one (states must be given "
                       f"for every turn or none)")
    out: dict[str, dict[int, State]] = {}
    for did, turn, text in predictions[["dialogue_id", "turn", "state_json"]].itertuples(
        index=False
    ):
        did = canonical_dialogue_id(did)
        here = f"{where}: dialogue {did}, turn {int(turn)}"
        try:
            raw = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DSTError(f"{here}: unreadable state_json: {exc}") from None
        out.setdefault(did, {})[int(turn)] = make_state(_nested_triples(raw, here), here, dropped)
    return out


def _nested_triples(raw: Any, here: str) -> Iterable[tuple[str, str, Any]]:
    """``{domain: {slot: value}}`` → (domain, slot, value) triples, validating the nesting."""
    if not isinstance(raw, Mapping):
        raise DSTError(f"{here}: state must be an object {{domain: {{slot: value}}}}, "
                       f"got {type(raw).__name__}")
    for domain, slots in raw.items():
        if not isinstance(slots, Mapping):
            raise DSTError(f"{here}: state of domain {domain!r} must be an object of slots, "
                           f"got {slots!r}")
        for slot, value in slots.items():
            yield str(domain), str(slot), value


# --------------------------------------------------------------------------------------------
# Alignment and coverage


def _excluded_set(excluded: Iterable[str]) -> set[str]:
    return {canonical_dialogue_id(d) for d in excluded}


def align_states(
    gold: Mapping[str, GoldDialogue],
    pred: Mapping[str, Mapping[int, State]],
    excluded: Iterable[str] = PAPER_EXCLUDED_DIALOGUES,
    missing: str = "error",
    source: str = "",
) -> tuple[list[DialogueStates], Coverage]:
    """Pair predicted with gold states per dialogue and user turn (§2.6).

    Args:
        gold: ``{dialogue id: GoldDialogue}`` (:func:`gold_from_tables`).
        pred: ``{dialogue id: {turn: state}}`` keyed by user-turn index.
        excluded: dialogue ids left out of the corpus (any case, ``.json`` optional; default
            :data:`PAPER_EXCLUDED_DIALOGUES`); each is reported in the coverage.
        missing: ``"error"`` — every gold dialogue and turn must be predicted; ``"skip"`` —
            a gold dialogue without predictions, or turns missing at the end of a dialogue, are
            left out and listed in the coverage (the prediction file's own coverage, e.g. labes
            and the ``mul0789`` gap of some systems).
        source: file label for messages and the coverage.

    Returns:
        ``(dialogues sorted by id, coverage)``.

    Raises:
        DSTError: a predicted dialogue absent from the gold; predicted turns that are not
            contiguous from 0 or exceed the gold turns; missing dialogues/turns with policy
            ``error``. Messages name ``source``, dialogue and turn.
        ValueError: unknown ``missing`` policy.
    """
    if missing not in MISSING_POLICIES:
        raise ValueError(f"missing must be one of {MISSING_POLICIES}, got {missing!r}")
    excl = _excluded_set(excluded)
    cov = Coverage(source=source, gold_dialogues=len(gold),
                   gold_turns=sum(len(g.states) for g in gold.values()))
    cov.excluded = sorted(d for d in excl if d in gold)
    cov.excluded_absent = sorted(d for d in excl if d not in gold)
    cov.excluded_turns = sum(len(gold[d].states) for d in cov.excluded)
    extra = sorted(set(pred) - set(gold))
    if extra:
        raise DSTError(f"{source}: dialogue {extra[0]} is predicted but not in the gold states "
                       f"({len(extra)} such dialogue(s))")
    out: list[DialogueStates] = []
    for did in sorted(gold):
        if did in excl:
            continue
        g = gold[did]
        n = len(g.states)
        p = pred.get(did)
        if p is None:
            if missing == "error":
                raise DSTError(f"{source}: dialogue {did}: no predictions for this gold "
                               f"dialogue ({n} turns)")
            cov.missing_dialogues.append(did)
            continue
        turns = sorted(p)
        if turns != list(range(len(turns))):
            gap = next(t for t, u in enumerate(turns) if t != u)
            raise DSTError(f"{source}: dialogue {did}, turn {gap}: predicted turns are not "
                           f"contiguous from 0 (have {turns})")
        if len(turns) > n:
            raise DSTError(f"{source}: dialogue {did}, turn {n}: prediction for a turn beyond "
                           f"the {n} gold user turns")
        if len(turns) < n:
            if missing == "error":
                raise DSTError(f"{source}: dialogue {did}, turn {len(turns)}: missing "
                               f"prediction (gold has {n} turns)")
            cov.missing_turns[did] = list(range(len(turns), n))
        if not turns:
            cov.missing_dialogues.append(did)
            continue
        k = len(turns)
        out.append(DialogueStates(did, g.states[:k], tuple(p[t] for t in range(k)),
                                  g.alternatives[:k]))
    cov.scored_dialogues = len(out)
    cov.scored_turns = sum(len(d.gold) for d in out)
    return out, cov


# --------------------------------------------------------------------------------------------
# Per-slot correctness vectors (TripPy results)


def read_flag_file(path: str | Path) -> dict[str, tuple[tuple[int, ...], ...]]:
    """Read a per-slot correctness-vector file (§7.1), e.g. ``trippy/trippy_result.json``.

    Returns:
        ``{dialogue id (lowercase, no .json): (flags of turn 0, …, flags of turn N−1)}``.

    Raises:
        DSTError: unreadable JSON; not an object of objects; turn keys not the decimal strings
            ``"0"`` … ``"N−1"``; a vector that is not :data:`~mwzrepro.dst.metrics.N_SLOTS`
            integers 0/1. Messages name the file, dialogue and turn.
    """
    path = Path(path)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DSTError(f"{path}: cannot read flag file: {exc}") from None
    return parse_flags(raw, str(path))


def parse_flags(raw: Any, source: str = "") -> dict[str, tuple[tuple[int, ...], ...]]:
    """Validate parsed flag-file JSON (see :func:`read_flag_file`)."""
    if not isinstance(raw, Mapping):
        raise DSTError(f"{source}: top level must be an object {{dialogue: {{turn: flags}}}}")
    out: dict[str, tuple[tuple[int, ...], ...]] = {}
    for did_raw, turns in raw.items():
        did = canonical_dialogue_id(did_raw)
        here = f"{source}: dialogue {did_raw}"
        if did in out:
            raise DSTError(f"{here}: duplicate dialogue id after removing .json/lowercasing")
        if not isinstance(turns, Mapping):
            raise DSTError(f"{here}: must map turn index to a flag vector")
        try:
            idx = sorted(int(k) for k in turns)
        except ValueError:
            raise DSTError(f"{here}: turn keys must be decimal integers, got "
                           f"{sorted(turns)}") from None
        for t, k in enumerate(idx):
            if t != k:
                raise DSTError(f"{here}, turn {t}: missing; turn keys must be contiguous "
                               f"from 0 (have {idx})")
        if set(turns) != {str(t) for t in idx}:
            raise DSTError(f"{here}: turn keys must be plain decimal strings, got {sorted(turns)}")
        vectors = []
        for t in idx:
            v = turns[str(t)]
            if (not isinstance(v, list) or len(v) != N_SLOTS
                    or any(type(b) is not int or b not in (0, 1) for b in v)):
                n = len(v) if isinstance(v, list) else "n/a"
                raise DSTError(f"{here}, turn {t}: flag vector must be {N_SLOTS} integers "
                               f"0/1, got length {n}: {v!r}")
            vectors.append(tuple(v))
        out[did] = tuple(vectors)
    return out


def align_flags(
    flags: Mapping[str, Sequence[Sequence[int]]],
    gold: Mapping[str, GoldDialogue] | None,
    excluded: Iterable[str] = PAPER_EXCLUDED_DIALOGUES,
    source: str = "",
) -> tuple[list[DialogueFlags], Coverage]:
    """Pair flag vectors with gold presence (for AGA, §7.2) and apply exclusions.

    Args:
        flags: ``{dialogue id: per-turn flag vectors}`` (:func:`read_flag_file`).
        gold: gold states of the same dialogues, or ``None`` (then AGA is not computed and
            the corpus is the flag file's own).
        excluded: dialogue ids left out (reported; default
            :data:`PAPER_EXCLUDED_DIALOGUES`).
        source: file label.

    Returns:
        ``(dialogues sorted by id, coverage)``; coverage counts the gold corpus when ``gold``
        is given, else the flag file.

    Raises:
        DSTError: with ``gold``: a flag dialogue not in the gold, a gold dialogue without
            flags, or a different number of turns (names source, dialogue and turn).
    """
    excl = _excluded_set(excluded)
    base = gold if gold is not None else flags
    cov = Coverage(source=source, gold_dialogues=len(base),
                   gold_turns=sum(len(g.states) if isinstance(g, GoldDialogue) else len(g)
                                  for g in base.values()))
    cov.excluded = sorted(d for d in excl if d in base)
    cov.excluded_absent = sorted(d for d in excl if d not in base)
    cov.excluded_turns = sum(
        len(base[d].states) if isinstance(base[d], GoldDialogue) else len(base[d])
        for d in cov.excluded
    )
    if gold is not None:
        extra = sorted(set(flags) - set(gold))
        if extra:
            raise DSTError(f"{source}: dialogue {extra[0]} has flags but no gold states "
                           f"({len(extra)} such dialogue(s))")
        absent = sorted(set(gold) - set(flags) - excl)
        if absent:
            raise DSTError(f"{source}: dialogue {absent[0]}: gold dialogue without flag "
                           f"vectors ({len(absent)} such dialogue(s))")
    out = []
    for did in sorted(flags):
        if did in excl:
            continue
        vectors = tuple(tuple(v) for v in flags[did])
        present = None
        if gold is not None:
            states = gold[did].states
            if len(states) != len(vectors):
                t = min(len(states), len(vectors))
                raise DSTError(f"{source}: dialogue {did}, turn {t}: {len(vectors)} flag "
                               f"vectors but {len(states)} gold user turns")
            present = tuple(frozenset(SLOT_INDEX[s] for s in st) for st in states)
        out.append(DialogueFlags(did, vectors, present))
    cov.scored_dialogues = len(out)
    cov.scored_turns = sum(len(d.flags) for d in out)
    return out, cov


# --------------------------------------------------------------------------------------------
# Human-evaluation logs (FGA release, human_evaluation_files/*.json.txt)

_FIELD = re.compile(r"^(Dialogue ID|Turn|Sys|Usr|GT|PR|Matched)\s*:\s?(.*)$")
_DASHES = re.compile(r"^-{3,}\s*$")


def parse_state_literal(text: str, where: str) -> dict[str, dict[str, Any]]:
    """Parse a state printed as a Python dict literal (``{'hotel': {'name': 'cityroomz'}}``).

    ``{{}}`` (how the logs print an empty gold state) and ``{}`` are the empty state. Parsed
    with :func:`ast.literal_eval`, never evaluated as code.

    Raises:
        DSTError: not a literal, or not a dict of dicts (names ``where``).
    """
    s = text.strip()
    if s in ("{{}}", "{}"):
        return {}
    try:
        value = ast.literal_eval(s)
    except (ValueError, SyntaxError, MemoryError, RecursionError) as exc:
        raise DSTError(f"{where}: unreadable state {s[:80]!r}: {exc.__class__.__name__}") \
            from None
    if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
        raise DSTError(f"{where}: state must be {{domain: {{slot: value}}}}, got {s[:80]!r}")
    return value


def read_human_eval_log(path: str | Path) -> tuple[DialogueStates, list[str]]:
    """Read one human-evaluation log (``<id>.json.txt``, FGA release; spec §10 item 4).

    Layout: a ``Dialogue ID : <id>.json`` line, then per turn ``Turn: t``, ``Sys : …``,
    ``Usr : …`` (utterances may continue on following lines), ``GT  : <state>``,
    ``PR  : <state>``, ``Matched : True|False``, blocks separated by dashed lines. States are
    Python dict literals with booking slots without the ``book `` prefix.

    Returns:
        ``(dialogue, notes)``: the gold (GT) and predicted (PR) states of every turn; ``notes``
        lists lines that were not understood but did not affect a state (file, dialogue,
        turn and line number).

    Raises:
        DSTError: no dialogue id; an unreadable ``GT``/``PR``/``Matched`` line; a turn missing
            one of them; turns not numbered 0 … N−1; ``Matched`` disagreeing with
            B_t = B'_t; an unknown slot or two values for one slot. Every problem of the file is
            listed, each with file, dialogue, turn and line number.
    """
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise DSTError(f"{path}: cannot read human-evaluation log: {exc}") from None
    did: str | None = None
    turns: list[dict[str, Any]] = []
    problems: list[str] = []
    notes: list[str] = []
    last_field: str | None = None

    def here(lineno: int) -> str:
        t = f", turn {turns[-1]['turn']}" if turns else ""
        return f"{path.name}: dialogue {did or '?'}{t}, line {lineno}"

    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        if _DASHES.match(line):
            last_field = None
            continue
        m = _FIELD.match(line)
        if not m:
            if last_field in ("Sys", "Usr"):
                turns[-1][last_field] += "\n" + line  # utterance continued on the next line
            else:
                notes.append(f"{here(lineno)}: unrecognised line {line[:60]!r}")
            continue
        key, val = m.group(1), m.group(2)
        last_field = key
        if key == "Dialogue ID":
            if did is not None:
                problems.append(f"{here(lineno)}: second Dialogue ID line")
            did = canonical_dialogue_id(val)
            continue
        if key == "Turn":
            try:
                t = int(val.strip())
            except ValueError:
                problems.append(f"{here(lineno)}: unreadable turn number {val!r}")
                t = len(turns)
            turns.append({"turn": t, "line": lineno})
            continue
        if not turns:
            problems.append(f"{here(lineno)}: {key} line before the first Turn line")
            continue
        cur = turns[-1]
        if key in cur:
            problems.append(f"{here(lineno)}: second {key} line in this turn")
            continue
        if key in ("Sys", "Usr"):
            cur[key] = val
        elif key in ("GT", "PR"):
            try:
                cur[key] = parse_state_literal(val, here(lineno))
            except DSTError as exc:
                problems.append(str(exc))
                cur[key] = None
        else:
            v = val.strip()
            if v not in ("True", "False"):
                problems.append(f"{here(lineno)}: Matched must be True or False, got {v!r}")
                cur[key] = None
            else:
                cur[key] = v == "True"
    if did is None:
        problems.insert(0, f"{path.name}: no 'Dialogue ID :' line")
    gold: list[State] = []
    pred: list[State] = []
    for i, cur in enumerate(turns):
        at = f"{path.name}: dialogue {did}, turn {cur['turn']}, line {cur['line']}"
        if cur["turn"] != i:
            problems.append(f"{at}: turns must be numbered 0, 1, …; expected {i}")
        lacking = [k for k in ("GT", "PR", "Matched") if k not in cur]
        if lacking:
            problems.append(f"{at}: missing {', '.join(lacking)} line(s)")
            continue
        if cur["GT"] is None or cur["PR"] is None or cur["Matched"] is None:
            continue
        try:
            g = make_state(_nested_triples(cur["GT"], at + " GT"), at + " GT")
            p = make_state(_nested_triples(cur["PR"], at + " PR"), at + " PR")
        except DSTError as exc:
            problems.append(str(exc))
            continue
        if (g == p) != cur["Matched"]:
            problems.append(f"{at}: Matched : {cur['Matched']} but GT and PR states are "
                            f"{'equal' if g == p else 'different'}")
        gold.append(g)
        pred.append(p)
    if not turns and did is not None:
        problems.append(f"{path.name}: dialogue {did}: no turns")
    if problems:
        shown = "; ".join(problems[:10])
        more = f" (+{len(problems) - 10} more)" if len(problems) > 10 else ""
        raise DSTError(f"{len(problems)} problem(s) in human-evaluation log: {shown}{more}")
    return DialogueStates(did, tuple(gold), tuple(pred)), notes


def read_human_eval_logs(paths: Iterable[str | Path]) -> tuple[dict[str, DialogueStates],
                                                               list[str]]:
    """Read several human-evaluation logs (:func:`read_human_eval_log`).

    Returns:
        ``({dialogue id: DialogueStates}, notes of all files)``.

    Raises:
        DSTError: as :func:`read_human_eval_log`; two files for one dialogue.
    """
    out: dict[str, DialogueStates] = {}
    notes: list[str] = []
    for p in sorted(Path(x) for x in paths):
        d, n = read_human_eval_log(p)
        if d.dialogue_id in out:
            raise DSTError(f"{p}: dialogue {d.dialogue_id} appears in two log files")
        out[d.dialogue_id] = d
        notes.extend(n)
    return out, notes


def select_dialogues(
    dialogues: Mapping[str, DialogueStates],
    excluded: Iterable[str] = PAPER_EXCLUDED_DIALOGUES,
    source: str = "",
) -> tuple[list[DialogueStates], Coverage]:
    """Paired-state dialogues (gold and predictions from one source, e.g. the human-evaluation
    logs) minus the excluded ones, with coverage."""
    excl = _excluded_set(excluded)
    cov = Coverage(source=source, gold_dialogues=len(dialogues),
                   gold_turns=sum(len(d.gold) for d in dialogues.values()))
    cov.excluded = sorted(d for d in excl if d in dialogues)
    cov.excluded_absent = sorted(d for d in excl if d not in dialogues)
    cov.excluded_turns = sum(len(dialogues[d].gold) for d in cov.excluded)
    out = [dialogues[d] for d in sorted(dialogues) if d not in excl]
    cov.scored_dialogues = len(out)
    cov.scored_turns = sum(len(d.gold) for d in out)
    return out, cov


# --------------------------------------------------------------------------------------------
# Paired state files (the authors' TRADE / SOM-DST results layout, §10 item 1)


def read_paired_states(path: str | Path) -> dict[str, DialogueStates]:
    """Read a paired state file ``{dialogue id: {turn: {"gt": state, "pr": state}}}``.

    States are nested ``{domain: {slot: value}}``; slot names may carry or omit the ``book``
    prefix. Turn keys must be the decimal strings ``"0"`` … ``"N−1"``.

    Returns:
        ``{dialogue id (lowercase, no .json): DialogueStates}``.

    Raises:
        DSTError: unreadable JSON, wrong nesting, non-contiguous turns, a turn without ``gt``
            or ``pr``, an unknown slot or two values for one slot (names file, dialogue, turn).
    """
    path = Path(path)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DSTError(f"{path}: cannot read paired state file: {exc}") from None
    if not isinstance(raw, Mapping):
        raise DSTError(f"{path}: top level must be an object {{dialogue: {{turn: {{gt, pr}}}}}}")
    out: dict[str, DialogueStates] = {}
    for did_raw, turns in raw.items():
        did = canonical_dialogue_id(did_raw)
        here = f"{path.name}: dialogue {did_raw}"
        if not isinstance(turns, Mapping):
            raise DSTError(f"{here}: must map turn index to {{gt, pr}}")
        try:
            idx = sorted(int(k) for k in turns)
        except ValueError:
            raise DSTError(f"{here}: turn keys must be decimal integers") from None
        if idx != list(range(len(idx))):
            gap = next(t for t, k in enumerate(idx) if t != k)
            raise DSTError(f"{here}, turn {gap}: missing; turns must be contiguous from 0")
        gold, pred = [], []
        for t in idx:
            entry = turns.get(str(t))
            at = f"{here}, turn {t}"
            if not isinstance(entry, Mapping) or "gt" not in entry or "pr" not in entry:
                raise DSTError(f"{at}: needs 'gt' and 'pr' states")
            gold.append(make_state(_nested_triples(entry["gt"], at + " gt"), at + " gt"))
            pred.append(make_state(_nested_triples(entry["pr"], at + " pr"), at + " pr"))
        if did in out:
            raise DSTError(f"{here}: duplicate dialogue id after lowercasing")
        out[did] = DialogueStates(did, tuple(gold), tuple(pred))
    return out
