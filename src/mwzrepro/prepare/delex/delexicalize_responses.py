"""Delexicalization (values → placeholders) of lexicalized system responses (spec addendum to
spec-standard-evaluation §3, rule version :data:`LEX_VERSION`): what
``mwzrepro score --lexicalized`` and ``Evaluator(lexicalized=True)`` apply to every response
before the usual normalization and scoring.

**Why.** LLM-based systems answer with surface text — venue names, phone numbers, booking
references — which the reference normalization (spec-standard-evaluation §3) leaves as words,
so no venue is ever offered and no requestable provided. Each group delexicalizes its outputs
its own way, which is the inconsistency the seed papers measure; this is one documented rule,
in the span style of the references (§5.4), recorded in every signature as
``lex:<version>-<state source>``.

**The rule.** A response is read against the venue database
(:class:`~mwzrepro.prepare.delex.value_lexicon.ValueLexicon`) and the turn's state: the
predicted state when every turn of the file has one, else the gold state (as Inform/Success
do, §9.1); the signature says which (``lex:1-pred``, ``lex:1-gold``).

1. *Brackets.* ``[x]`` whose lowercased content is a placeholder name of §3.2 or has the shape
   of one (``word_word``, no spaces) stays a placeholder, lowercased (``[Restaurant_name]`` →
   ``[restaurant_name]``); any other bracketed text is a value: a venue name when it matches a
   written form of a database name (:func:`~.value_lexicon.name_variants`) with ``rapidfuzz``
   ``ratio`` ≥ :data:`FUZZY_NAME_CUTOFF` (``[De Luca Cucina and Bar]``, ``[de luca cucna]`` →
   ``[name]``), else its brackets are dropped and the rules below read it. A
   bracketed name outside §3.2 that the placeholder-name resolver of ``extended`` resolves
   (:mod:`mwzrepro.core.placeholder_resolver`) is written as the §3.2 name with its meaning
   (:func:`~mwzrepro.core.placeholder_resolver.table_name`: ``[Phone_Number]`` → ``[phone]``,
   ``[booking reference]`` → ``[reference]``; a venue name is tried first for a name with
   spaces), so ``--lexicalized`` never deletes a placeholder ``extended`` resolves.
2. *Patterns* (first, they win every overlap): booking references (8 letters and digits with
   at least one of each, or any word after ``reference number is``/``ref #``) → ``[ref]``;
   phone numbers (10–11 digits, spaces/dashes/brackets allowed) → ``[phone]``; postcodes
   (``cb2 1uf``, ``c.b 2, 1 u.f``, ``pe29 6fl``; not followed by a letter or digit, so that
   ``cb2 3 cb2`` is no postcode and the rule stays idempotent) → ``[postcode]``; train ids (``TR7075``) →
   ``[trainid]``; clock times (``17:15``, ``5.30 pm``, ``5 pm``) → ``[time]``; money
   (``10.10 pounds``, ``£5``, ``5 gbp``) → ``[price]``; a duration (``79 minutes`` after
   takes/lasts/duration is/travel time is/journey is/total of/approximately/about) →
   ``[duration]``.
3. *Phrases* (leftmost-longest over tokens, state values first at equal length): the turn's
   state values (names, addresses, taxi departure/destination, food, type, area, price
   range, days) and the database lexicon — venue names with their variants (articles,
   ``hotel``/``restaurant`` suffixes, ``b and b``, case), addresses, foods, hotel and
   attraction types, taxi cars, areas, price ranges, days. A state name not found verbatim
   is located with ``rapidfuzz`` ``partial_ratio_alignment`` ≥ :data:`FUZZY_NAME_CUTOFF`.
   A state departure/destination that is a venue name is read as a name (below).
   Train stations become ``[departure]`` after from/leaving/departing and
   ``[destination]`` after to/into/arriving/arrive/for/at/in; a station other than
   ``cambridge`` elsewhere is ``[destination]``; in a taxi turn (the response mentions a
   taxi or car) a venue name after ``from``/``to`` is ``[departure]``/``[destination]``.
4. *Free entrance, then counts* (last): ``free``, ``free of charge``, ``free admission``,
   ``no entrance fee`` (not before wifi/internet/parking) → ``[entrancefee]``; a standalone
   number of 1–3 digits, or two … ten, → ``[choice]`` (``one`` stays: in the references it
   is a count only one time in four).

The placeholders are the span references' slot names, so after §3 they read ``NAME``,
``ADDRESS``, ``PHONE``, ``POST``, ``REFERENCE``, ``TRAINID``, ``TIME``, ``PRICE``, ``DAY``,
``COUNT``, ``AREA``, ``FOOD``, ``TYPE``, ``PLACE`` exactly as in the references. Existing
placeholders are left as they are, so a delexicalized file scores the same with and without
the option except where a value word slipped through.

**Entity links.** :meth:`Delexicalizer.link` gives the same text with what every
placeholder replaced (:class:`Span`: slot, surface text, offsets of the placeholder, and for a
venue name or a train id the database entities it names), from the same single pass; the
grounded Inform/Success setting reads them (:mod:`mwzrepro.standard.grounded`).

>>> from mwzrepro.prepare.delex.value_lexicon import ValueLexicon
>>> lex = ValueLexicon.from_entities({"restaurant": [{"name": "de luca cucina and bar",
...     "address": "83 regent street", "food": "modern european", "area": "centre",
...     "pricerange": "moderate", "phone": "01223356666", "postcode": "cb21aw"}]})
>>> d = Delexicalizer(lex)
>>> d("De Luca Cucina is a moderate modern european place at 83 Regent Street, cb2 1aw.")
'[name] is a [pricerange] [food] place at [address], [postcode].'
>>> d("[De Luca Cucina and Bar] serves [Restaurant_food]. Phone 01223 356666, ref 8HX2KQ9Z.")
'[name] serves [restaurant_food]. Phone [phone], ref [ref].'
>>> d("There are 3 trains, the earliest TR1234 leaves at 5:30 pm for 10.10 pounds.")
'There are [choice] trains, the earliest [trainid] leaves at [time] for [price].'
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mwzrepro.core.normalize import SLOT_MAP
from mwzrepro.core.placeholder_resolver import table_name
from mwzrepro.prepare.delex.state_phrases import fuzzy_state_names, state_phrases
from mwzrepro.prepare.delex.value_lexicon import FUZZY_NAME_CUTOFF, ValueLexicon, tokens
from mwzrepro.prepare.delex.value_patterns import (
    COUNT_RE,
    ENDPOINTS,
    LATE_PATTERNS,
    PATTERNS,
    TAXI_RE,
    endpoint_side,
)

__all__ = ["LEX_VERSION", "FUZZY_NAME_CUTOFF", "Delexicalizer", "LinkedResponse", "Span"]

#: Version of the rule above; the signature field is ``lex:<LEX_VERSION>-<pred|gold>``.
LEX_VERSION = "1"

#: Entries of :meth:`Delexicalizer.link`'s memo (a test set has 7,372 system turns).
MEMO_SIZE = 1 << 15

_BRACKET_RE = re.compile(r"\[([^\[\]]*)\]")
_PLACEHOLDER_SHAPE = re.compile(r"[a-z]+(?:_[a-z]+)+")
@dataclass(frozen=True)
class Span:
    """One value the rule replaced, entity-linked (:meth:`Delexicalizer.link`).

    Attributes:
        slot: the placeholder written, without brackets (``name``, ``phone``, ``postcode``,
            ``trainid``, ``area``, ``departure``, ...).
        text: the surface text as given (a bracketed venue name without its brackets).
        start, end: character offsets of the placeholder ``[slot]`` in the delexicalized text.
        entities: for a venue name (also a taxi endpoint that is a venue name) the database
            venues it names ``((domain, entity id), ...)`` — ``id`` of the restaurant, hotel,
            attraction file, the name itself for ``police``/``hospital``; for a train id
            ``(("train", "TR1234"),)`` when the database has that id; ``()`` for an unknown
            name and for every other value (the grounding reads those against the named
            venue's fields, :mod:`mwzrepro.standard.grounded`).
    """

    slot: str
    text: str
    start: int
    end: int
    entities: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class LinkedResponse:
    """A delexicalized response with its entity-linked spans (text order) and the number of
    placeholders the response already had (``[restaurant_name]``: no value given)."""

    text: str
    spans: tuple[Span, ...]
    placeholders: int


class Delexicalizer:
    """The rule of the module docstring over one database lexicon; call it on a response.

    Args:
        lexicon: :class:`~mwzrepro.prepare.delex.value_lexicon.ValueLexicon` of the venue
            database (build it once; the instance memoizes links and state phrases).
    """

    def __init__(self, lexicon: ValueLexicon) -> None:
        self.lexicon = lexicon
        self._memo: dict[tuple[str, str], LinkedResponse] = {}
        self._phrases: dict[str, dict[tuple[str, ...], str]] = {}  # state key → its phrases

    def __call__(self, text: str, state: Mapping[str, Any] | None = None) -> str:
        """The delexicalized ``text`` (str) given the turn's ``state`` (or None)."""
        return self._run(text, state, False).text

    def link(self, text: str, state: Mapping[str, Any] | None = None) -> LinkedResponse:
        """The delexicalized ``text`` (byte-identical to :meth:`__call__`) with what each
        placeholder replaced (:class:`LinkedResponse`; its spans in text order).

        >>> from mwzrepro.prepare.delex.value_lexicon import ValueLexicon
        >>> d = Delexicalizer(ValueLexicon.from_entities({"hotel": [{"id": "7",
        ...     "name": "the lensfield hotel", "phone": "01223355017"}]}))
        >>> r = d.link("[Lensfeld Hotel] is great, call 01223 355017 or see [hotel_name].")
        >>> r.text
        '[name] is great, call [phone] or see [hotel_name].'
        >>> [(s.slot, s.text, s.entities) for s in r.spans]
        [('name', 'Lensfeld Hotel', (('hotel', '7'),)), ('phone', '01223 355017', ())]
        >>> r.placeholders
        1

        Results are memoized per (text, state) (up to :data:`MEMO_SIZE` entries), so the
        scorer's delexicalization and the grounding read one pass. The state is keyed by its
        JSON in its own order: the result may depend on the order of its slots (which slot's
        phrase wins), so a state of other order is linked on its own.
        """
        try:
            key = (text, json.dumps(state))
        except (TypeError, ValueError):
            return self._run(text, state, True)
        found = self._memo.get(key)
        if found is None:
            if len(self._memo) >= MEMO_SIZE:
                self._memo.clear()
            found = self._memo[key] = self._run(text, state, True, key[1])
        return found

    def _state_phrases(self, state: Mapping[str, Any] | None,
                       key: str | None = None) -> dict[tuple[str, ...], str]:
        """The phrases of the turn's state, endpoint names resolved against the lexicon;
        computed once per state, keyed by its JSON in its own order (``key``, as :meth:`link`
        keys it; which slot's phrase wins depends on the order)."""
        if key is None:
            try:
                key = json.dumps(state)
            except (TypeError, ValueError):
                pass
        found = self._phrases.get(key) if key is not None else None
        if found is None:
            found = {k: ("name" if v in ENDPOINTS and self.lexicon.phrases.get(k) == "name"
                         else v) for k, v in state_phrases(state).items()}
            if key is not None:
                if len(self._phrases) >= MEMO_SIZE:
                    self._phrases.clear()
                self._phrases[key] = found
        return found

    def _run(self, text: str, state: Mapping[str, Any] | None, link: bool,
             state_key: str | None = None) -> LinkedResponse:
        names: dict[int, str] = {}          # start of a bracketed venue name → its text
        while True:                     # nested brackets: innermost first, to a fixpoint
            unbracketed = self._unbracket(text, names)
            if unbracketed == text:
                break
            text = unbracketed
        claimed: list[tuple[int, int, str]] = [
            (m.start(), m.end(), "") for m in _BRACKET_RE.finditer(text)]
        for slot, pattern in PATTERNS:
            for m in pattern.finditer(text):
                span = m.span("v") if "v" in pattern.groupindex and m.group("v") else m.span()
                _claim(claimed, *span, slot)
        toks = tokens(text)
        extra = self._state_phrases(state, state_key)
        taxi = bool(TAXI_RE.search(text))
        venue_names: set[int] = set()   # starts of spans that are written venue names
        for start, end, slot in self.lexicon.find(text, extra, toks):
            side = endpoint_side(slot, text, start, taxi)
            if side:
                _claim(claimed, start, end, side)
                if slot == "name":
                    venue_names.add(start)
        for start, end in fuzzy_state_names(text, state):
            _claim(claimed, start, end, "name")
        for slot, pattern in LATE_PATTERNS:
            for m in pattern.finditer(text):
                _claim(claimed, m.start(), m.end(), slot)
        for m in COUNT_RE.finditer(text):
            _claim(claimed, m.start(), m.end(), "choice")
        out, pos, length = [], 0, 0
        spans: list[Span] = []
        placeholders = 0
        for start, end, slot in sorted(claimed):
            out.append(text[pos:start])
            length += start - pos
            piece = f"[{slot}]" if slot else text[start:end]
            if link and slot:
                spans.append(self._span(slot, text[start:end], length, length + len(piece),
                                        start in venue_names))
            elif link and start in names:
                spans.append(self._span("name", names[start], length, length + len(piece),
                                        True))
            elif not slot:
                placeholders += 1
            out.append(piece)
            length += len(piece)
            pos = end
        out.append(text[pos:])
        return LinkedResponse("".join(out), tuple(spans), placeholders)

    def _span(self, slot: str, surface: str, start: int, end: int, venue: bool) -> Span:
        """One span; venue names (also taxi endpoints) and train ids are linked."""
        entities: tuple[tuple[str, str], ...] = ()
        if slot == "name" or (venue and slot in ENDPOINTS):
            entities = self.lexicon.entities_of_name(surface)
        elif slot == "trainid":
            tid = re.sub(r"\s+", "", surface).upper()
            entities = (("train", tid),) if tid in self.lexicon.train_ids else ()
        return Span(slot, surface, start, end, entities)

    def _unbracket(self, text: str, names: dict[int, str]) -> str:
        """One pass of rule 1 over the innermost brackets; ``names`` (start → written name of
        a bracketed venue name) is kept in step with the new offsets."""
        out, pos, shift = [], 0, 0
        moved: dict[int, str] = {}
        for m in _BRACKET_RE.finditer(text):
            piece = self._bracket(m)
            out.append(text[pos:m.start()])
            new_start = m.start() + shift
            if piece == "[name]" and m.group(1).strip().lower() != "name":
                moved[new_start] = m.group(1).strip()
            elif m.start() in names:
                moved[new_start] = names.pop(m.start())
            for old in [k for k in names if pos <= k < m.start()]:
                moved[old + shift] = names.pop(old)
            out.append(piece)
            shift += len(piece) - (m.end() - m.start())
            pos = m.end()
        for old in list(names):
            moved[old + shift if old >= pos else old] = names.pop(old)
        names.update(moved)
        out.append(text[pos:])
        return "".join(out)

    def _bracket(self, m: re.Match[str]) -> str:
        inner = m.group(1).strip()
        low = inner.lower()
        if low in SLOT_MAP:
            return f"[{low}]"
        if _PLACEHOLDER_SHAPE.fullmatch(low):
            return f"[{table_name(low) or low}]"
        key = " ".join(t for t, _, _ in tokens(low))
        if self.lexicon.closest_name_form(key) is not None:
            return "[name]"
        named = table_name(inner) if low.strip() else None
        return f"[{named}]" if named else inner

def _claim(claimed: list[tuple[int, int, str]], start: int, end: int, slot: str) -> None:
    """Add a span unless it overlaps one already claimed (earlier rules win)."""
    if end <= start:
        return
    for s, e, _ in claimed:
        if start < e and s < end:
            return
    claimed.append((start, end, slot))
