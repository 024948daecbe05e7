"""The corpus as conversations, and probes of the conversation setting
(:mod:`mwzrepro.standard.conversation`): the test set's own dialogues written in the
conversation form (:mod:`mwzrepro.scorer.lexicalized.conversation_input`; user utterances and
the corpus's lexicalized system turns, the goal left to the test set), and the same records
with their venues or contact values made wrong on purpose by the turn-aligned probes
(:mod:`mwzrepro.scorer.lexicalized.probes`: every linked venue name swapped for another venue
of its domain; every phone number and postcode replaced by a wrong one; seeded).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["corpus_conversations", "probed_conversations"]


def corpus_conversations(resources: Any) -> list[dict[str, Any]]:
    """``[{"dialogue_id", "turns": [{"user", "system"}, ...]}, ...]`` of every test dialogue
    of a :class:`~mwzrepro.scorer.resources.resource_set.VersionResources`, in the test set's order
    (no ``goal``: the test set's)."""
    from mwzrepro.scorer.lexicalized.grounded_table import corpus_text

    out = []
    for did, turns in corpus_text(resources).items():
        users = resources.user_utterances(did)
        out.append({"dialogue_id": did,
                    "turns": [{"user": u, "system": t["response"]}
                              for u, t in zip(users, turns)]})
    return out


def probed_conversations(records: Sequence[dict[str, Any]], resources: Any, probe: str,
                         seed: int = 27) -> tuple[list[dict[str, Any]], int]:
    """``(records with every system turn probed, number of turns changed)``; ``probe`` is
    ``venue_name`` or ``contact_value`` (:mod:`mwzrepro.scorer.lexicalized.probes`), the
    spans linked without state as the conversation setting links them."""
    from mwzrepro.scorer.lexicalized.delexicalize_pass import delexicalizer_of
    from mwzrepro.scorer.lexicalized.probes import contact_value_probe, venue_name_probe

    delex = delexicalizer_of(resources)
    data = {r["dialogue_id"]: [{"response": t["system"]} for t in r["turns"]] for r in records}
    links = {did: [delex.link(t["response"]) for t in turns] for did, turns in data.items()}
    probes: dict[str, Callable[[], tuple[dict[str, Any], int]]] = {
        "venue_name": lambda: venue_name_probe(data, links, resources.database(), seed),
        "contact_value": lambda: contact_value_probe(data, links, seed)}
    probed, changed = probes[probe]()
    return ([{**r, "turns": [{**t, "system": p["response"]}
                             for t, p in zip(r["turns"], probed[r["dialogue_id"]])]}
             for r in records], changed)


#: The steps from turn-aligned grounded scoring of the corpus text to the conversation
#: setting of the same text (:func:`alignment_steps`), in order.
ALIGNMENT_STEPS = ("turn-aligned", "links without state", "no state", "active domains from "
                   "the text", "booked domains from the text")


def alignment_steps(evaluator: Any) -> dict[tuple[str, str], list[tuple[bool, bool]]]:
    """``{(dialogue id, goal domain): [(inform, success) after each step], ...}`` of every
    test dialogue: the corpus's lexicalized text scored turn-aligned in the grounded setting
    (gold states, the corpus's active and booked domains), then with one input of the
    conversation setting swapped in at a time (:data:`ALIGNMENT_STEPS`); the last step is the
    conversation setting's result. ``evaluator``: an
    :class:`~mwzrepro.scorer.evaluator.Evaluator` with ``lexicalized=True``.
    Differences between the first and last entry are explained by the step that changes
    them."""
    from mwzrepro.core.normalize import normalize_response
    from mwzrepro.scorer.lexicalized.delexicalize_pass import delexicalizer_of
    from mwzrepro.scorer.lexicalized.grounded_table import corpus_text
    from mwzrepro.scorer.lexicalized.grounding import user_named
    from mwzrepro.standard.conversation import evaluate_conversation
    from mwzrepro.standard.grounded import evaluate_grounded_dialogue

    resources = evaluator.resources
    data = corpus_text(resources)
    prepared = evaluator._prepare(data, "corpus")     # no states: linked with the gold ones
    prep, gold_links = prepared.prep, prepared.links
    delex, db = delexicalizer_of(resources), evaluator._database()
    users, ev = user_named(resources), resources.eval
    out: dict[tuple[str, str], list[tuple[bool, bool]]] = {}
    for did, d in prep.dialogues.items():
        goal, n = ev.goals[did], len(d["responses"])
        texts = [t["response"] for t in data[did]][:n]
        plain = [delex.link(t) for t in texts]
        conversation = evaluate_conversation(
            goal, users[did], plain, db, list(zip(resources.user_utterances(did)[:n], texts)))
        responses = [normalize_response(x.text) for x in plain]
        steps = [
            (d["responses"], gold_links[did], d["states"], d["active_domains"], ev.booked[did]),
            (responses, plain, d["states"], d["active_domains"], ev.booked[did]),
            (responses, plain, [{}] * n, d["active_domains"], ev.booked[did]),
            (responses, plain, [{}] * n, conversation.active, ev.booked[did]),
        ]
        outcomes = [evaluate_grounded_dialogue(goal, booked_now, responses_now, states,
                                               domains, [x.spans for x in links], db,
                                               user_named=users[did])
                    for responses_now, links, states, domains, booked_now in steps]
        for o in [*outcomes, conversation.outcome]:      # the last step: the setting itself
            for domain in goal:
                out.setdefault((did, domain), []).append(
                    (bool(o.inform[domain]), bool(o.success[domain])))
    return out
