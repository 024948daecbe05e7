"""The round trip: a public system's delexicalized output filled from its own
predicted state, then scored as lexicalized text (the round-trip rows of
``inform_success_grounded``, :mod:`mwzrepro.scorer.lexicalized.grounded_table`).

**The fill** (:func:`round_trip`):
:func:`~mwzrepro.prepare.delex.relexicalize.lexicalize_predictions` in its ``consistent``
mode, a system that keeps to the venues it names and listens: the venues the user names
before a turn (:func:`~mwzrepro.scorer.lexicalized.grounding.user_named`) and the venues the
system's own response names in words (``the postcode for the Yippee Noodle Bar is [postcode]``)
become the domain's venue in focus, the system's in the response's own turn; and in a file without
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
(:func:`~mwzrepro.standard.grounded_values.value_key`), each original value once. The
round trip is held to ≥ 99 % on this figure for each of the 13 systems.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from mwzrepro.scorer.context import ScoringContext

if TYPE_CHECKING:
    from mwzrepro.prepare.delex.fill_memo import FillMemo
    from mwzrepro.standard.inputs import PreparedDialogues

__all__ = ["round_trip", "own_values", "split_own", "filled_accuracy"]


def round_trip(data: Mapping[str, Any], ctx: ScoringContext,
               inputs: Mapping[str, Any] | None = None,
               memo: FillMemo | None = None) -> dict[str, Any]:
    """A delexicalized prediction mapping lexicalized from its own predicted states (module
    docstring), with the database and resources of ``ctx`` (a lexicalized evaluator).
    ``inputs``: :func:`~mwzrepro.scorer.lexicalized.round_trip_inputs.round_trip_inputs` of
    ``data`` (computed here when not given); ``memo``: a fill memo
    (:mod:`mwzrepro.prepare.delex.fill_memo`, the same text faster). ``data`` is not
    modified.

    Raises:
        InputError: a malformed prediction mapping.
    """
    from mwzrepro.prepare.delex.relexicalize import lexicalize_predictions
    from mwzrepro.scorer.lexicalized.round_trip_inputs import round_trip_inputs

    inputs = inputs if inputs is not None else round_trip_inputs(data, ctx.resources)
    return lexicalize_predictions(data, ctx._database(), consistent=True,
                                  user_named=inputs["heard"], domains=inputs["domains"],
                                  memo=memo)


def own_values(data: Mapping[str, Any], ctx: ScoringContext
               ) -> dict[tuple[str, int], Counter[tuple[str, str]]]:
    """``{(canonical dialogue id, turn): Counter((slot, comparable value))}``: the values a
    delexicalized prediction mapping's responses already give in words (module docstring;
    the responses linked, nothing else of the round trip's inputs computed)."""
    from mwzrepro.scorer.lexicalized.grounding import link_predictions
    from mwzrepro.scorer.lexicalized.round_trip_inputs import own_counters, own_in_words

    return own_counters({"own": own_in_words(link_predictions(data, ctx.resources))})


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
                    source: str, inputs: Mapping[str, Any] | None = None,
                    prep: PreparedDialogues | None = None,
                    links: Mapping[str, list[Any]] | None = None,
                    checks: Sequence[tuple[str, int, Mapping[str, Any]]] | None = None
                    ) -> dict[str, Any]:
    """The attribute accuracy of the values the fill wrote (module docstring).

    Args:
        data: the system's delexicalized prediction mapping.
        lexical: ``round_trip(data, ctx)``.
        ctx: a lexicalized evaluator; source: the label of the input (in messages).
        inputs: :func:`~mwzrepro.scorer.lexicalized.round_trip_inputs.round_trip_inputs` of
            ``data`` (computed here when not given).
        prep: the prepared dialogues of ``lexical`` (``ctx._prepare(lexical, source).prep``;
            prepared here when not given).
        links: :func:`~mwzrepro.scorer.lexicalized.grounding.link_predictions` of ``lexical``
            (linked here when not given).
        checks: the attribute checks of ``lexical``'s evaluation
            (``result.grounding.checks``; computed here when not given).

    Returns:
        The ``attribute_accuracy`` block's shape (``{"total": percent or None, "correct",
        "count", "per_slot": {slot: {"accuracy", "correct", "count"}}}``) over the filled
        values, plus ``"own": {"correct", "count"}`` of the values the system gave itself.

    Raises:
        InputError: as :meth:`~mwzrepro.scorer.evaluator.Evaluator.evaluate`.
    """
    from mwzrepro.scorer.lexicalized.grounding import link_predictions, user_named
    from mwzrepro.scorer.lexicalized.round_trip_inputs import own_counters
    from mwzrepro.standard.grounding_metrics import accuracy_of, corpus_attribute_checks

    if checks is None:
        prep = prep if prep is not None else ctx._prepare(lexical, source)[1]
        links = links if links is not None else link_predictions(lexical, ctx.resources)
        checks = list(corpus_attribute_checks(prep.dialogues, links, ctx._database(),
                                              user_named(ctx.resources)))
    own = (own_counters(inputs) if inputs is not None else own_values(data, ctx))
    filled, mine = split_own(checks, own)
    return {**accuracy_of(filled),
            "own": {"correct": sum(c["correct"] for c in mine), "count": len(mine)}}
