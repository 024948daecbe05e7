"""The ladder between two conventions: JGA as one switch changes per rung
(spec-dst-metrics §12.10).

From ``start`` (the FGA paper's convention, the ``dst`` table) to ``end`` (the reference's, the
``state_match`` table), the switches that differ are changed one at a time in
:data:`LADDER_ORDER`: first the scope of what is scored (dialogues, gold ``dontcare``, slots),
then how states are read (slot names, value cleaning), last how values are compared. A rung's
worth may depend on the order; :func:`order_effects` gives, per switch, its change when taken
first (from ``start``), at its ladder position, and last (into ``end``), and
:func:`shapley_effects` its average change over every order (its Shapley value).

>>> from mwzrepro.dst.conventions.presets import PRESETS
>>> [s for s, _ in rung_conventions(PRESETS["fga"], PRESETS["mwzeval"])][1:]
['dial', 'gdc', 'slots', 'names', 'clean', 'match']
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from mwzrepro.dst.conventions.scoring import ConventionScores, score_corpus
from mwzrepro.dst.conventions.switches import SWITCHES, Convention
from mwzrepro.dst.conventions.turns import RawDialogue
from mwzrepro.dst.conventions.views import ViewCache

__all__ = ["LADDER_ORDER", "Rung", "rung_conventions", "climb", "order_effects",
           "shapley_effects", "ladder_conventions"]

#: The order in which the ladder changes switches.
LADDER_ORDER = ("dial", "gdc", "pign", "slots", "pscope", "names", "clean", "match")
assert set(LADDER_ORDER) == set(SWITCHES)


@dataclass(frozen=True)
class Rung:
    """One rung: the switch changed (``""`` for the first rung), its new value, the scores and
    the change of JGA from the previous rung (percentage points)."""

    switch: str
    value: str
    scores: ConventionScores
    change: float


def rung_conventions(start: Convention, end: Convention,
                     order: Sequence[str] = LADDER_ORDER) -> list[tuple[str, Convention]]:
    """``[("", start), (switch, convention after changing it), …]`` ending at ``end``."""
    out = [("", start)]
    current = start
    for switch in order:
        value = getattr(end, switch)
        if getattr(current, switch) != value:
            current = current.replace(**{switch: value})
            out.append((switch, current))
    return out


def climb(corpus: Sequence[RawDialogue], start: Convention, end: Convention,
          cache: ViewCache | None = None, order: Sequence[str] = LADDER_ORDER) -> list[Rung]:
    """The rungs from ``start`` to ``end`` on ``corpus`` (see :func:`rung_conventions`)."""
    cache = cache or ViewCache()
    rungs: list[Rung] = []
    for switch, conv in rung_conventions(start, end, order):
        s = score_corpus(corpus, conv, cache)
        prev = rungs[-1].scores.jga if rungs else s.jga
        rungs.append(Rung(switch, getattr(conv, switch) if switch else "", s,
                          100 * (s.jga - prev)))
    return rungs


def order_effects(corpus: Sequence[RawDialogue], start: Convention, end: Convention,
                  rungs: Sequence[Rung], cache: ViewCache | None = None
                  ) -> dict[str, dict[str, float]]:
    """Per changed switch, its JGA change in percentage points ``{"first", "ladder", "last"}``:
    changed alone from ``start``, at its ladder rung, and changed last (``end`` minus
    ``end`` with that switch at ``start``'s value)."""
    cache = cache or ViewCache()
    base = rungs[0].scores.jga
    top = rungs[-1].scores.jga
    out = {}
    for r in rungs[1:]:
        first, before_last = (score_corpus(corpus, c, cache).jga
                              for c in _alone_conventions(start, end, r.switch))
        out[r.switch] = {"first": 100 * (first - base), "ladder": r.change,
                         "last": 100 * (top - before_last)}
    return out


def shapley_effects(corpus: Sequence[RawDialogue], start: Convention, end: Convention,
                    cache: ViewCache | None = None) -> dict[str, float]:
    """Per switch that differs between ``start`` and ``end``, its change of JGA (points)
    averaged over every order of the changes (the Shapley value; Shapley 1953): the mean over
    the k! orders of JGA(before + switch) − JGA(before). The values sum to JGA(end) −
    JGA(start). Scores every subset of the k switches once (2^k conventions)."""
    cache = cache or ViewCache()
    switches = end.differences(start)
    k = len(switches)
    jga = {frozenset(subset): 100 * score_corpus(corpus, conv, cache).jga
           for subset, conv in _subset_conventions(start, end)}
    out = {}
    for switch in switches:
        others = [s for s in switches if s != switch]
        out[switch] = sum(
            math.factorial(n) * math.factorial(k - n - 1) / math.factorial(k)
            * (jga[frozenset(sub) | {switch}] - jga[frozenset(sub)])
            for n in range(k) for sub in itertools.combinations(others, n))
    return out


def _alone_conventions(start: Convention, end: Convention, switch: str
                       ) -> tuple[Convention, Convention]:
    """``start`` with ``switch`` at ``end``'s value, and ``end`` with it at ``start``'s."""
    return (start.replace(**{switch: getattr(end, switch)}),
            end.replace(**{switch: getattr(start, switch)}))


def _subset_conventions(start: Convention, end: Convention
                        ) -> list[tuple[tuple[str, ...], Convention]]:
    """Per subset of the switches that differ (by size, then in switch order), ``start`` with
    those switches at ``end``'s values."""
    switches = end.differences(start)
    return [(subset, start.replace(**{s: getattr(end, s) for s in subset}))
            for n in range(len(switches) + 1)
            for subset in itertools.combinations(switches, n)]


def ladder_conventions(start: Convention, end: Convention) -> list[Convention]:
    """Every convention :func:`climb`, :func:`order_effects` and :func:`shapley_effects`
    score from ``start`` to ``end`` (each once; e.g. to compute their views ahead).

    >>> from mwzrepro.dst.conventions.presets import PRESETS
    >>> len(ladder_conventions(PRESETS["fga"], PRESETS["mwzeval"]))  # 2^6 subsets
    64
    """
    rungs = [c for _, c in rung_conventions(start, end)]
    alone = [c for s in end.differences(start) for c in _alone_conventions(start, end, s)]
    subsets = [c for _, c in _subset_conventions(start, end)]
    return list(dict.fromkeys(rungs + alone + subsets))
