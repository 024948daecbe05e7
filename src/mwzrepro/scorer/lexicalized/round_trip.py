"""The round trip of issue 27: a public system's delexicalized output filled from its own
predicted state, then scored as lexicalized text (the round-trip rows of
``inform_success_grounded``, :mod:`mwzrepro.scorer.lexicalized.grounded_table`).

**The fill** (:func:`round_trip`):
:func:`~mwzrepro.prepare.delex.relexicalize.lexicalize_predictions` in its ``consistent``
mode, a system that keeps to the venues it names and listens: the venues the user names
before a turn (:func:`~mwzrepro.scorer.lexicalized.grounding.user_named`) and the venues the system's
own response names in words (``the postcode for the Yippee Noodle Bar is [postcode]``) become
the domain's venue in focus, the system's in the response's own turn; and in a file without
``active_domains`` an unprefixed placeholder is of the domain the reference evaluator
estimates from the predicted states (spec-standard-evaluation §8), the domain the standard
setting scores the turn for, rather than the relexicalizer's own guess (the state domain that
changed last, else the last one: in MARS's ``[value_name] phone number is [value_phone]``
after a museum question, the restaurant of the state's end).

**Filled attribute accuracy** (:func:`filled_accuracy`). Published outputs are not purely
delexicalized: several systems write some values in words (DOTS ``leaves cambridge for
bishops stortford``, SOLOIST ``is a guesthouse``, AuGPT ``the postcode for old schools``).
Those values are the system's own, right or wrong, and the grounding rightly checks them;
the fill is only responsible for the values it wrote. So beside the attribute accuracy of the
whole text this gives the accuracy of the *filled* values: the checked values of the
lexicalized text less, per turn, those the system's original response already gives — lex:1
links of the original (:meth:`~mwzrepro.prepare.delex.delexicalize_responses.Delexicalizer.
link` finds values in words between placeholders), matched by slot and comparable form
(:func:`~mwzrepro.standard.grounded_values.value_key`), each original value once. Issue 27's
round-trip acceptance (≥ 99 % for each of the 13 systems) is on this figure.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from mwzrepro.core.errors import InputError
from mwzrepro.core.ids import canonical_dialogue_id
from mwzrepro.scorer.context import ScoringContext

__all__ = ["round_trip", "own_values", "split_own", "filled_accuracy"]


def _heard(data: Mapping[str, Any], ctx: ScoringContext
           ) -> dict[str, list[dict[str, list[str]]]]:
    """``{dialogue id as in data: [{domain: [entity id, ...]} per turn]}``: the venues the user
    names before each turn, then those the system's own response names in words."""
    from mwzrepro.scorer.lexicalized.grounding import link_predictions, user_named
    from mwzrepro.standard.grounded import named_venues

    users = user_named(ctx.resources)
    links = link_predictions(data, ctx.resources)
    out = {}
    for raw_id in data:
        did = canonical_dialogue_id(raw_id)
        heard, own = users.get(did, []), links.get(did, [])
        out[raw_id] = [{**(heard[t] if t < len(heard) else {}),
                        **named_venues(own[t].spans)} for t in range(len(own))]
    return out


def round_trip(data: Mapping[str, Any], ctx: ScoringContext) -> dict[str, Any]:
    """A delexicalized prediction mapping lexicalized from its own predicted states (module
    docstring), with the database and resources of ``ctx`` (a lexicalized evaluator).
    ``data`` is not modified.

    Raises:
        InputError: a malformed prediction mapping.
    """
    from mwzrepro.prepare.delex.relexicalize import lexicalize_predictions

    return lexicalize_predictions(data, ctx._database(), consistent=True,
                                  user_named=_heard(data, ctx), domains=_estimated(data))


