"""Alignment of DST inputs into scorable dialogues, with coverage (spec-dst-metrics §2.6, §10;
section numbers refer to that spec).

:func:`align_states` and :func:`align_flags` pair predictions with gold per dialogue,
:func:`select_dialogues` takes paired-state dialogues (gold and predictions from one source);
all three apply the ``excluded_dialogues`` parameter (§2.6; ``PMUL1455`` in the pipeline) and
return a :class:`Coverage` record: no dialogue or turn is ever dropped without being counted
there.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mwzrepro.core.errors import ConfigError
from mwzrepro.dst.state import (
    SLOT_INDEX,
    DialogueFlags,
    DialogueStates,
    DSTError,
    GoldDialogue,
    State,
    canonical_dialogue_id,
)

__all__ = [
    "Coverage",
    "MISSING_POLICIES",
    "PAPER_EXCLUDED_DIALOGUES",
    "align_states",
    "align_flags",
    "select_dialogues",
]

MISSING_POLICIES = ("error", "skip")

#: Default ``excluded_dialogues``: the FGA paper's Table 1 leaves out PMUL1455 (§2.6).
PAPER_EXCLUDED_DIALOGUES: tuple[str, ...] = ("pmul1455",)

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


def _excluded_set(excluded: Iterable[str]) -> set[str]:
    return {canonical_dialogue_id(d) for d in excluded}


def _coverage(source: str, turns: Mapping[str, int], excluded: set[str]) -> Coverage:
    """A :class:`Coverage` of the gold dialogues ``turns`` (``{dialogue id: gold turns}``)
    with the ``excluded`` dialogues recorded (present ones, absent ones, their turns)."""
    cov = Coverage(source=source, gold_dialogues=len(turns), gold_turns=sum(turns.values()))
    cov.excluded = sorted(d for d in excluded if d in turns)
    cov.excluded_absent = sorted(d for d in excluded if d not in turns)
    cov.excluded_turns = sum(turns[d] for d in cov.excluded)
    return cov


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
        ConfigError: unknown ``missing`` policy.
    """
    if missing not in MISSING_POLICIES:
        raise ConfigError(f"missing must be one of {MISSING_POLICIES}, got {missing!r}")
    excl = _excluded_set(excluded)
    cov = _coverage(source, {d: len(g.states) for d, g in gold.items()}, excl)
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


def select_dialogues(
    dialogues: Mapping[str, DialogueStates],
    excluded: Iterable[str] = PAPER_EXCLUDED_DIALOGUES,
    source: str = "",
) -> tuple[list[DialogueStates], Coverage]:
    """Paired-state dialogues (gold and predictions from one source, e.g. the human-evaluation
    logs) minus the excluded ones, with coverage."""
    excl = _excluded_set(excluded)
    cov = _coverage(source, {d: len(x.gold) for d, x in dialogues.items()}, excl)
    out = [dialogues[d] for d in sorted(dialogues) if d not in excl]
    cov.scored_dialogues = len(out)
    cov.scored_turns = sum(len(d.gold) for d in out)
    return out, cov
