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

    def as_dict(self, version: str | None = None) -> dict[str, Any]:
        """``{"signature", "jga", "sa" (fractions), "dialogues", "turns", "joint", "wrong"}``;
        the signature has ``ver:`` when ``version`` (the dataset version) is given."""
        return {"signature": self.convention.signature(version=version), "jga": self.jga,
                "sa": self.sa,
                "dialogues": self.dialogues, "turns": self.turns, "joint": self.joint,
                "wrong": self.wrong}


class ViewCache:
    """Views of raw states, shared between conventions that agree on the switches a view
    depends on (gold: gdc, names, clean, slots; predicted: pign, names, clean, slots), the
    cleaned form of every raw triple per (names, clean, slots), and the scores of every
    (corpus, convention) already scored (the ladder, its order effects and the Shapley values
    score many conventions more than once). Raw states are keyed by identity: keep the corpus
    alive while the cache is used."""

    def __init__(self) -> None:
        self._views: dict[tuple[Any, ...], View] = {}
        self._flat: dict[int, tuple[tuple[str, str, Any], ...]] = {}
        self._cleaned: dict[tuple[str, str, str], dict[tuple[str, str, Any], Any]] = {}
        #: convention → (the corpus object scored, its scores)
        self._scores: dict[Convention, tuple[object, ConventionScores]] = {}

    def gold(self, triples: Triples, c: Convention) -> View:
        """The gold view of one turn's raw triples."""
        key = (id(triples), "g", c.gdc, c.names, c.clean, c.slots)
        view = self._views.get(key)
        if view is None:
            if c.gdc == "drop":
                triples = tuple(t for t in triples if t[2] not in GOLD_DONTCARE)
            view = self._views[key] = self._view(triples, c)
        return view

    def pred(self, state: Mapping[str, Any], c: Convention) -> View:
        """The predicted view of one raw state."""
        key = (id(state), "p", c.pign, c.names, c.clean, c.slots)
        view = self._views.get(key)
        if view is None:
            flat = self._flat.get(id(state))
            if flat is None:
                flat = self._flat[id(state)] = tuple(
                    (str(d), str(s), tuple(v) if isinstance(v, list) else v)
                    for d, slots in state.items() for s, v in slots.items())
            if c.pign != "keep":
                flat = tuple(t for t in flat if not ignored(t[2], c.pign))
            view = self._views[key] = self._view(flat, c)
        return view

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
        cache: views and scores shared with other calls on the same corpus (a fresh one by
            default); a convention already scored on this corpus object is not scored again.

    Returns:
        :class:`ConventionScores`.

    Raises:
        InputError: a value the reference's normalization cannot read (``clean:mwzeval``).
    """
    cache = cache or ViewCache()
    done = cache._scores.get(convention)
    if done is not None and done[0] is corpus:
        return done[1]
    c = convention
    matches = _matcher(c.match)
    excluded = set(PAPER_EXCLUDED_DIALOGUES) if c.dial == "fga" else set()
    gold_dom, fuzzy = c.pscope == "gold-dom", c.match != "exact"
    gold_view, pred_view = cache.gold, cache.pred
    dialogues = turns = joint = wrong = 0
    for d in corpus:
        if d.dialogue_id in excluded:
            continue
        dialogues += 1
        turns += len(d.gold)
        for triples, state in zip(d.gold, d.pred):
            g, p = gold_view(triples, c), pred_view(state, c)
            if gold_dom:
                domains = {k[0] for k in g}
                p = {k: v for k, v in p.items() if k[0] in domains}
            if p == g:  # gold values are strings: equal views match under every matcher
                joint += 1
                continue
            # the slots whose (key, value) pairs differ; a slot both have may still match
            # under a tolerant matcher
            bad = {k for k, _ in g.items() ^ p.items()}
            if fuzzy:
                bad = {k for k in bad if not (k in p and k in g and matches(p[k], g[k]))}
            joint += not bad
            wrong += len(bad)
    scores = ConventionScores(c, dialogues, turns, joint, wrong, n_scope_slots(c.slots))
    cache._scores[convention] = (corpus, scores)
    return scores
