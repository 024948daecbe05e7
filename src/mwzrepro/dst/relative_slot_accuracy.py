"""Relative Slot Accuracy (RSA) of Kim et al., "Mismatch between Multi-turn Dialogue and its
Evaluation Metric in Dialogue State Tracking", ACL 2022 (short), on the belief-state model of
spec-dst-metrics §2; the addendum is spec-dst-metrics §13.1 (``docs/specification.md``).

Slot accuracy (the paper's Eq. 1, spec-dst-metrics §4) divides by all T = 30 predefined slots,
so a turn that mentions two slots scores 28/30 even when both are wrong. RSA (the paper's
Eq. 2) keeps the numerator and replaces T by T*, the number of distinct (domain, slot) pairs
that occur in the gold **or** the predicted state of the turn:

    RSA_t = (T*_t − M_t − W_t) / T*_t

- M_t: gold slots the prediction misses or gets wrong (absent, or another value);
- W_t: predicted slots that the gold state does not have.

A slot with a wrong value counts once (in M_t), as in Eq. 1. With the one-value-per-slot
invariant, T*_t − M_t − W_t = |B_t ∩ B'_t| (the correct triples), and T*_t = |B_t ∩ B'_t| +
|W_t| with W_t the wrong slots of :func:`~mwzrepro.dst.metrics.wrong_slots`, so RSA_t =
hits / (hits + n_wrong) of a :class:`~mwzrepro.dst.metrics.TurnOutcome`.

**Turns with T*_t = 0** (gold and prediction both empty) are left out of the corpus mean, as
AGA leaves out turns with an empty gold state (spec-dst-metrics §5): RSA_t is 0/0 there. This
is a project decision; a re-implementation released with the GCA paper (repository
``cuthalionn/Granular_Change_Accuracy``, ``src/compute_accuracies.py``,
``getRelativeSlotAccuracy``) scores such turns 0, which would make a perfect prediction score
below 100 on MultiWOZ (107 of the 7368 test turns of 2.1 have an empty gold state).

Corpus RSA is the mean of RSA_t over the eligible turns (a micro-average over turns, like every
corpus figure of spec-dst-metrics §6), stored as a fraction; tables show percent.

Example (turn 2 of the FGA paper's running example PMUL2563: 4 correct, area and stars missed):
    >>> gold = {("hotel", "name"): "cityroomz", ("hotel", "area"): "centre",
    ...         ("hotel", "stars"): "0", ("hotel", "book day"): "wednesday",
    ...         ("hotel", "book people"): "4", ("hotel", "book stay"): "2"}
    >>> pred = {k: v for k, v in gold.items() if k[1] not in ("area", "stars")}
    >>> rsa_terms(gold, pred), relative_slot_accuracy(gold, pred)
    ((4, 6), 0.6666666666666666)
    >>> relative_slot_accuracy({}, {}) is None
    True
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from mwzrepro.dst.state import State

__all__ = ["rsa_terms", "relative_slot_accuracy", "corpus_rsa"]


def rsa_terms(gold: State, pred: State) -> tuple[int, int]:
    """``(T* − M − W, T*)`` of one turn (Eq. 2): the correct slots and the distinct slots of
    gold and prediction (both counts ≥ 0; the first never exceeds the second).

    Args:
        gold: B_t, ``{(domain, slot): value}`` (canonical values, spec-dst-metrics §2).
        pred: B'_t, same form (after any rewriting of §2.7).
    """
    correct = sum(1 for s, v in gold.items() if pred.get(s) == v)
    return correct, len(gold.keys() | pred.keys())


def relative_slot_accuracy(gold: State, pred: State) -> float | None:
    """RSA_t = (T* − M − W) / T* of one turn (Eq. 2), a fraction in [0, 1]; ``None`` when
    T* = 0 (both states empty: the turn is not eligible)."""
    correct, t_star = rsa_terms(gold, pred)
    return None if t_star == 0 else correct / t_star


def corpus_rsa(terms: Iterable[tuple[int, int]]) -> tuple[float | None, int]:
    """Corpus RSA from per-turn ``(correct, T*)`` pairs: ``(mean of correct / T* over the
    turns with T* > 0, number of those turns)``; the mean is ``None`` when no turn is eligible.

    Raises:
        ValueError: a pair with correct < 0, T* < 0 or correct > T*.

    Example:
        >>> corpus_rsa([(0, 1), (0, 2), (5, 7), (0, 0)])
        (0.2380952380952381, 3)
    """
    parts = []
    for correct, t_star in terms:
        if not 0 <= correct <= t_star:
            raise ValueError(f"RSA terms must satisfy 0 ≤ correct ≤ T*, got {correct}, {t_star}")
        if t_star:
            parts.append(correct / t_star)
    return (math.fsum(parts) / len(parts) if parts else None), len(parts)
