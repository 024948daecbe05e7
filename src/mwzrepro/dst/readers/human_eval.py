"""The FGA release's human-evaluation logs (``human_evaluation_files/<id>.json.txt``), with
per-turn gold (``GT``) and predicted (``PR``) states (spec-dst-metrics §10 item 4; section
numbers refer to that spec).

Example:
    >>> parse_state_literal("{'hotel': {'name': 'cityroomz'}}", "x.json.txt")
    {'hotel': {'name': 'cityroomz'}}
    >>> parse_state_literal("{{}}", "x.json.txt")
    {}
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mwzrepro.dst.state import (
    DialogueStates,
    DSTError,
    State,
    canonical_dialogue_id,
    make_state,
    nested_triples,
)

__all__ = ["parse_state_literal", "read_human_eval_log", "read_human_eval_logs"]

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
            g = make_state(nested_triples(cur["GT"], at + " GT"), at + " GT")
            p = make_state(nested_triples(cur["PR"], at + " PR"), at + " PR")
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
