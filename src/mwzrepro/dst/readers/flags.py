"""Per-slot correctness vectors, the layout of TripPy's released results
(``{dialogue: {turn: [30 flags]}}``; spec-dst-metrics §7.1; section numbers refer to that spec).

Example:
    >>> flags = parse_flags({"MUL0001.json": {"0": [1] * 30, "1": [0] + [1] * 29}}, "f.json")
    >>> sorted(flags), [sum(v) for v in flags["mul0001"]]
    (['mul0001'], [30, 29])
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mwzrepro.dst.state import N_SLOTS, DSTError, canonical_dialogue_id

__all__ = ["read_flag_file", "parse_flags"]


def read_flag_file(path: str | Path) -> dict[str, tuple[tuple[int, ...], ...]]:
    """Read a per-slot correctness-vector file (§7.1), e.g. ``trippy/trippy_result.json``.

    Returns:
        ``{dialogue id (lowercase, no .json): (flags of turn 0, …, flags of turn N−1)}``.

    Raises:
        DSTError: unreadable JSON; not an object of objects; turn keys not the decimal strings
            ``"0"`` … ``"N−1"``; a vector that is not :data:`~mwzrepro.dst.state.N_SLOTS`
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
