"""The ladder between two conventions: JGA as one switch changes per rung
(spec-dst-metrics §12.10).

From ``start`` (the FGA paper's convention, the ``dst`` table) to ``end`` (the reference's, the
``state_match`` table), the switches that differ are changed one at a time in
:data:`LADDER_ORDER`: first the scope of what is scored (dialogues, gold ``dontcare``, slots),
then how states are read (slot names, value cleaning), last how values are compared. A rung's
worth may depend on the order; :func:`order_effects` gives, per switch, its change when taken
first (from ``start``), at its ladder position, and last (into ``end``).

>>> from mwzrepro.dst.conventions.presets import PRESETS
>>> [s for s, _ in rung_conventions(PRESETS["fga"], PRESETS["mwzeval"])][1:]
['dial', 'gdc', 'slots', 'names', 'clean', 'match']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mwzrepro.dst.conventions.scoring import ConventionScores, ViewCache, score_corpus
from mwzrepro.dst.conventions.switches import SWITCHES, Convention
from mwzrepro.dst.conventions.turns import RawDialogue

__all__ = ["LADDER_ORDER", "Rung", "rung_conventions", "climb", "order_effects"]

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
        first = score_corpus(corpus, start.replace(**{r.switch: r.value}), cache).jga
        before_last = score_corpus(corpus, end.replace(**{r.switch: getattr(start, r.switch)}),
                                   cache).jga
        out[r.switch] = {"first": 100 * (first - base), "ladder": r.change,
                         "last": 100 * (top - before_last)}
    return out
