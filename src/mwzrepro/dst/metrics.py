"""Per-turn and per-dialogue DST metrics of spec-dst-metrics §3–§7 (section numbers refer to
that spec): JGA's exact match, slot accuracy (Eq. 1), AGA's hits, and Flexible Goal Accuracy's
turn classification (EXACT / TYPE1 / TYPE2, §6) with its weights 1 − e^{−λx}.

Two entry points produce the same per-turn outcomes (:class:`TurnOutcome`):

* :func:`score_dialogue` — from gold and predicted states (TRADE/SOM-DST-style input, the
  end-to-end systems' states, the human-evaluation logs). FGA uses the subset local-match test
  LM(t) (§6.2) with rule R1 (§6.3) — ``fga_local_match = "subset"``.
* :func:`score_dialogue_flags` — from per-slot correctness vectors (TripPy's released results,
  §7). FGA uses the error-set test LM_flag(t) ⇔ E_t = E_{t−1} (§7.2) —
  ``fga_local_match = "error_set"``; AGA needs gold presence from the dataset's own states.

Corpus figures are aggregated by :mod:`mwzrepro.dst.corpus`.

Example (the rule-of-thumb λ of §6.4; the weight of a TYPE2 turn two turns after an error):
    >>> round(lambda_from_forgetting(0.95, 6), 4)
    0.4993
    >>> round(fga_weight("TYPE2", 2, 0.5), 4)
    0.6321
    >>> classify_turns([True, False, False, True], [None, False, True, True])
    [('EXACT', None), ('TYPE1', None), ('TYPE2', 1.0), ('EXACT', None)]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from mwzrepro.core.errors import ConfigError
from mwzrepro.dst.granular_change_accuracy import ChangeCounts, dialogue_changes
from mwzrepro.dst.matchers import ExactMatcher, Matcher, rewrite_predictions
from mwzrepro.dst.state import (
    N_SLOTS,
    SLOTS,
    DialogueFlags,
    DialogueStates,
    DSTError,
    Slot,
    State,
)

__all__ = [
    "FGA_VARIANTS",
    "LOCAL_MATCH_RULES",
    "wrong_slots",
    "slot_accuracy",
    "local_match",
    "classify_turns",
    "fga_weight",
    "lambda_from_forgetting",
    "TurnOutcome",
    "rewritten_predictions",
    "score_dialogue",
    "score_dialogue_flags",
    "flags_from_states",
]

#: FGA procedures (§9 D1): ``scripts`` (rule R1, normative) and ``paper_literal``.
FGA_VARIANTS = ("scripts", "paper_literal")
#: Local-match tests: ``subset`` (LM from states, §6.2) and ``error_set`` (flags, §7.2).
LOCAL_MATCH_RULES = ("subset", "error_set")

Kind = Literal["EXACT", "TYPE1", "TYPE2"]


# --------------------------------------------------------------------------------------------
# §3–§5 per-turn comparisons


def wrong_slots(gold: State, pred: State) -> frozenset[Slot]:
    """W_t: the slots whose gold and predicted values differ (absent vs present counts).

    This is the error set E_t of a flag vector (§7.2) computed from states."""
    return frozenset(s for s in set(gold) | set(pred) if gold.get(s) != pred.get(s))


def slot_accuracy(gold: State, pred: State, n_slots: int = N_SLOTS) -> float:
    """SA_t = (|𝒮| − |X| − |Y| + |P ∩ Q|) / |𝒮| (Eq. 1, §4), a fraction.

    X = B ∖ B', Y = B' ∖ B (triples); P, Q their slot sets. Equals 1 − |W_t| / |𝒮|."""
    g, p = set(gold.items()), set(pred.items())
    x, y = g - p, p - g
    pq = {s for s, _ in x} & {s for s, _ in y}
    return (n_slots - len(x) - len(y) + len(pq)) / n_slots


def local_match(prev_gold: State, gold: State, prev_pred: State, pred: State) -> bool:
    """LM(t) ⇔ T'_t ⊆ B_t and T_t ⊆ B'_t (§6.2), on whole triples.

    T_t = B_t ∖ B_{t−1} and T'_t = B'_t ∖ B'_{t−1} (turn-level states)."""
    return _local_match_items(set(prev_gold.items()), set(gold.items()),
                              set(prev_pred.items()), set(pred.items()))


def _local_match_items(prev_gold: set, gold: set, prev_pred: set, pred: set) -> bool:
    """:func:`local_match` on the states' item sets (built once per turn by the caller)."""
    return pred - prev_pred <= gold and gold - prev_gold <= pred


# --------------------------------------------------------------------------------------------
# §6 FGA


