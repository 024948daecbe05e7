"""JGA and slot accuracy of raw turns under a convention (spec-dst-metrics §12
"DST scoring conventions").

Per turn, the gold and predicted states become ``{key: cleaned value}`` views
(:mod:`.cleaning`; interned by :mod:`.views`, so equal views are equal ids and every other
pair of views is compared once per cache); under ``pscope:gold-dom`` predicted slots of domains absent from the gold
view are dropped. A key *matches* when both views have it and the values match (``exact``:
equal strings; ``fuzzy95``: the reference's ``partial_ratio(predicted, gold) > 95``,
spec-standard-evaluation §7, §13; a tuple of alternatives never matches). The turn is a joint
match when the key sets are equal and every key matches; its wrong slots W_t are the keys of
either view that do not match. Over the scored turns (``dial:fga`` leaves out the FGA paper's
excluded dialogues, spec-dst-metrics §2.6):

* JGA = joint matches / turns (a fraction);
* SA = 1 − Σ|W_t| / (|𝒮| · turns) (the FGA paper's Eq. 1; |𝒮| from :func:`n_scope_slots`).

>>> from mwzrepro.dst.conventions.turns import RawDialogue
>>> d = RawDialogue("x", ((("hotel", "area", "dontcare"),),), ({"hotel": {"area": "dontcare"}},))
>>> s = score_corpus([d], Convention(gdc="drop"))
>>> s.turns, s.joint, s.wrong
(1, 0, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mwzrepro.core.fuzzy import partial_ratio
from mwzrepro.dst.conventions.cleaning import n_scope_slots
from mwzrepro.dst.conventions.switches import Convention
from mwzrepro.dst.conventions.turns import RawDialogue
from mwzrepro.dst.conventions.views import TurnIndex, ViewCache

__all__ = ["ConventionScores", "ViewCache", "score_corpus", "turn_outcomes"]


@dataclass(frozen=True)
class ConventionScores:
    """Corpus counts under one convention.

    Attributes:
        convention: the switches. dialogues, turns: what was scored.
        joint: joint matches. wrong: Σ|W_t|. n_slots: |𝒮| of SA.
    """

    convention: Convention
    dialogues: int
    turns: int
    joint: int
    wrong: int
    n_slots: int

    @property
    def jga(self) -> float:
        """Joint goal accuracy, a fraction (0 without turns)."""
        return self.joint / self.turns if self.turns else 0.0

    @property
    def sa(self) -> float:
        """Slot accuracy, a fraction (0 without turns)."""
        return 1 - self.wrong / (self.n_slots * self.turns) if self.turns else 0.0

    def as_dict(self, version: str | None = None) -> dict[str, Any]:
        """``{"signature", "jga", "sa" (fractions), "dialogues", "turns", "joint", "wrong"}``;
        the signature has ``ver:`` when ``version`` (the dataset version) is given."""
        return {"signature": self.convention.signature(version=version), "jga": self.jga,
                "sa": self.sa,
                "dialogues": self.dialogues, "turns": self.turns, "joint": self.joint,
                "wrong": self.wrong}


def _matcher(match: str, seen: dict[tuple[Any, Any], bool]):
    if match == "exact":
        return lambda p, g: type(p) is str and p == g

    def fuzzy(p: Any, g: Any) -> bool:
        if isinstance(p, tuple) or isinstance(g, tuple):
            return False
        key = (p, g)
        if key not in seen:
            seen[key] = p == g or partial_ratio(str(p), str(g), "reference") > 95
        return seen[key]
    return fuzzy


def score_corpus(corpus: Sequence[RawDialogue], convention: Convention,
                 cache: ViewCache | None = None) -> ConventionScores:
    """JGA and SA counts of ``corpus`` under ``convention`` (module doc).

    Args:
        corpus: :func:`~mwzrepro.dst.conventions.turns.raw_corpus` dialogues.
        convention: the switches.
        cache: views and scores shared with other calls (a fresh one by default; it may serve
            many corpora, :mod:`.views`); a convention already scored on this corpus object is
            not scored again, and the two ``dial`` values share the turns' outcomes.

    Returns:
        :class:`ConventionScores`.

    Raises:
        InputError: a value the reference's normalization cannot read (``clean:mwzeval``).
    """
    cache = cache or ViewCache()
    done = cache.memo.get(convention)
    if done is not None and done[0] is corpus:
        return done[1]
    c = convention
    ix = cache.turn_index(corpus)
    joint, wrong = turn_outcomes(cache, ix, c)
    if c.dial == "fga":
        joint, wrong = joint[ix.in_fga], wrong[ix.in_fga]
    scores = ConventionScores(c, ix.dialogues[c.dial], ix.turns[c.dial], int(joint.sum()),
                              int(wrong.sum()), n_scope_slots(c.slots))
    cache.memo[convention] = (corpus, scores)
    return scores


def turn_outcomes(cache: ViewCache, ix: TurnIndex, c: Convention
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Per scored turn of ``ix`` (every dialogue, whatever ``c.dial``), whether it is a joint
    match (0/1) and its number of wrong slots |W_t| (int arrays); kept in ``cache`` for the
    other ``dial`` value.

    >>> from mwzrepro.dst.conventions.views import turn_index
    >>> g = (("hotel", "area", "north"), ("hotel", "stars", "4"))
    >>> corpus = [RawDialogue("x", (g, g), ({"hotel": {"area": "north", "stars": "4"}},
    ...                                     {"hotel": {"area": "south"}}))]
    >>> cache = ViewCache()
    >>> [a.tolist() for a in turn_outcomes(cache, cache.turn_index(corpus), Convention())]
    [[1, 0], [0, 2]]
    """
    key = ("turns", c.gdc, c.pign, c.names, c.clean, c.slots, c.pscope, c.match)
    done = cache.memo.get(key)
    if done is not None and done[0] is ix:
        return done[1]
    gids, pids = cache.turn_ids(ix, c)
    joint = (gids == pids).astype(np.int64)  # equal views match under every matcher
    wrong = np.zeros(len(joint), dtype=np.int64)
    differ = np.flatnonzero(joint == 0)
    if differ.size:
        codes, at = np.unique((gids[differ] << 32) | pids[differ], return_inverse=True)
        outcomes = cache.memo.setdefault(("pairs", c.pscope, c.match), {})
        compare = _comparer(cache, c.pscope, c.match)
        pairs = np.array([outcomes[code] if code in outcomes else
                          outcomes.setdefault(code, compare(code >> 32, code & 0xFFFFFFFF))
                          for code in codes.tolist()], dtype=np.int64).reshape(-1, 2)
        joint[differ], wrong[differ] = pairs[at, 0], pairs[at, 1]
    cache.memo[key] = (ix, (joint, wrong))
    return joint, wrong


def _comparer(cache: ViewCache, pscope: str, match: str):
    """``(gold view id, predicted view id) → (joint match 0/1, |W_t|)`` of two views."""
    matches = _matcher(match, cache.memo.setdefault(("matches", match), {}))
    views, gold_dom, fuzzy = cache.views, pscope == "gold-dom", match != "exact"

    def compare(gid: int, pid: int) -> tuple[int, int]:
        g, p = views[gid], views[pid]
        if gold_dom:
            domains = {k[0] for k in g}
            p = {k: v for k, v in p.items() if k[0] in domains}
        if p == g:  # gold values are strings: equal views match under every matcher
            return 1, 0
        # the slots whose (key, value) pairs differ; a slot both have may still match under
        # a tolerant matcher
        bad = {k for k, _ in g.items() ^ p.items()}
        if fuzzy:
            bad = {k for k in bad if not (k in p and k in g and matches(p[k], g[k]))}
        return int(not bad), len(bad)
    return compare
