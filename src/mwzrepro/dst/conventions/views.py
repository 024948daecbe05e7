"""Interned views of raw DST states under a convention, and a corpus's turns as arrays of view
ids (spec-dst-metrics §12, "DST scoring conventions").

Per turn, a convention compares the gold and the predicted *view*: the ``{key: cleaned value}``
dict of a raw state (:mod:`.cleaning`). A view depends on only some switches (gold: gdc, names,
clean, slots; predicted: pign, names, clean, slots), so conventions that agree on them share
it. :class:`ViewCache` gives every distinct view an integer id (equal views, gold or
predicted, one id), so a convention's turns become two id arrays (:meth:`ViewCache.turn_ids`)
and equal views are found by comparing integers (:func:`~.scoring.score_corpus`).

Raw states are keyed by identity and kept alive by the cache, so one cache may serve every
corpus that shares raw states: the gold turns of a version across systems, a system's
predicted states across versions (:func:`~.turns.gold_turns` and
:func:`~.turns.predicted_turns` share equal states). Views are computed in the order the
turns first reach their raw states (a turn's gold before its prediction), so the first value
the reference's normalization cannot read is the first one in turn order.

>>> cache = ViewCache()
>>> a, b = (("hotel", "area", "north"),), (("hotel", "area", " North"),)
>>> corpus = [RawDialogue("x", (a, b), ({"hotel": {"area": "south"}},) * 2)]
>>> gids, pids = cache.turn_ids(cache.turn_index(corpus), Convention())
>>> gids.tolist(), pids.tolist()  # fga cleaning: both gold views are {hotel-area: north}
([0, 0], [1, 1])
>>> cache.views[1]
{('hotel', 'area'): 'south'}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mwzrepro.dst.alignment import PAPER_EXCLUDED_DIALOGUES
from mwzrepro.dst.conventions.cleaning import (
    GOLD_DONTCARE,
    clean_value,
    ignored,
    in_scope,
    slot_key,
)
from mwzrepro.dst.conventions.switches import Convention
from mwzrepro.dst.conventions.turns import RawDialogue
from mwzrepro.dst.state import canonical_slot

__all__ = ["View", "TurnIndex", "turn_index", "ViewCache"]

#: ``{(domain, slot) key: cleaned value}`` of one raw state under a convention.
View = dict[tuple[str, str], Any]


@dataclass(frozen=True)
class TurnIndex:
    """A corpus's scored turns (dialogue order; a dialogue's gold and predicted turns paired)
    as positions into its distinct raw states.

    Attributes:
        gold, pred: the distinct raw gold triples and predicted states (by identity, in the
            order the turns first reach them).
        gold_at, pred_at: per scored turn, the position of its raw gold / predicted state
            (int arrays, one entry per turn).
        first_seen: ``(side, position)`` (side 0 gold, 1 predicted) of every distinct raw
            state in the order the turns first reach it (a turn's gold before its prediction).
        in_fga: per scored turn, whether ``dial:fga`` scores it (bool array).
        dialogues, turns: counts under ``dial`` ``{"all": n, "fga": n}`` (turns count
            ``len(gold)`` of each dialogue).
    """

    gold: tuple[Any, ...]
    pred: tuple[Any, ...]
    gold_at: np.ndarray
    pred_at: np.ndarray
    first_seen: tuple[tuple[int, int], ...]
    in_fga: np.ndarray
    dialogues: dict[str, int]
    turns: dict[str, int]


def turn_index(corpus: Iterable[RawDialogue]) -> TurnIndex:
    """The :class:`TurnIndex` of ``corpus``.

    >>> g, p = (("hotel", "area", "north"),), {"hotel": {"area": "north"}}
    >>> ix = turn_index([RawDialogue("pmul1455", (g, g), (p, p)),
    ...                  RawDialogue("mul0001", (g, ()), (p, p))])
    >>> ix.gold_at.tolist(), ix.pred_at.tolist(), ix.first_seen
    ([0, 0, 0, 1], [0, 0, 0, 0], ((0, 0), (1, 0), (0, 1)))
    >>> ix.in_fga.tolist(), ix.dialogues, ix.turns
    ([False, False, True, True], {'all': 2, 'fga': 1}, {'all': 4, 'fga': 2})
    """
    excluded = set(PAPER_EXCLUDED_DIALOGUES)
    where: tuple[dict[int, int], dict[int, int]] = ({}, {})
    raws: tuple[list[Any], list[Any]] = ([], [])
    at: tuple[list[int], list[int]] = ([], [])
    first_seen: list[tuple[int, int]] = []
    in_fga: list[bool] = []
    dialogues, turns = {"all": 0, "fga": 0}, {"all": 0, "fga": 0}
    for d in corpus:
        kept = d.dialogue_id not in excluded
        dialogues["all"] += 1
        dialogues["fga"] += kept
        turns["all"] += len(d.gold)
        turns["fga"] += len(d.gold) * kept
        for pair in zip(d.gold, d.pred):
            in_fga.append(kept)
            for side, raw in enumerate(pair):
                k = where[side].get(id(raw))
                if k is None:
                    k = where[side][id(raw)] = len(raws[side])
                    raws[side].append(raw)
                    first_seen.append((side, k))
                at[side].append(k)
    return TurnIndex(tuple(raws[0]), tuple(raws[1]), np.array(at[0], dtype=np.int64),
                     np.array(at[1], dtype=np.int64), tuple(first_seen),
                     np.array(in_fga, dtype=bool), dialogues, turns)


class ViewCache:
    """Interned views (:attr:`views`: id → view), the view id of every raw state per side and
    switches, the :class:`TurnIndex` of every corpus seen, and whatever
    :func:`~.scoring.score_corpus` keeps between calls (:attr:`memo`). Raw states and corpora
    are keyed by identity and kept alive while the cache lives."""

    def __init__(self) -> None:
        #: view id → view
        self.views: list[View] = []
        #: any other memo of the scoring (per-turn outcomes, pair outcomes, scores)
        self.memo: dict[Any, Any] = {}
        self._ids: dict[frozenset[tuple[tuple[str, str], Any]], int] = {}
        self._raw_ids: dict[tuple[str, ...], dict[int, int]] = {}
        self._alive: dict[int, Any] = {}
        self._flat: dict[int, tuple[tuple[str, str, Any], ...]] = {}
        self._cleaned: dict[tuple[str, str, str], dict[tuple[str, str, Any], Any]] = {}
        self._index: dict[int, tuple[object, TurnIndex]] = {}
        self._arrays: dict[tuple[int, tuple[str, ...]], np.ndarray] = {}

    def copy(self) -> ViewCache:
        """A cache with this one's views and raw states' view ids (corpora, turn indexes and
        :attr:`memo` left out); what the copy adds stays out of this cache (e.g. one system's
        predicted views, dropped with the copy)."""
        out = ViewCache()
        out.views, out._ids, out._alive = list(self.views), dict(self._ids), dict(self._alive)
        out._flat = dict(self._flat)
        out._raw_ids = {k: dict(v) for k, v in self._raw_ids.items()}
        out._cleaned = {k: dict(v) for k, v in self._cleaned.items()}
        return out

    def turn_index(self, corpus: Sequence[RawDialogue]) -> TurnIndex:
        """The :class:`TurnIndex` of ``corpus`` (built once per corpus object)."""
        done = self._index.get(id(corpus))
        if done is None:
            done = self._index[id(corpus)] = (corpus, turn_index(corpus))
        return done[1]

    def turn_ids(self, ix: TurnIndex, c: Convention) -> tuple[np.ndarray, np.ndarray]:
        """Per scored turn of ``ix``, the gold and the predicted view id under ``c``.

        Raises:
            InputError: a value the reference's normalization cannot read (the first in turn
                order).
        """
        keys = _side_keys(c)
        arrays = [self._arrays.get((id(ix), k)) for k in keys]
        if arrays[0] is None or arrays[1] is None:
            raws = (ix.gold, ix.pred)
            known = [self._raw_ids.setdefault(k, {}) for k in keys]
            ids = [[known[side].get(id(r), -1) for r in raws[side]]
                   if arrays[side] is None else [] for side in (0, 1)]
            view_id = (self._gold_id, self._pred_id)
            if -1 in ids[0] or -1 in ids[1]:  # new views: computed in turn order
                for side, k in ix.first_seen:
                    if arrays[side] is None and ids[side][k] < 0:
                        ids[side][k] = view_id[side](raws[side][k], c, keys[side])
            for side in (0, 1):
                if arrays[side] is None:
                    arrays[side] = self._arrays[(id(ix), keys[side])] = np.array(
                        ids[side], dtype=np.int64)
        return arrays[0][ix.gold_at], arrays[1][ix.pred_at]

    def warm_gold(self, raws: Iterable[Any], conventions: Iterable[Convention]) -> None:
        """Compute the gold views of raw gold triples under every convention, e.g. before
        forking workers that score many corpora on the same gold turns.

        Raises:
            InputError: a value the reference's normalization cannot read.
        """
        raws = list(raws)
        for c in conventions:
            key = _side_keys(c)[0]
            for raw in raws:
                self._gold_id(raw, c, key)

    def _gold_id(self, raw: Any, c: Convention, key: tuple[str, ...]) -> int:
        ids = self._raw_ids.setdefault(key, {})
        vid = ids.get(id(raw))
        if vid is None:
            triples = raw if c.gdc == "keep" else tuple(
                t for t in raw if t[2] not in GOLD_DONTCARE)
            vid = ids[id(raw)] = self._intern(self._view(triples, c))
            self._alive[id(raw)] = raw
        return vid

    def _pred_id(self, state: Mapping[str, Any], c: Convention, key: tuple[str, ...]) -> int:
        ids = self._raw_ids.setdefault(key, {})
        vid = ids.get(id(state))
        if vid is None:
            flat = self._flat.get(id(state))
            if flat is None:
                flat = self._flat[id(state)] = tuple(
                    (str(d), str(s), tuple(v) if isinstance(v, list) else v)
                    for d, slots in state.items() for s, v in slots.items())
                self._alive[id(state)] = state
            if c.pign != "keep":
                flat = tuple(t for t in flat if not ignored(t[2], c.pign))
            vid = ids[id(state)] = self._intern(self._view(flat, c))
        return vid

    def _intern(self, view: View) -> int:
        key = frozenset(view.items())
        vid = self._ids.get(key)
        if vid is None:
            vid = self._ids[key] = len(self.views)
            self.views.append(view)
        return vid

    def _view(self, triples: Iterable[tuple[str, str, Any]], c: Convention) -> View:
        memo = self._cleaned.setdefault((c.names, c.clean, c.slots), {})
        out: View = {}
        for triple in triples:
            cleaned = memo.get(triple, _MISSING)
            if cleaned is _MISSING:
                cleaned = memo[triple] = _cleaned(*triple, c)
            if cleaned is not None:
                out[cleaned[0]] = cleaned[1]
        return out


_MISSING = object()


def _side_keys(c: Convention) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The switches the gold and the predicted view depend on."""
    return ("g", c.gdc, c.names, c.clean, c.slots), ("p", c.pign, c.names, c.clean, c.slots)


def _cleaned(domain: str, slot: str, value: Any, c: Convention
             ) -> tuple[tuple[str, str], Any] | None:
    """``(key, cleaned value)`` of one raw triple, ``None`` when absent or out of scope."""
    if not in_scope(domain, slot, c.slots):
        return None
    key = slot_key(domain, slot, c.names)
    v = clean_value(c.clean, slot, canonical_slot(domain, slot) or key, value)
    return None if v is None else (key, v)