def classify_turns(
    exact: Sequence[bool],
    local: Sequence[bool | None],
    variant: str = "scripts",
) -> list[tuple[Kind, float | None]]:
    """EXACT / TYPE1 / TYPE2 and x for the turns of one dialogue (§6.3; §9 D1).

    Computed once per dialogue, independent of λ.

    Args:
        exact: per turn t, whether B_t = B'_t.
        local: per turn t, the local-match test (LM or LM_flag); entry 0 is ignored.
        variant: ``"scripts"`` (normative: rule R1, a non-exact turn right after an exact turn
            is TYPE1) or ``"paper_literal"`` (Algorithm 1 read literally: no R1, t_err starts at
            −∞, so such a turn is TYPE2 with x = ∞).

    Returns:
        per turn ``(kind, x)``; x = t − t_err for TYPE2 (``math.inf`` when t_err is undefined
        under ``paper_literal``), ``None`` otherwise.

    Raises:
        ConfigError: unknown variant.
        ValueError: sequences of different lengths.
    """
    if variant not in FGA_VARIANTS:
        raise ConfigError(f"unknown fga_variant {variant!r}; choose one of {FGA_VARIANTS}")
    if len(exact) != len(local):
        raise ValueError("exact and local must have one entry per turn")
    out: list[tuple[Kind, float | None]] = []
    t_err: int | None = None
    for t, is_exact in enumerate(exact):
        if is_exact:
            out.append(("EXACT", None))
            continue
        if t == 0 or not local[t] or (variant == "scripts" and out[t - 1][0] == "EXACT"):
            out.append(("TYPE1", None))
            t_err = t
        else:
            out.append(("TYPE2", float(t - t_err) if t_err is not None else math.inf))
    return out


def fga_weight(kind: str, x: float | None, lam: float) -> float:
    """The FGA weight of one turn (§6.4): 1 (EXACT), 0 (TYPE1), 1 − e^{−λx} (TYPE2).

    Evaluated as −expm1(−λx). x = ∞ (paper_literal only) gives 1 for λ > 0.

    Raises:
        ConfigError: λ < 0, or λ = 0 with x = ∞ (undefined, §9 D1).
    """
    if lam < 0:
        raise ConfigError(f"FGA λ must be ≥ 0, got {lam}")
    if kind == "EXACT":
        return 1.0
    if kind == "TYPE1":
        return 0.0
    if x is None:
        raise ValueError("a TYPE2 turn needs its distance x")
    if math.isinf(x):
        if lam == 0:
            raise ConfigError("FGA(λ=0) is undefined for a TYPE2 turn with x = ∞ "
                             "(fga_variant 'paper_literal', spec §9 D1)")
        return 1.0
    return -math.expm1(-lam * x)


def lambda_from_forgetting(p: float, t_f: float) -> float:
    """Rule of thumb λ = −ln(1 − p) / t_f (§6.4): a TYPE2 turn t_f turns after the last TYPE1
    error earns weight p. ``lambda_from_forgetting(0.95, 6)`` = 0.4993.

    Raises:
        ConfigError: p outside [0, 1) or t_f ≤ 0.
    """
    if not 0 <= p < 1:
        raise ConfigError(f"p must satisfy 0 ≤ p < 1, got {p}")
    if not t_f > 0:
        raise ConfigError(f"t_f must be > 0, got {t_f}")
    return -math.log1p(-p) / t_f


# --------------------------------------------------------------------------------------------
# Per-dialogue scoring


@dataclass(frozen=True)
class TurnOutcome:
    """Everything the corpus figures need about one turn.

    Attributes:
        dialogue_id: lowercase id without ``.json``.
        turn: user-turn index t.
        exact: B_t = B'_t (after rewriting).
        local: the local-match test of t (``None`` at t = 0).
        kind: ``EXACT``, ``TYPE1`` or ``TYPE2``.
        x: TYPE2 distance t − t_err (``inf`` only under paper_literal), else ``None``.
        n_wrong: |W_t| (slots wrong, of 30).
        gold_slots: |N_t| = |B_t| (non-empty gold slots).
        hits: |N_t ∩ B'_t| (correct gold slots).
        union: |N_t ∪ B'_t| (triples), ``None`` when unknown (flag input).
        rewrites: predicted values rewritten to the gold spelling at this turn (§2.7: a gold
            alternative or a tolerant matcher accepted them).
        changes: the turn's judged state changes for GCA
            (:mod:`mwzrepro.dst.granular_change_accuracy`), ``None`` for flag input.
    """

    dialogue_id: str
    turn: int
    exact: bool
    local: bool | None
    kind: str
    x: float | None
    n_wrong: int
    gold_slots: int
    hits: int
    union: int | None
    rewrites: int = 0
    changes: ChangeCounts | None = None


def rewritten_predictions(
    dialogue: DialogueStates,
    matcher: Matcher | None = None,
) -> tuple[list[dict[Slot, str]], list[int]]:
    """The predicted states of ``dialogue`` rewritten with ``matcher`` and the gold
    alternatives (§2.7, :func:`~mwzrepro.dst.matchers.rewrite_predictions`) and, per turn,
    the number of rewritten values: ``(states, rewrites)``."""
    matcher = matcher or ExactMatcher()
    alts = dialogue.alternatives or (None,) * len(dialogue.gold)
    pred: list[dict[Slot, str]] = []
    rewrites: list[int] = []
    for g, p, a in zip(dialogue.gold, dialogue.pred, alts):
        r = rewrite_predictions(g, p, matcher, a)
        pred.append(r)
        rewrites.append(sum(1 for s in p if p[s] != r[s]))
    return pred, rewrites