def _estimated(data: Mapping[str, Any]) -> dict[str, list[list[str]]]:
    """``{dialogue id as in data: [[domain] or [] per turn]}``: the reference evaluator's
    active-domain estimate from each dialogue's predicted states (spec-standard-evaluation
    §8), for the turns that give no ``active_domains``; malformed states count as empty."""
    from mwzrepro.core.normalize_state import normalize_state
    from mwzrepro.standard.active_domains import estimate_from_states

    def normalized(turn: Any) -> dict[str, Any]:
        state = turn.get("state") if isinstance(turn, Mapping) else None
        try:
            return normalize_state({d: {k: v for k, v in s.items() if isinstance(v, str)}
                                    for d, s in state.items() if isinstance(s, Mapping)})
        except (AttributeError, TypeError, ValueError, InputError):
            return {}

    return {did: estimate_from_states([normalized(t) for t in turns])
            for did, turns in data.items() if isinstance(turns, list)}


def own_values(data: Mapping[str, Any], ctx: ScoringContext
               ) -> dict[tuple[str, int], Counter[tuple[str, str]]]:
    """``{(canonical dialogue id, turn): Counter((slot, comparable value))}``: the values a
    delexicalized prediction mapping's responses already give in words (module docstring)."""
    from mwzrepro.scorer.lexicalized.grounding import link_predictions
    from mwzrepro.standard.grounded_values import value_key

    return {(did, t): Counter((s.slot, value_key(s.slot, s.text)) for s in r.spans)
            for did, turns in link_predictions(data, ctx.resources).items()
            for t, r in enumerate(turns)}


def split_own(checks: Iterable[tuple[str, int, Mapping[str, Any]]],
              own: Mapping[tuple[str, int], Counter[tuple[str, str]]]
              ) -> tuple[list[Mapping[str, Any]], list[Mapping[str, Any]]]:
    """``(filled, own)`` value checks: each ``(dialogue id, turn, check)`` (a
    :func:`~mwzrepro.standard.grounding_metrics.attribute_checks` dict: ``slot``, ``text``)
    is the system's own when the original response of that turn gives a value of the same slot
    and comparable form not yet matched (``own``: :func:`own_values`; each original value
    matches once, module docstring), else filled. ``own`` is not modified.

    >>> own = {("d", 0): Counter({("area", "centre"): 1})}
    >>> checks = [("d", 0, {"slot": "area", "text": "centre"})] * 2
    >>> [len(part) for part in split_own(checks, own)]
    [1, 1]
    """
    from mwzrepro.standard.grounded_values import value_key

    left = {k: Counter(v) for k, v in own.items()}
    filled: list[Mapping[str, Any]] = []
    mine: list[Mapping[str, Any]] = []
    for did, t, check in checks:
        given = left.get((did, t))
        key = (check["slot"], value_key(check["slot"], check["text"]))
        if given and given[key] > 0:
            given[key] -= 1
            mine.append(check)
        else:
            filled.append(check)
    return filled, mine


def filled_accuracy(data: Mapping[str, Any], lexical: Mapping[str, Any], ctx: ScoringContext,
                    source: str) -> dict[str, Any]:
    """The attribute accuracy of the values the fill wrote (module docstring).

    Args:
        data: the system's delexicalized prediction mapping.
        lexical: ``round_trip(data, ctx)``.
        ctx: a lexicalized evaluator; source: the label of the input (in messages).

    Returns:
        The ``attribute_accuracy`` block's shape (``{"total": percent or None, "correct",
        "count", "per_slot": {slot: {"accuracy", "correct", "count"}}}``) over the filled
        values, plus ``"own": {"correct", "count"}`` of the values the system gave itself.

    Raises:
        InputError: as :meth:`~mwzrepro.scorer.evaluator.Evaluator.evaluate`.
    """
    from mwzrepro.scorer.lexicalized.grounding import link_predictions, user_named
    from mwzrepro.standard.grounding_metrics import accuracy_of, corpus_attribute_checks

    prep = ctx._prepare(lexical, source)[1]
    links = link_predictions(lexical, ctx.resources)
    filled, mine = split_own(corpus_attribute_checks(prep.dialogues, links, ctx._database(),
                                                     user_named(ctx.resources)),
                             own_values(data, ctx))
    return {**accuracy_of(filled),
            "own": {"correct": sum(c["correct"] for c in mine), "count": len(mine)}}
