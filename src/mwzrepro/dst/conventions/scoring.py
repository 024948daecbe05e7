"""JGA and slot accuracy of raw turns under a convention (spec-dst-metrics §12
"DST scoring conventions").

Per turn, the gold and predicted states become ``{key: cleaned value}`` views
(:mod:`.cleaning`); under ``pscope:gold-dom`` predicted slots of domains absent from the gold
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

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from mwzrepro.core.fuzzy import partial_ratio
from mwzrepro.dst.alignment import PAPER_EXCLUDED_DIALOGUES
from mwzrepro.dst.conventions.cleaning import (
    GOLD_DONTCARE,
    clean_value,
    ignored,
    in_scope,
    n_scope_slots,
    slot_key,
)
from mwzrepro.dst.conventions.switches import Convention
from mwzrepro.dst.conventions.turns import RawDialogue, Triples
from mwzrepro.dst.state import canonical_slot

__all__ = ["ConventionScores", "ViewCache", "score_corpus"]

View = dict[tuple[str, str], Any]


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

    def as_dict(self) -> dict[str, Any]:
        """``{"signature", "jga", "sa" (fractions), "dialogues", "turns", "joint", "wrong"}``."""
        return {"signature": self.convention.signature(), "jga": self.jga, "sa": self.sa,
                "dialogues": self.dialogues, "turns": self.turns, "joint": self.joint,
                "wrong": self.wrong}


class ViewCache:
    """Views of raw states, shared between conventions that agree on the switches a view
    depends on (gold: gdc, names, clean, slots; predicted: pign, names, clean, slots), and
    the cleaned form of every raw triple. Raw states are keyed by identity: keep the corpus
    alive while the cache is used."""

    def __init__(self) -> None:
        self._views: dict[tuple[Any, ...], View] = {}
        self._triples: dict[tuple[Any, ...], tuple[tuple[str, str], Any] | None] = {}

    def gold(self, triples: Triples, c: Convention) -> View:
        """The gold view of one turn's raw triples."""
        key = (id(triples), "g", c.gdc, c.names, c.clean, c.slots)
        view = self._views.get(key)
        if view is None:
            drop = c.gdc == "drop"
            view = self._views[key] = self._view(
                ((d, s, v) for d, s, v in triples if not (drop and v in GOLD_DONTCARE)), c)
        return view

    def pred(self, state: Mapping[str, Any], c: Convention) -> View:
        """The predicted view of one raw state."""
        key = (id(state), "p", c.pign, c.names, c.clean, c.slots)
        view = self._views.get(key)
        if view is None:
            view = self._views[key] = self._view(
                ((str(d), str(s), v) for d, slots in state.items() for s, v in slots.items()
                 if not ignored(v, c.pign)), c)
        return view

    def _view(self, triples: Iterable[tuple[str, str, Any]], c: Convention) -> View:
        out: View = {}
        memo = self._triples
        for triple in triples:
            try:
                key = (*triple, c.names, c.clean, c.slots)
                cleaned = memo[key] if key in memo else memo.setdefault(key, _cleaned(*triple,
                                                                                      c))
            except TypeError:  # an unhashable (list) value
                cleaned = _cleaned(*triple, c)
            if cleaned is not None:
                out[cleaned[0]] = cleaned[1]
        return out


def _cleaned(domain: str, slot: str, value: Any, c: Convention
             ) -> tuple[tuple[str, str], Any] | None:
    """``(key, cleaned value)`` of one raw triple, ``None`` when absent or out of scope."""
    if not in_scope(domain, slot, c.slots):
        return None
    key = slot_key(domain, slot, c.names)
    v = clean_value(c.clean, slot, canonical_slot(domain, slot) or key, value)
    return None if v is None else (key, v)


def _matcher(match: str):
    if match == "exact":
        return lambda p, g: type(p) is str and p == g
    seen: dict[tuple[Any, Any], bool] = {}

    def fuzzy(p: Any, g: Any) -> bool:
        if isinstance(p, tuple) or isinstance(g, tuple):
            return False
        key = (p, g)
        if key not in seen:
            seen[key] = p == g or partial_ratio(str(p), str(g), "reference") > 95
        return seen[key]
    return fuzzy


def score_corpus(corpus: Iterable[RawDialogue], convention: Convention,
                 cache: ViewCache | None = None) -> ConventionScores:
    """JGA and SA counts of ``corpus`` under ``convention`` (module doc).

    Args:
        corpus: :func:`~mwzrepro.dst.conventions.turns.raw_corpus` dialogues.
        convention: the switches.
        cache: views shared with other calls on the same corpus (a fresh one by default).

    Returns:
        :class:`ConventionScores`.

    Raises:
        InputError: a value the reference's normalization cannot read (``clean:mwzeval``).
    """
    cache = cache or ViewCache()
    c = convention
    matches = _matcher(c.match)
    excluded = set(PAPER_EXCLUDED_DIALOGUES) if c.dial == "fga" else set()
    dialogues = turns = joint = wrong = 0
    for d in corpus:
        if d.dialogue_id in excluded:
            continue
        dialogues += 1
        for triples, state in zip(d.gold, d.pred):
            g, p = cache.gold(triples, c), cache.pred(state, c)
            if c.pscope == "gold-dom":
                domains = {k[0] for k in g}
                p = {k: v for k, v in p.items() if k[0] in domains}
            common = hits = 0
            for k, v in p.items():
                if k in g:
                    common += 1
                    hits += matches(v, g[k])
            turns += 1
            joint += hits == len(p) == len(g)
            wrong += len(p) + len(g) - common - hits
    return ConventionScores(c, dialogues, turns, joint, wrong, n_scope_slots(c.slots))