def score_dialogue(
    dialogue: DialogueStates,
    matcher: Matcher | None = None,
    variant: str = "scripts",
    rewritten: tuple[list[dict[Slot, str]], list[int]] | None = None,
) -> list[TurnOutcome]:
    """Per-turn outcomes of one dialogue from states (subset rule LM + R1, §6.3).

    Predictions are first rewritten with ``matcher`` and the gold alternatives (§2.7); T'_t is
    computed from the rewritten states.

    Args:
        dialogue: gold and predicted states.
        matcher: value matcher (default exact).
        variant: ``scripts`` (default) or ``paper_literal`` (§9 D1).
        rewritten: :func:`rewritten_predictions` of ``dialogue`` with ``matcher``, when the
            caller has it.

    Returns:
        one :class:`TurnOutcome` per turn, in turn order.
    """
    gold = dialogue.gold
    pred, rewrites = rewritten or rewritten_predictions(dialogue, matcher)
    exact = [dict(g) == r for g, r in zip(gold, pred)]
    gold_items = [set(g.items()) for g in gold]
    pred_items = [set(p.items()) for p in pred]
    local: list[bool | None] = [None] + [
        _local_match_items(gold_items[t - 1], gold_items[t], pred_items[t - 1], pred_items[t])
        for t in range(1, len(gold))
    ]
    kinds = classify_turns(exact, local, variant)
    changes = dialogue_changes(gold, pred)
    out = []
    for t, (g, p) in enumerate(zip(gold, pred)):
        gi, pi = gold_items[t], pred_items[t]
        if exact[t]:  # equal states: no wrong slot, every triple a hit
            n_wrong, hits, union = 0, len(gi), len(gi)
        else:
            n_wrong, hits, union = len(wrong_slots(g, p)), len(gi & pi), len(gi | pi)
        out.append(
            TurnOutcome(
                dialogue_id=dialogue.dialogue_id, turn=t, exact=exact[t], local=local[t],
                kind=kinds[t][0], x=kinds[t][1], n_wrong=n_wrong,
                gold_slots=len(gi), hits=hits, union=union, rewrites=rewrites[t],
                changes=changes[t],
            )
        )
    return out


def flags_from_states(gold: Sequence[State], pred: Sequence[State]) -> tuple[tuple[int, ...], ...]:
    """Per-slot correctness vectors (§7.1) of state sequences: flag i = 1 iff gold and
    predicted values of ``SLOTS[i]`` agree (both absent counts as agreeing)."""
    return tuple(tuple(int(g.get(s) == p.get(s)) for s in SLOTS) for g, p in zip(gold, pred))


def score_dialogue_flags(
    dialogue: DialogueFlags,
    variant: str = "scripts",
    where: str = "",
) -> list[TurnOutcome]:
    """Per-turn outcomes of one dialogue from flag vectors (error-set rule LM_flag, §7.2).

    Exact iff E_t = ∅; SA_t = Σ f_t / 30; LM_flag(t) ⇔ E_t = E_{t−1} (R1 is implied, so both
    variants give the same kinds); AGA_t = mean of f_t over ``gold_present[t]`` (skipped when
    empty). ``union`` is ``None`` (relative AGA is not computable from flags).

    Raises:
        DSTError: a vector of the wrong length or with values other than 0/1, or
            ``gold_present`` with a different number of turns (names ``where``, dialogue, turn).
    """
    did = dialogue.dialogue_id
    here = f"{where + ': ' if where else ''}dialogue {did}"
    errors: list[frozenset[int]] = []
    for t, f in enumerate(dialogue.flags):
        if len(f) != N_SLOTS or any(v not in (0, 1) or isinstance(v, bool) for v in f):
            raise DSTError(f"{here}, turn {t}: flag vector must be {N_SLOTS} integers 0/1, "
                           f"got length {len(f)}: {list(f)!r}")
        errors.append(frozenset(i for i, v in enumerate(f) if v == 0))
    present = dialogue.gold_present
    if present is not None and len(present) != len(errors):
        raise DSTError(f"{here}: {len(errors)} flag vectors but gold states for "
                       f"{len(present)} turns")
    exact = [not e for e in errors]
    local: list[bool | None] = [None] + [errors[t] == errors[t - 1] for t in range(1, len(errors))]
    kinds = classify_turns(exact, local, variant)
    out = []
    for t, e in enumerate(errors):
        gp = present[t] if present is not None else frozenset()
        out.append(
            TurnOutcome(
                dialogue_id=did, turn=t, exact=exact[t], local=local[t],
                kind=kinds[t][0], x=kinds[t][1], n_wrong=len(e),
                gold_slots=len(gp) if present is not None else -1,
                hits=len(gp - e) if present is not None else -1, union=None,
            )
        )
    return out

