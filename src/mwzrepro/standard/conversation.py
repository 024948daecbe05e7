"""Goal-based grounded Inform/Success of a whole conversation (spec addendum to
spec-standard-evaluation §9 and to the grounded setting, :mod:`mwzrepro.standard.grounded`;
signature field ``set:conversation``, with ``lex:<rule>-none``: no state).

**Why.** Interactive and simulated evaluation (an LLM agent talking to a user simulator given
a MultiWOZ goal) gives conversations that never line up with the corpus's turns and are as
long as they are. The grounded setting already reads, from the text alone, which venue a
response names and whether each value it gives is true; this setting drops its one
assumption, turn alignment: every turn of the conversation is read against the goal, with no
corpus annotation (state, active domains, booked domains).

**The rule.** The grounded setting's turn loop
(:func:`~mwzrepro.standard.grounded.evaluate_grounded_dialogue`: lex:1 linking, offered venues
named in the text, the replacement rule of offers, the subset rule, value checks of the venue
in focus, auto-matched taxi/police/hospital) over the conversation's system turns, with:

1. *No state.* Every turn's state is empty: a ``[name]`` the rule could not link (an unknown
   venue) offers no venue and drops the previous offer of the domain (a domain whose last
   offer is empty then counts as never offered, as in the grounded setting: a name goal, or a
   train goal without a ``TRAINID`` request, is matched, every other goal fails Inform).
2. *Active domains from the text* (:func:`conversation_domains`): a goal domain is active in a
   turn when the user utterance or the response of that turn names a venue of it (lex:1
   links) or a word of the domain (:data:`DOMAIN_WORDS`); a turn that mentions no goal domain
   keeps the previous turn's active domains (the first turn: none).
3. *The booked-domain rule from the text* (:func:`booked_from_text`): a domain is booked in a
   turn — and a reference-shaped value (lex:1 ``[ref]``) of that turn provides its
   ``REFERENCE`` — when it is active in that turn, its goal has a booking, and the agent has
   named a *satisfying* venue of it (one of the goal's venues, the query of its ``info``;
   for train a train id of the goal's query) in this or an earlier turn — or, as long as the
   agent has named no venue of the domain, when the domain's Inform is matched
   automatically (a goal with a ``name``: the user named the venue; a train goal without a
   ``TRAINID`` request), as the grounded setting's rule 2 matches it.
4. *Inform per goal domain* after ``fail_info``: the goal's ``info`` holds the final
   constraints (:mod:`mwzrepro.standard.conversation_goal`).

**Also reported** (per conversation and in total): attribute accuracy
(:func:`~mwzrepro.standard.grounding_metrics.attribute_checks` with the venues named last as
focus, no state fallback), unknown venues
(:func:`~mwzrepro.standard.grounding_metrics.unknown_venues`) and the number of turns.
**Entity F1 is undefined**: it needs the corpus's own response of the same turn, which a
conversation does not have.

>>> from mwzrepro.prepare.delex.delexicalize_responses import LinkedResponse, Span
>>> class DB:
...     domains = ("restaurant",)
...     def query(self, domain, c):
...         return ["1"] if c.get("food") == "thai" or c.get("name") == "bangkok city" else []
...     def entities(self, domain):
...         return [{"id": "1", "name": "bangkok city", "phone": "01223354382"}]
>>> goal = {"restaurant": {"informable": {"food": "thai"}, "requestable": ["REFERENCE"],
...                        "booking": {"people": "2"}}}
>>> texts = [("a thai restaurant please", "try Bangkok City ."),
...          ("book it", "booked , reference number is AB12CD34 .")]
>>> s = [LinkedResponse("try [name] .", (Span("name", "Bangkok City", 4, 10,
...                     (("restaurant", "1"),)),), 0),
...      LinkedResponse("booked , reference number is [ref] .", (Span("ref", "AB12CD34",
...                     29, 34),), 0)]
>>> out = evaluate_conversation(goal, [{}, {}], s, DB(), texts)
>>> out.outcome.inform["total"], out.outcome.success["total"], out.booked
(True, True, [[], ['restaurant']])
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mwzrepro.core.normalize import normalize_response
from mwzrepro.standard.grounded import evaluate_grounded_dialogue, named_venues
from mwzrepro.standard.inform_success import DialogueOutcome

__all__ = ["SETTING", "DOMAIN_WORDS", "ConversationOutcome", "conversation_domains",
           "booked_from_text", "evaluate_conversation"]

#: The setting's name (the ``set`` field of its signatures).
SETTING = "conversation"

#: Words that make a goal domain active in a turn (rule 2), matched case-insensitively at the
#: start of a word.
DOMAIN_WORDS: Mapping[str, str] = {
    "restaurant": r"restaurant|food|cuisine|dine|dining|eat|table|lunch|dinner|menu",
    "hotel": r"hotel|guest ?house|accommodation|lodging|room|stay|night|parking|wifi|internet"
             r"|b ?& ?b|bed and breakfast",
    "attraction": r"attraction|museum|college|park|theatre|cinema|gallery|church|pool|"
                  r"entrance|visit|architecture|nightclub|boat|sight|concert",
    "train": r"train|ticket|rail|depart|leav|arriv|journey|tr ?\d{4}",
    "taxi": r"taxi|cab\b|cars?\b|driver|pick ?up|tesla|toyota|skoda|bmw|honda|ford|audi|"
            r"lexus|volvo|volkswagen",
    "police": r"police",
    "hospital": r"hospital|department|clinic",
}
_DOMAIN_RE = {d: re.compile(rf"\b(?:{w})", re.IGNORECASE) for d, w in DOMAIN_WORDS.items()}


@dataclass(frozen=True)
class ConversationOutcome:
    """What one conversation scored.

    Attributes:
        outcome: Inform/Success per goal domain and ``total`` (:class:`~mwzrepro.standard.
            inform_success.DialogueOutcome`).
        active: per system turn the active goal domains (rule 2).
        booked: per system turn the booked domains (rule 3).
        trace: the grounded trace records (:func:`~mwzrepro.standard.grounded.
            evaluate_grounded_dialogue`'s ``trace``).
    """

    outcome: DialogueOutcome
    active: list[list[str]]
    booked: list[list[str]]
    trace: list[dict[str, Any]] = field(default_factory=list, repr=False)

    def provided(self, domain: str) -> set[str]:
        """The requestables credited to ``domain`` in any turn (``PHONE``, ``REFERENCE``,
        ...), whatever Inform says."""
        return {x for r in self.trace if r["domain"] == domain for x in r["provided"]}


def conversation_domains(goal: Mapping[str, Any], user_texts: Sequence[str],
                         system_texts: Sequence[str],
                         named: Sequence[Mapping[str, list[str]]]) -> list[list[str]]:
    """The active goal domains per turn (rule 2 of the module docstring); ``named`` per turn
    the venues named by the user or the system (``{domain: [id, ...]}``).

    >>> conversation_domains({"hotel": {}, "taxi": {}}, ["a hotel please", "ok", "and a cab"],
    ...                      ["sure", "fine", "booked"], [{}, {}, {}])
    [['hotel'], ['hotel'], ['taxi']]
    """
    out: list[list[str]] = []
    previous: list[str] = []
    for user, system, venues in zip(user_texts, system_texts, named):
        text = f"{user}\n{system}"
        now = [d for d in goal if d in venues or _DOMAIN_RE[d].search(text)]
        previous = now or previous
        out.append(list(previous))
    return out


def booked_from_text(goal: Mapping[str, Mapping[str, Any]], active: Sequence[Sequence[str]],
                     system_named: Sequence[Mapping[str, list[str]]],
                     has_reference: Sequence[bool], database: Any) -> list[list[str]]:
    """The booked domains per turn (rule 3 of the module docstring); ``system_named`` per turn
    the venues the response names (``{domain: [id, ...]}``), ``has_reference`` per turn
    whether it gives a reference-shaped value."""
    wanted = {d: set(database.query(d, g["informable"])) for d, g in goal.items()
              if "REFERENCE" in g["requestable"]}
    auto = {d for d in wanted if "name" in goal[d]["informable"]
            or (d == "train" and "TRAINID" not in goal[d]["requestable"])}
    satisfied: set[str] = set()
    named_any: set[str] = set()
    booked: list[list[str]] = []
    for domains, named, ref in zip(active, system_named, has_reference):
        satisfied.update(d for d, venues in wanted.items() if venues & set(named.get(d, ())))
        named_any.update(d for d in wanted if named.get(d))
        booked.append([d for d in domains if d in wanted and (
            d in satisfied or (d in auto and d not in named_any))] if ref else [])
    return booked


def evaluate_conversation(goal: Mapping[str, Mapping[str, Any]],
                          user_named: Sequence[Mapping[str, list[str]]], systems: Sequence[Any],
                          database: Any, texts: Sequence[tuple[str, str]]
                          ) -> ConversationOutcome:
    """Inform/Success of one conversation (module docstring).

    Args:
        goal: the evaluator's goal structure (:mod:`mwzrepro.standard.conversation_goal`).
        user_named: per turn the venues the user utterance names (:func:`~mwzrepro.standard.
            grounded.named_venues` of its lex:1 spans, linked without state).
        systems: per turn the lex:1 :class:`~mwzrepro.prepare.delex.delexicalize_responses.
            LinkedResponse` of the response (linked without state).
        database: the venue database (``query``, ``domains``, ``entities``).
        texts: per turn ``(user, system)`` as given, where rule 2 reads the domain words.
            All four sequences have one entry per turn.

    Returns:
        :class:`ConversationOutcome`.
    """
    system_named = [named_venues(s.spans) for s in systems]
    both = [{**u, **s} for u, s in zip(user_named, system_named)]
    active = conversation_domains(goal, [u for u, _ in texts], [s for _, s in texts], both)
    refs = [any(sp.slot == "ref" for sp in s.spans) for s in systems]
    booked = booked_from_text(goal, active, system_named, refs, database)
    responses = [normalize_response(s.text) for s in systems]
    trace: list[dict[str, Any]] = []
    outcome = evaluate_grounded_dialogue(goal, booked, responses, [{}] * len(systems), active,
                                         [s.spans for s in systems], database, trace,
                                         user_named)
    return ConversationOutcome(outcome, active, booked, trace)
