"""Corpus DST figures of spec-dst-metrics §3–§6.6 and §10 (section numbers refer to that spec):
micro-averages over turns of the per-turn outcomes of :mod:`mwzrepro.dst.metrics` — JGA, SA,
AGA (absolute and relative), FGA(λ) and the TYPE2 distance histogram that gives FGA at any λ,
Relative Slot Accuracy (:mod:`mwzrepro.dst.relative_slot_accuracy`) and Granular Change
Accuracy (:mod:`mwzrepro.dst.granular_change_accuracy`, a micro-average over change events) —
stored unrounded as fractions in [0, 1]; tables show ``round(100 · value, 2)``.

Example (#Turns = 4, #M1 = 2, TYPE2 turns at distances 1 and 3; λ = 0 is JGA):
    >>> fga_from_counts(4, 2, {"1": 1, "3": 1}, 0.0)
    0.5
    >>> round(fga_from_counts(4, 2, {"1": 1, "3": 1}, 0.5), 4)
    0.7926
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from mwzrepro.dst.granular_change_accuracy import ChangeCounts, gca_from_counts
from mwzrepro.dst.matchers import Matcher
from mwzrepro.dst.metrics import (
    TurnOutcome,
    fga_weight,
    rewritten_predictions,
    score_dialogue,
    score_dialogue_flags,
)
from mwzrepro.dst.relative_slot_accuracy import corpus_rsa
from mwzrepro.dst.state import N_SLOTS, DialogueFlags, DialogueStates, DSTError

__all__ = [
    "CorpusScores",
    "aggregate",
    "fga_from_counts",
    "score_corpus",
    "score_corpus_two_matchers",
    "score_corpus_flags",
    "outcomes_frame",
]


@dataclass(frozen=True)
class CorpusScores:
    """Corpus figures, unrounded fractions in [0, 1] (§10).

    Attributes:
        dialogues, turns: the evaluated corpus (#Turns).
        m1: #M1, exact-match turns. m2: #M2 = EXACT + TYPE2 turns.
        jga, sa: #M1/#Turns and mean SA_t.
        aga, aga_relative: means over ``aga_turns`` (turns with N_t ≠ ∅); ``None`` when not
            computable (no gold presence for flags; relative AGA for flags).
        aga_turns: number of turns with a non-empty gold state (``None`` if unknown).
        fga: λ → FGA(λ) for the requested λ values.
        type2_distances: x → number of TYPE2 turns at that distance (``"inf"`` for x = ∞);
            with ``m1`` and ``turns`` it gives FGA at any λ (:func:`fga_from_counts`).
        rewrites: predicted values rewritten to the gold spelling (§2.7).
        rsa: Relative Slot Accuracy, the mean over ``rsa_turns`` (turns whose gold or
            predicted state is non-empty); ``None`` without gold presence (flags alone).
        gca: Granular Change Accuracy of the summed ``gca_changes`` (``{correct, wrong, over,
            missed}`` change events); ``None`` for flag input or with no change event.
    """

    dialogues: int
    turns: int
    m1: int
    m2: int
    jga: float
    sa: float
    aga: float | None
    aga_relative: float | None
    aga_turns: int | None
    fga: dict[float, float]
    type2_distances: dict[str, int] = field(default_factory=dict)
    rewrites: int = 0
    rsa: float | None = None
    rsa_turns: int | None = None
    gca: float | None = None
    gca_changes: dict[str, int] | None = None

    def as_dict(self) -> dict:
        """JSON-ready record with stable keys; FGA keys are λ as decimal strings."""
        return {
            "dialogues": self.dialogues, "turns": self.turns, "m1": self.m1, "m2": self.m2,
            "jga": self.jga, "sa": self.sa, "aga": self.aga, "aga_relative": self.aga_relative,
            "aga_turns": self.aga_turns,
            "fga": {_lam_key(k): v for k, v in self.fga.items()},
            "type2_distances": dict(self.type2_distances),
            "rewrites": self.rewrites,
            "rsa": self.rsa, "rsa_turns": self.rsa_turns, "gca": self.gca,
            "gca_changes": None if self.gca_changes is None else dict(self.gca_changes),
        }


def _lam_key(lam: float) -> str:
    return repr(float(lam))


def fga_from_counts(turns: int, m1: int, type2_distances: Mapping[str, int], lam: float) -> float:
    """Corpus FGA(λ) from #Turns, #M1 and the TYPE2 distance histogram (§6.6), a fraction.

    Raises:
        ConfigError: as :func:`~mwzrepro.dst.metrics.fga_weight`.
        DSTError: ``turns`` = 0.
    """
    if turns <= 0:
        raise DSTError("FGA of an empty corpus is undefined")
    parts = [float(m1)]
    for x, n in sorted(type2_distances.items(), key=lambda kv: float(kv[0])):
        parts.append(n * fga_weight("TYPE2", float(x), lam))
    return math.fsum(parts) / turns


def aggregate(outcomes: Iterable[TurnOutcome], lambdas: Sequence[float]) -> CorpusScores:
    """Corpus figures from per-turn outcomes (micro-averages over turns, §6.6).

    Args:
        outcomes: every turn of every evaluated dialogue.
        lambdas: λ values for FGA (each ≥ 0).

    Returns:
        :class:`CorpusScores`. AGA is ``None`` if any outcome lacks gold presence
        (``gold_slots == -1``); relative AGA is ``None`` if any lacks ``union``.

    Raises:
        DSTError: no turns.
        ConfigError: a negative λ.
    """
    outs = list(outcomes)
    n = len(outs)
    if n == 0:
        raise DSTError("no turns to score")
    m1 = sum(o.kind == "EXACT" for o in outs)
    m2 = m1 + sum(o.kind == "TYPE2" for o in outs)
    dist = Counter("inf" if math.isinf(o.x) else str(int(o.x)) for o in outs if o.kind == "TYPE2")
    dist_sorted = dict(sorted(dist.items(), key=lambda kv: float(kv[0])))
    wrong = sum(o.n_wrong for o in outs)
    sa = 1 - wrong / (N_SLOTS * n)
    aga = aga_rel = aga_turns = None
    if all(o.gold_slots >= 0 for o in outs):
        eligible = [o for o in outs if o.gold_slots > 0]
        aga_turns = len(eligible)
        if eligible:
            aga = math.fsum(o.hits / o.gold_slots for o in eligible) / len(eligible)
            if all(o.union is not None for o in eligible):
                aga_rel = math.fsum(o.hits / o.union for o in eligible) / len(eligible)
    fga = {float(lam): fga_from_counts(n, m1, dist_sorted, float(lam)) for lam in lambdas}
    rsa = rsa_turns = None
    if all(o.gold_slots >= 0 for o in outs):
        rsa, rsa_turns = corpus_rsa((o.hits, o.hits + o.n_wrong) for o in outs)
    changes = ChangeCounts.total(o.changes for o in outs)
    return CorpusScores(
        dialogues=len({o.dialogue_id for o in outs}), turns=n, m1=m1, m2=m2, jga=m1 / n, sa=sa,
        aga=aga, aga_relative=aga_rel, aga_turns=aga_turns, fga=fga,
        type2_distances=dist_sorted, rewrites=sum(o.rewrites for o in outs),
        rsa=rsa, rsa_turns=rsa_turns, gca=None if changes is None else gca_from_counts(changes),
        gca_changes=None if changes is None else changes._asdict(),
    )


# --------------------------------------------------------------------------------------------
# Corpus scoring helpers


def score_corpus(
    dialogues: Iterable[DialogueStates],
    lambdas: Sequence[float],
    matcher: Matcher | None = None,
    variant: str = "scripts",
) -> tuple[CorpusScores, list[TurnOutcome]]:
    """Score state dialogues (subset rule) and aggregate: ``(corpus figures, outcomes)``."""
    outs = [o for d in dialogues for o in score_dialogue(d, matcher, variant)]
    return aggregate(outs, lambdas), outs


def score_corpus_two_matchers(
    dialogues: Iterable[DialogueStates],
    lambdas: Sequence[float],
    matcher: Matcher | None,
    second: Matcher,
    variant: str = "scripts",
) -> tuple[CorpusScores, list[TurnOutcome], CorpusScores]:
    """:func:`score_corpus` with ``matcher`` and with ``second`` (a run's main and fuzzy
    figures): ``(scores, outcomes, second scores)``. A dialogue whose predictions both
    matchers rewrite alike has the same outcomes under both (they depend on the matcher only
    through the rewritten states), so they are computed once."""
    outs: list[TurnOutcome] = []
    second_outs: list[TurnOutcome] = []
    for d in dialogues:
        rewritten = rewritten_predictions(d, matcher)
        first = score_dialogue(d, matcher, variant, rewritten)
        outs += first
        again = rewritten_predictions(d, second)
        second_outs += first if again == rewritten else score_dialogue(d, second, variant, again)
    return aggregate(outs, lambdas), outs, aggregate(second_outs, lambdas)


def score_corpus_flags(
    dialogues: Iterable[DialogueFlags],
    lambdas: Sequence[float],
    variant: str = "scripts",
    where: str = "",
) -> tuple[CorpusScores, list[TurnOutcome]]:
    """Score flag dialogues (error-set rule) and aggregate: ``(corpus figures, outcomes)``."""
    outs = [o for d in dialogues for o in score_dialogue_flags(d, variant, where)]
    return aggregate(outs, lambdas), outs


def outcomes_frame(outcomes: Iterable[TurnOutcome]):
    """Per-turn outcomes as a DataFrame with the columns of the ``dst_turns`` table
    (:mod:`mwzrepro.core.schemas`); unknown counts (flag input) are -1 and the undefined local
    match of turn 0 is stored as ``False``."""
    import pandas as pd

    cols = ["dialogue_id", "turn", "exact", "local", "kind", "x", "n_wrong", "gold_slots",
            "hits", "union", "rewrites"]
    rows = [
        {"dialogue_id": o.dialogue_id, "turn": o.turn, "exact": o.exact,
         "local": o.local, "kind": o.kind, "x": o.x, "n_wrong": o.n_wrong,
         "gold_slots": o.gold_slots, "hits": o.hits,
         "union": -1 if o.union is None else o.union, "rewrites": o.rewrites}
        for o in outcomes
    ]
    df = pd.DataFrame(rows, columns=cols)
    df["local"] = df["local"].fillna(False)
    return df.astype({"dialogue_id": "str", "turn": "int32", "exact": "bool", "local": "bool",
                      "kind": "str", "x": "float64", "n_wrong": "int32", "gold_slots": "int32",
                      "hits": "int32", "union": "int32", "rewrites": "int32"})
