"""State metrics of the reference evaluator (spec-standard-evaluation §13): joint accuracy and
slot precision/recall/F1 of predicted states against gold states, with fuzzy value matching.

This is the evaluator's optional ("secret") DST check, computed here for every system that
predicts states on every turn; the FGA paper's DST metric suite is :mod:`mwzrepro.dst.metrics`.

Per turn, states are flattened to ``{(domain, slot): value}``; a value *matches* when
``partial_ratio(hypothesis value, gold value) > threshold`` (95; hypothesis first):

* joint match: same key sets and every key matches;
* tp: hypothesis keys present in the gold state and matching; fp: the other hypothesis keys;
* fn: gold keys absent from the hypothesis or not matching.

Totals over all turns give ``slot_precision = tp / (tp + fp + 1e-10)`` and ``slot_recall``
(fractions, not percentages — kept as in the reference), ``slot_f1 = 2PR / (P + R + 1e-10) ·
100`` and ``joint_accuracy = joint / (turns + 1e-10) · 100`` (percentages).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mwzrepro.core.errors import InputError
from mwzrepro.core.fuzzy import partial_ratio

__all__ = ["flatten_state", "state_match"]

State = Mapping[str, Mapping[str, Any]]


def flatten_state(state: State) -> dict[tuple[str, str], Any]:
    """``{domain: {slot: value}}`` → ``{(domain, slot): value}``."""
    return {(d, s): v for d, slots in state.items() for s, v in slots.items()}


def _as_text(value: Any) -> str | None:
    # fuzzywuzzy: None scores 0; other non-strings are compared as their str(); several
    # alternatives (a tuple, mwzrepro.core.alternatives) never match
    if value is None or isinstance(value, tuple):
        return None
    return value if isinstance(value, str) else str(value)


def state_match(
    predicted: Mapping[str, Sequence[State]],
    gold: Mapping[str, Sequence[State]],
    matching: str = "reference",
    threshold: float = 95,
    where: str = "",
) -> dict[str, float | int]:
    """Joint accuracy and slot P/R/F1 (§13) of normalized predicted states.

    Args:
        predicted: ``{dialogue_id: [normalized predicted state per turn]}`` (the turns given;
            turn *i* is compared with gold turn *i*).
        gold: ``{dialogue_id: [normalized gold state per system turn]}``
            (:mod:`mwzrepro.standard.gold_states`).
        matching: ``reference`` (fuzzywuzzy 0.18 + python-Levenshtein 0.12 partial_ratio) or
            ``optimal`` (rapidfuzz), see :mod:`mwzrepro.core.fuzzy`.
        threshold: a value matches when its score is **greater** than this (95).
        where: label for error messages.

    Returns:
        ``{"joint_accuracy": %, "slot_f1": %, "slot_precision": fraction,
        "slot_recall": fraction, "turns": n, "tp": .., "fp": .., "fn": ..}`` (unrounded).

    Raises:
        InputError: a dialogue has no gold states, or more predicted turns than gold turns
            (the reference evaluator crashes there; the message names the dialogue).
    """

    equal_matches = 100 > threshold  # partial_ratio(a, a) is 100 in both modes

    def compare(hyp: Any, ref: Any) -> bool:
        a, b = _as_text(hyp), _as_text(ref)
        if a is None or b is None:
            return False
        if a == b:
            return equal_matches
        return partial_ratio(a, b, matching) > threshold

    # value pairs repeat across turns
    compared: dict[tuple[Any, Any], bool] = {}  # pragma: no mutate (equivalent: a cache)

    def matches(hyp: Any, ref: Any) -> bool:
        try:
            return compared[hyp, ref]
        except KeyError:
            out = compared[hyp, ref] = compare(hyp, ref)
            return out
        except TypeError:  # an unhashable value
            return compare(hyp, ref)

    # states are often one shared object for several turns (memoized normalization, gold
    # states of consecutive turns): flatten each object once (all live during the call)
    flat: dict[int, dict[tuple[str, str], Any]] = {}

    def flattened(state: State) -> dict[tuple[str, str], Any]:
        out = flat.get(id(state))  # pragma: no mutate (equivalent: a memo, a miss recomputes)
        if out is None:
            out = flat[id(state)] = flatten_state(state)  # pragma: no mutate (equivalent: memo)
        return out

    tp = fp = fn = joint = turns = 0
    for did, states in predicted.items():
        if did not in gold:
            raise InputError(f"{where}: dialogue {did} has no gold states")
        if len(states) > len(gold[did]):
            raise InputError(
                f"{where}: dialogue {did} has {len(states)} predicted turns but only "
                f"{len(gold[did])} gold states"
            )
        for hyp_state, ref_state in zip(states, gold[did]):
            hyp, ref = flattened(hyp_state), flattened(ref_state)
            # tp: keys in both whose values match; every other gold key is a fn (equal strings
            # match iff equal_matches, as matches() decides, without the call)
            n_tp = 0
            for k, v in hyp.items():
                if k in ref:
                    r = ref[k]
                    n_tp += equal_matches if type(v) is str and v == r else matches(v, r)
            if n_tp == len(hyp) and hyp.keys() == ref.keys():
                joint += 1
            tp += n_tp
            fp += len(hyp) - n_tp
            fn += len(ref) - n_tp
            turns += 1
    precision = tp / (tp + fp + 1e-10)
    recall = tp / (tp + fn + 1e-10)
    return {
        "joint_accuracy": joint / (turns + 1e-10) * 100,
        "slot_f1": 2 * precision * recall / (precision + recall + 1e-10) * 100,
        "slot_precision": precision,
        "slot_recall": recall,
        "turns": turns,
        "tp": tp,
        "fp": fp,
        "fn": fn,
    }
