"""Granular Change Accuracy (GCA) of Aksu & Chen, "Granular Change Accuracy: A More Accurate
Performance Metric for Dialogue State Tracking", LREC-COLING 2024, on the belief-state model of
spec-dst-metrics §2; the addendum is spec-dst-metrics §13.2 (``docs/specification.md``).

JGA and slot accuracy judge the cumulative state at every turn, so one early error is counted
again at every later turn. GCA judges each **change** once: at turn t a slot *changes* in the
gold (or the predicted) state when its value differs from turn t−1 (absent counts as a value;
B_{−1} = B'_{−1} = ∅). Every (turn, slot) that changes in the gold state, the predicted state
or both is one judgement, made on the two values after the turn (g = B_t(s), p = B'_t(s)):

- **correct** (c): p = g (both absent included: the prediction drops a slot the gold drops);
- **over-prediction** (o): g absent, p present;
- **missed** (m): g present, p absent;
- **wrong** (w): both present, different.

From the counts summed over the corpus (a micro-average over change events):

- precision P = c / (c + w + o), recall R = c / (c + w + m);
- label precision LP = (c + w) / (c + w + o), label recall LR = (c + w) / (c + w + m)
  (whether the right slots changed, whatever their values);
- GCA = the weighted harmonic mean of (P, R, LP, LR) with weights
  (α·D_p, α·D_r, (1 − α)·D_p, (1 − α)·D_r), D_p = c + w + o, D_r = c + w + m, α = 10/11,
  which is (D_p + D_r) / ((D_p² + D_r²) · (α / c + (1 − α) / (c + w)));
- GCA = 0 when c = 0 (a component is 0), and undefined (``None``) with no change at all.

The harmonic mean and α = 1 − 1/11 are those of the authors' released implementation
(``cuthalionn/Granular_Change_Accuracy`` at commit ``a81b6efd7b859e4cf51e10b0280f0f025ea905d8``,
``src/gca.py``: ``calculate_gca``, ``gca``, ``weighted_harmonic_mean``). The counting above is
that implementation's for dialogues in which no slot is ever removed (every example of the
paper). Where a slot is removed the released code differs, and this module does not follow it
(a project decision, spec-dst-metrics §13.2): it counts a removal that both sides make at the
same turn as correct **and** missed, a gold removal met by a new predicted value as
over-prediction **and** wrong, a new gold value met by a predicted removal as wrong **and**
missed, and a value against a slot the other side removed earlier as wrong; it also reads a
literal ``"none"`` as a value, where spec-dst-metrics §2.3 makes it "absent". Here every
change event is judged once, on the canonical values after the turn.

Values are compared after the rewriting of spec-dst-metrics §2.7, like every other figure.

Example (the paper's hypothetical prediction P1: 2 of 7 changes wrong; P2: 6 of 7 wrong):
    >>> round(100 * gca_from_counts(ChangeCounts(correct=5, wrong=2)), 2)
    73.33
    >>> round(100 * gca_from_counts(ChangeCounts(correct=1, wrong=6)), 2)
    15.49
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import NamedTuple

from mwzrepro.dst.state import State

__all__ = ["ALPHA", "ChangeCounts", "turn_changes", "dialogue_changes", "gca_from_counts"]

#: Weight of the value components (P, R) against the label components (LP, LR): 1 − 1/11.
ALPHA = Fraction(10, 11)


class ChangeCounts(NamedTuple):
    """Judged change events (counts ≥ 0): correct, wrong, over-predicted, missed."""

    correct: int = 0
    wrong: int = 0
    over: int = 0
    missed: int = 0

    def plus(self, other: ChangeCounts) -> ChangeCounts:
        """Element-wise sum."""
        return ChangeCounts(*(a + b for a, b in zip(self, other)))

    @classmethod
    def total(cls, counts: Iterable[ChangeCounts | None]) -> ChangeCounts | None:
        """Element-wise sum of ``counts``; ``None`` if any is ``None`` (not computable, e.g.
        flag input) or there is none."""
        out: ChangeCounts | None = None
        for c in counts:
            if c is None:
                return None
            out = c if out is None else out.plus(c)
        return out


def turn_changes(prev_gold: State, gold: State, prev_pred: State, pred: State) -> ChangeCounts:
    """The judged change events of one turn (module docstring).

    Args:
        prev_gold, gold: B_{t−1} and B_t (``{}`` before turn 0), ``{(domain, slot): value}``.
        prev_pred, pred: B'_{t−1} and B'_t, same form.
    """
    counts = [0, 0, 0, 0]
    for s in gold.keys() | prev_gold.keys() | pred.keys() | prev_pred.keys():
        g, p = gold.get(s), pred.get(s)
        if g == prev_gold.get(s) and p == prev_pred.get(s):
            continue
        counts[0 if p == g else 2 if g is None else 3 if p is None else 1] += 1
    return ChangeCounts(*counts)


def dialogue_changes(gold: Sequence[State], pred: Sequence[State]) -> list[ChangeCounts]:
    """Per turn, the judged change events of one dialogue (B_{−1} = B'_{−1} = ∅).

    Raises:
        ValueError: ``gold`` and ``pred`` of different lengths.
    """
    if len(gold) != len(pred):
        raise ValueError("gold and pred must have one state per turn")
    empty: dict = {}
    return [turn_changes(gold[t - 1] if t else empty, g, pred[t - 1] if t else empty, p)
            for t, (g, p) in enumerate(zip(gold, pred))]


def gca_from_counts(counts: ChangeCounts, alpha: Fraction = ALPHA) -> float | None:
    """GCA (a fraction in [0, 1]) from summed change counts; ``None`` with no change event,
    0 when no change is correct (module docstring for the formula).

    Computed in rational arithmetic and converted once, so it does not depend on the order
    in which the counts were summed.

    Raises:
        ValueError: a negative count, or α outside (0, 1).

    Example:
        >>> gca_from_counts(ChangeCounts(3, 0, 0, 0)), gca_from_counts(ChangeCounts(0, 2, 1, 0))
        (1.0, 0.0)
        >>> gca_from_counts(ChangeCounts()) is None
        True
    """
    if min(counts) < 0:
        raise ValueError(f"change counts must be ≥ 0, got {counts}")
    if not 0 < alpha < 1:
        raise ValueError(f"GCA α must be in (0, 1), got {alpha}")
    c, w, o, m = counts
    d_p, d_r = c + w + o, c + w + m
    if d_p + d_r == 0:
        return None
    if c == 0:
        return 0.0
    denominator = (d_p * d_p + d_r * d_r) * (alpha / c + (1 - alpha) / (c + w))
    return float(Fraction(d_p + d_r) / denominator)
