"""The grounding figures of lexicalized responses (reported next to the grounded
Inform/Success, :mod:`mwzrepro.standard.grounded`): attribute accuracy, unknown venues and
entity F1, all read from lex:1's entity-linked spans.

**Attribute accuracy** (:func:`attribute_checks`). Every value a response gives for a named
venue or train — the fields of :data:`~mwzrepro.standard.grounded_values.CHECKED_FIELDS` —
is compared with the database (:func:`~mwzrepro.standard.grounded_values.same_value`). Which
venue: the nearest venue or train named before the value in the same response; phone,
address and postcode also fall back to the venue named last in an earlier turn, then to the
venue of the state's ``name`` (``its phone number is ...``); the descriptive values (area,
price range, food, type, entrance fee, stations, times, prices) only count when that venue is
named in the same sentence, since elsewhere they are usually the user's constraints (``would
you like one in the north?``). A value whose venue's domain has no such field is not checked
(a booking time after a restaurant name); nor is a phone number in a response about a taxi
(``taxi``, ``car``, ``driver`` or a car such as ``white tesla``: the taxi's contact number),
where the fallbacks are off too. Figures: percent correct in total and per slot,
with counts.

**Unknown venues** (:func:`unknown_venues`). Name-like phrases in the place of a venue name
that match no database venue — the hallucinated venues: bracketed text that is no placeholder
and no database value (``[The Golden Dragon]``), and one to five capitalized words (``of``,
``and``, ``the``, ``on``, ``by``, ``at``, ``de``, ``la`` may join them; ``'s`` may follow) after
``recommend``, ``suggest``, ``try``, ``called``, ``named``, ``how about``, ``booked at``/
``into``, ``reservation at``, ``table at``, ``stay at``, without digits (train ids), such that
neither the phrase nor its first words name a venue (exactly or fuzzily) or begin a venue's
name (``Chiquito`` of ``chiquito restaurant bar``).

**Entity F1** (:func:`entity_values`, :func:`f1_counts`). Micro F1 (percent) of the database
and ontology values a response mentions — venue names as their entity ids, train ids, phone,
address, postcode, area, food, price range, type, stations, times, prices, days, entrance
fees, each in its comparable form (:func:`~mwzrepro.standard.grounded_values.value_key`) — per
turn against the values of the corpus's own (lexicalized) response of the same turn, linked by
the same rule with the gold state. This is the standard MultiWOZ test set (1,000 dialogues,
every turn), **not** the KB-subset benchmarks of Mem2Seq/GLMP/DF-Net/Q-TOD (their own
preprocessed subsets, with per-dialogue knowledge bases): the figures are not comparable
with theirs.

>>> from mwzrepro.prepare.delex.delexicalize_responses import Span
>>> sys_ = entity_values([Span("name", "Ask", 0, 6, (("restaurant", "3"),)),
...                       Span("phone", "01223 364917", 10, 17)])
>>> ref = entity_values([Span("name", "ask restaurant", 0, 6, (("restaurant", "3"),)),
...                      Span("area", "centre", 10, 16)])
>>> f1_counts(sys_, ref)
(1, 1, 1)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from mwzrepro.core.slot_map import SLOT_MAP
from mwzrepro.prepare.delex.delexicalize_responses import Span
from mwzrepro.standard.grounded_values import (
    CHECKED_FIELDS,
    CONTACT_SLOTS,
    state_venue,
    value_key,
)

__all__ = ["F1_SLOTS", "attribute_checks", "state_focus", "corpus_attribute_checks",
           "dialogue_attribute_checks",
           "accuracy_of", "corpus_grounding",
           "unknown_venues", "entity_values", "f1_counts", "f1_percent"]

#: Span slots whose values entity F1 counts.
F1_SLOTS = frozenset({"name", "trainid", "phone", "address", "postcode", "area", "food",
                      "pricerange", "type", "departure", "destination", "time", "price",
                      "day", "entrancefee"})

_TAXI = re.compile(r"\b(?:taxi|car|cab|driver|tesla|toyota|skoda|bmw|honda|ford|audi|lexus|"
                   r"volvo|volkswagen)s?\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")
_BRACKET = re.compile(r"\[([^\[\]]+)\]")
_PLACEHOLDER_SHAPE = re.compile(r"[a-z]+(?:_[a-z]+)+")
_JOIN = r"(?:of|and|&|the|on|by|at|de|la)"
_WORD = r"[A-Z][\w'&-]*(?:\s?'s)?"
_CAPITALIZED = re.compile(
    r"\b(?:recommend|suggest|try|called|named|how about|booked (?:you )?(?:at|into)|"
    r"reservation (?:at|for)|table at|stay at)\s+(?:[Tt]he\s+)?"
    rf"({_WORD}(?:\s+(?:{_JOIN}\s+)*{_WORD}){{0,4}})")


def _sentence_of(text: str, pos: int) -> int:
    return len(_SENTENCE_END.findall(text, 0, pos))


def attribute_checks(text: str, spans: Sequence[Span], before: Sequence[tuple[str, str]],
                     state_focus: Sequence[tuple[str, str]], records: Any,
                     active: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """The checked values of one response (module docstring).

    Args:
        text: the delexicalized response (the spans' offsets point into it).
        spans: its entity-linked spans.
        before: the venues ``(domain, id)`` named last in an earlier turn.
        state_focus: the venues of the state's ``name`` slots (the last fallback).
        records: :class:`~mwzrepro.standard.grounded_values.VenueRecords`.
        active: the turn's active domains (None: any); the fallbacks only reach venues of
            these domains, and none in a response about a taxi (its contact number).

    Returns:
        ``[{"slot", "text", "venue": [domain, id], "correct": bool}, ...]`` in text order.
    """
    out: list[dict[str, Any]] = []
    if not spans:
        return out
    current: tuple[tuple[tuple[str, str], ...], int] | None = None
    taxi = _TAXI.search(text) or any(s.slot == "type" and _TAXI.search(s.text) for s in spans)
    fallback = [] if taxi else [
        r for r in (before or state_focus) if active is None or r[0] in active]
    for span in spans:
        if span.slot in ("name", "trainid") and span.entities:
            current = (span.entities, _sentence_of(text, span.start))
            continue
        if (not any(span.slot in fields for fields in CHECKED_FIELDS.values())
                or (taxi and span.slot == "phone")):
            continue
        refs: Sequence[tuple[str, str]] = ()
        if current is not None and (span.slot in CONTACT_SLOTS
                                    or current[1] == _sentence_of(text, span.start)):
            refs = current[0]
        elif current is None and span.slot in CONTACT_SLOTS:
            refs = fallback
        results = [(ref, records.check(ref, span.slot, span.text)) for ref in refs]
        results = [(ref, ok) for ref, ok in results if ok is not None]
        if results:
            ref = next((r for r, ok in results if ok), results[0][0])
            out.append({"slot": span.slot, "text": span.text, "venue": list(ref),
                        "correct": any(ok for _, ok in results)})
    return out


def unknown_venues(text: str, lexicon: Any) -> list[str]:
    """Name-like phrases of a (lexicalized) response that match no database venue (module
    docstring); ``lexicon`` is the lex:1
    :class:`~mwzrepro.prepare.delex.value_lexicon.ValueLexicon`.

    >>> from mwzrepro.prepare.delex.value_lexicon import ValueLexicon
    >>> lex = ValueLexicon.from_entities({"restaurant": [{"id": "1", "name": "nandos"}]})
    >>> unknown_venues("I recommend The Golden Dragon Palace, or [Nandos] or [Sala Thai].", lex)
    ['Golden Dragon Palace', 'Sala Thai']
    """
    from mwzrepro.prepare.delex.value_lexicon import tokens

    out = []
    for phrase in [m.group(1) for m in _CAPITALIZED.finditer(text)] + [
            m.group(1).strip() for m in _BRACKET.finditer(text)]:
        low = phrase.lower()
        key = tuple(t for t, _, _ in tokens(low))
        if (not key or low in SLOT_MAP or _PLACEHOLDER_SHAPE.fullmatch(low)
                or not any(c.isalpha() for c in low) or key in lexicon.phrases):
            continue
        if not any(c.isdigit() for c in low) and not _known(key, lexicon):
            out.append(phrase)
    return list(dict.fromkeys(out))


def _known(key: tuple[str, ...], lexicon: Any) -> bool:
    """Whether a phrase, or its first words, name a venue, or it begins a venue's name."""
    for k in range(len(key), 0, -1):
        prefix = " ".join(key[:k])
        if lexicon.entities_of_name(prefix) or any(
                form.startswith(prefix + " ") for form in lexicon.name_forms):
            return True
    return False


def entity_values(spans: Iterable[Span]) -> set[tuple[str, str]]:
    """``{(slot, comparable value), ...}`` a response mentions (entity F1; venue names as
    ``domain:id`` of their entities, an unknown name as ``?`` + its words)."""
    out = set()
    for s in spans:
        if s.slot not in F1_SLOTS:
            continue
        if s.slot == "name":
            value = (",".join(sorted(f"{d}:{i}" for d, i in s.entities)) if s.entities
                     else "?" + value_key("name", s.text))
        elif s.slot == "trainid":
            value = re.sub(r"\s+", "", s.text).upper()
        else:
            value = value_key(s.slot, s.text)
        out.add((s.slot, value))
    return out


def f1_counts(system: set[tuple[str, str]], reference: set[tuple[str, str]]
              ) -> tuple[int, int, int]:
    """``(true positives, false positives, false negatives)`` of one turn."""
    tp = len(system & reference)
    return tp, len(system) - tp, len(reference) - tp


def f1_percent(counts: Mapping[str, int]) -> dict[str, Any]:
    """Micro precision, recall and F1 (percent; 100 when nothing was to be found and nothing
    was found) of summed ``{"tp", "fp", "fn"}``.

    >>> f1_percent({"tp": 3, "fp": 1, "fn": 0})["f1"]
    85.71428571428571
    """
    tp, fp, fn = counts["tp"], counts["fp"], counts["fn"]
    precision = 100.0 if tp + fp == 0 else 100 * tp / (tp + fp)
    recall = 100.0 if tp + fn == 0 else 100 * tp / (tp + fn)
    f1 = 100.0 if tp + fp + fn == 0 else 100 * 2 * tp / (2 * tp + fp + fn)
    return {"f1": f1, "precision": precision, "recall": recall, "tp": tp, "fp": fp, "fn": fn}


def state_focus(state: Mapping[str, Any], database: Any) -> list[tuple[str, str]]:
    """The venues ``[(domain, id)]`` of a state's ``name`` slots (first match each)."""
    return [v for domain in ("restaurant", "hotel", "attraction")
            for v in state_venue(domain, state, database)]


def corpus_attribute_checks(dialogues: Mapping[str, Mapping[str, Sequence[Any]]],
                            links: Mapping[str, Sequence[Any]], database: Any,
                            user_named: Mapping[str, Sequence[Mapping[str, list[str]]]]
                            | None = None) -> Iterator[tuple[str, int, dict[str, Any]]]:
    """``(dialogue id, turn, check)`` for every checked value of a scored corpus
    (:func:`dialogue_attribute_checks` of each dialogue); arguments as
    :func:`corpus_grounding`'s."""
    from mwzrepro.standard.grounded_values import venue_records

    records = venue_records(database)
    for did, d in dialogues.items():
        for t, c in dialogue_attribute_checks(d, links[did], database,
                                              (user_named or {}).get(did, ()), records):
            yield did, t, c


def dialogue_attribute_checks(dialogue: Mapping[str, Sequence[Any]], links: Sequence[Any],
                              database: Any, users: Sequence[Mapping[str, list[str]]],
                              records: Any) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(turn, check)`` for every checked value of one prepared dialogue
    (:func:`attribute_checks`, its ``before`` the venues named last: by the user before the
    turn (``users``: per turn), by an earlier response); ``links``: its LinkedResponse per
    turn; ``records``: the database's :func:`~mwzrepro.standard.grounded_values.
    venue_records`."""
    from mwzrepro.standard.grounded import named_venues

    before: list[tuple[str, str]] = []
    for t, state in enumerate(dialogue["states"]):
        linked = links[t]
        if t < len(users) and users[t]:
            before = [(dom, i) for dom, ids in users[t].items() for i in ids]
        contact = any(s.slot in CONTACT_SLOTS for s in linked.spans)
        for c in attribute_checks(linked.text, linked.spans, before,
                                  state_focus(state, database) if contact else [],
                                  records, dialogue["active_domains"][t]):
            yield t, c
        named = named_venues(linked.spans)
        if named:
            before = [(dom, i) for dom, ids in named.items() for i in ids]


def accuracy_of(checks: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The ``attribute_accuracy`` block of value checks (:func:`attribute_checks`' dicts,
    read: ``slot``, ``correct``): ``{"total": percent or None, "correct", "count",
    "per_slot": {slot: {"accuracy" (percent), "correct", "count"}}}``.

    >>> accuracy_of([{"slot": "phone", "correct": True}, {"slot": "phone", "correct": False},
    ...              *[{"slot": "area", "correct": True}] * 3])["total"]
    80.0
    """
    per_slot: dict[str, list[int]] = {}
    for c in checks:
        n = per_slot.setdefault(c["slot"], [0, 0])
        n[0] += c["correct"]
        n[1] += 1
    correct = sum(n[0] for n in per_slot.values())
    total = sum(n[1] for n in per_slot.values())
    return {"total": 100 * correct / total if total else None, "correct": correct,
            "count": total,
            "per_slot": {s: {"accuracy": 100 * n[0] / n[1], "correct": n[0], "count": n[1]}
                         for s, n in sorted(per_slot.items())}}


def corpus_grounding(dialogues: Mapping[str, Mapping[str, Sequence[Any]]],
                     links: Mapping[str, Sequence[Any]], raw: Mapping[str, Sequence[str]],
                     database: Any, lexicon: Any,
                     reference: Mapping[tuple[str, int], set[tuple[str, str]]],
                     user_named: Mapping[str, Sequence[Mapping[str, list[str]]]] | None = None,
                     checks: list[tuple[str, int, dict[str, Any]]] | None = None,
                     memo: Any = None) -> tuple[dict[str, Any], list[str]]:
    """The grounding figures of a scored corpus (module docstring), dialogue by dialogue.

    Args:
        dialogues: the prepared dialogues (``states`` per turn; their turn counts decide
            which turns are scored).
        links: ``{dialogue id: [LinkedResponse per turn]}``.
        raw: ``{dialogue id: [response as given per turn]}``.
        database: the venue database; lexicon: the lex:1 value lexicon.
        reference: ``{(dialogue id, turn): entity values}`` of the corpus's own responses.
        user_named: ``{dialogue id: [venues the user names before each turn]}``: they
            become the venues named last.
        checks: a list that receives the attribute checks behind the accuracy
            (:func:`corpus_attribute_checks`' triples, in its order).
        memo: each dialogue's figures from an earlier run where they hold (as
            :func:`~mwzrepro.standard.inform_success.dialogue_rows`'), or None.

    Returns:
        ``({"attribute_accuracy", "unknown_venues", "entity_f1"}, every unknown venue
        phrase in corpus order)``.
    """
    from mwzrepro.standard.grounded_values import venue_records

    records = venue_records(database)
    found: list[tuple[str, int, dict[str, Any]]] = []
    unknown: list[str] = []
    counts = {"tp": 0, "fp": 0, "fn": 0}
    for did, d in dialogues.items():
        def figures(db: Any, did: str = did, d: Mapping[str, Sequence[Any]] = d
                    ) -> tuple[list[tuple[int, dict[str, Any]]], list[str], tuple[int, ...]]:
            mine = list(dialogue_attribute_checks(d, links[did], db,
                                                  (user_named or {}).get(did, ()), records))
            phrases: list[str] = []
            tp = fp = fn = 0
            for t in range(len(d["states"])):
                phrases += unknown_venues(raw[did][t], lexicon)
                n = f1_counts(entity_values(links[did][t].spans),
                              reference.get((did, t), set()))
                tp, fp, fn = tp + n[0], fp + n[1], fn + n[2]
            return mine, phrases, (tp, fp, fn)

        mine, phrases, (tp, fp, fn) = (figures(database) if memo is None
                                       else memo.value(("grounding",), did, database, figures))
        found += [(did, t, c) for t, c in mine]
        unknown += phrases
        counts["tp"] += tp
        counts["fp"] += fp
        counts["fn"] += fn
    if checks is not None:
        checks.extend(found)
    return ({"attribute_accuracy": accuracy_of(c for _, _, c in found),
             "unknown_venues": {"count": len(unknown), "examples": unknown[:10]},
             "entity_f1": f1_percent(counts)}, unknown)
