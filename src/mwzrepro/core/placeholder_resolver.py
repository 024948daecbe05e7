"""The placeholder-name resolver of ``placeholders = extended`` (the spec addendum is in
:mod:`mwzrepro.core.placeholders`): a rule that reads a bracket content — or a state's
domain and slot name — as words, instead of a table of known spellings.

The rule, for one name:

1. A name of the reference table (:data:`~mwzrepro.core.slot_map.SLOT_MAP`, after
   lowercasing) keeps the table's meaning.
2. *Words.* The name is lowercased and split on ``_``, ``-`` and spaces. Case changes are read
   through the words they join: a word that is not a lexicon phrase and starts or ends with a
   domain word or (at its start) a qualifier is split there, recursively (``hotelRef`` →
   ``hotel`` ``ref``, ``bookingReference`` → ``booking`` ``reference``, ``refHotel`` →
   ``ref`` ``hotel``). Responses are lowercased before their placeholders are read
   (spec-standard-evaluation §3.1 step 1), so the rule never depends on case.
3. *Domain.* A word is a domain word when it is a MultiWOZ domain
   (:data:`~.placeholder_lexicon.DOMAIN_WORDS`), its plural, or — six letters or more, and
   no lexicon phrase — a near miss of one (``rapidfuzz`` ``ratio`` ≥ :data:`DOMAIN_CUTOFF`:
   ``restuarant``). At most one distinct domain: two (``[hotel_restaurant_name]``) leave the
   name unknown.
4. *Slot phrase.* The other words without the qualifiers (``value``, ``booking``, ``book``,
   ``reservation``, ...) are the slot phrase; none (``[hotel]``, ``[booking]``) leaves the
   name unknown. The phrase, compacted (``phone number`` → ``phonenumber``), is looked up in
   the lexicon (:mod:`~.placeholder_lexicon`: the reference table's slot parts and the
   synonyms), then without filler words (``of``, ``the``), then without a plural ``s``.
   Context: ``number`` alone is the reference, with ``taxi`` the phone and with ``train`` the
   train id; ``id`` after a booking word is the reference.
5. *Near misses.* A phrase of five letters or more still not found is compared with every
   lexicon phrase (``rapidfuzz`` ``ratio`` ≥ :data:`NEAR_MISS_CUTOFF`): it resolves only when
   every phrase that close names the same concept (``[phone_nubmer]``, ``[referance]``);
   otherwise it stays unknown.
6. The concept's unified name is the reference table's for the concept's own name (or the
   one :data:`~.placeholder_lexicon.CONCEPT_TABLE_NAMES` gives); ``id`` with a domain other
   than ``train`` is ``ID``, as the table's ``attraction_id``.

Anything else is unknown: deleted from the response and listed, as under ``reference``.

>>> resolve("phone_number").unified, resolve("taxi_number").unified
('PHONE', 'PHONE')
>>> resolve("bookingReference").unified, resolve("travel time").unified
('REFERENCE', 'TIME')
>>> r = resolve("hotel_restaurant_name"); r.unified, r.reason
(None, 'two domains: hotel, restaurant')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from mwzrepro.core.placeholder_lexicon import (
    CONCEPT_TABLE_NAMES,
    CONTEXT_NUMBER,
    DOMAIN_WORDS,
    FILLERS,
    QUALIFIERS,
    SYNONYMS,
    TABLE_SLOTS,
)
from mwzrepro.core.slot_map import SLOT_MAP

__all__ = ["DOMAIN_CUTOFF", "NEAR_MISS_CUTOFF", "Resolution", "lexicon", "name_words",
           "domain_word", "resolve", "unified_name", "table_name"]

#: rapidfuzz ``ratio`` (0–100) from which a word of six letters or more is a domain word.
DOMAIN_CUTOFF = 85
#: rapidfuzz ``ratio`` (0–100) from which a slot phrase is a near miss of a lexicon phrase.
NEAR_MISS_CUTOFF = 85

_SEPARATORS = re.compile(r"[_\-\s]+")


@dataclass(frozen=True)
class Resolution:
    """What the rule makes of one name.

    Attributes:
        concept: the slot it names (a value of :func:`lexicon`), None when unknown.
        domain: its domain word, if any.
        unified: the unified placeholder name (``PHONE``), None when unknown.
        reason: ``table``, ``lexicon``, ``near miss of <phrase>``, or why it is unknown.
    """

    concept: str | None
    domain: str | None
    unified: str | None
    reason: str


@lru_cache(maxsize=1)
def lexicon() -> dict[str, str]:
    """Compacted phrase → concept: the table's slot parts and the synonyms.

    >>> lexicon()["phonenumber"], lexicon()["bookpeople"], lexicon()["numberofpeople"]
    ('phone', 'people', 'people')
    """
    out = {k.replace(" ", ""): v for k, v in TABLE_SLOTS.items()}
    for phrase, concept in SYNONYMS.items():
        key = phrase.replace(" ", "")
        if out.setdefault(key, concept) != concept:
            raise AssertionError(f"lexicon phrase {phrase!r} has two concepts")
    return out


@lru_cache(maxsize=4096)
def domain_word(word: str) -> str | None:
    """The domain a (lowercase) word names, or None (rule step 3).

    >>> domain_word("hotels"), domain_word("restuarant"), domain_word("station")
    ('hotel', 'restaurant', None)
    """
    if word in DOMAIN_WORDS:
        return word
    if word.endswith("s") and word[:-1] in DOMAIN_WORDS:
        return word[:-1]
    if len(word) < 6 or word in lexicon():
        return None
    from rapidfuzz import fuzz, process

    best = process.extractOne(word, sorted(DOMAIN_WORDS), scorer=fuzz.ratio,
                              score_cutoff=DOMAIN_CUTOFF)
    return None if best is None else best[0]


def _split_word(word: str) -> list[str]:
    """A word joined from others (case changes lost to lowercasing): split off a leading or
    trailing domain word, or a leading qualifier (longest first). Only exact domain words
    split a word: a near miss (``restuarant``) is one word, and a joined word is never taken
    for a near miss of its domain (``attractiontel`` is ``attraction`` ``tel``)."""
    exact = word in DOMAIN_WORDS or (word.endswith("s") and word[:-1] in DOMAIN_WORDS)
    if not word or word in lexicon() or exact or word in QUALIFIERS:
        return [word] if word else []
    # no domain word ends another, so the order of the tails decides nothing:
    for tail in sorted(DOMAIN_WORDS, key=len, reverse=True):  # pragma: no mutate
        if word.endswith(tail) and word[:-len(tail)] in lexicon():  # (trainid + attraction)
            return [word[:-len(tail)], tail]
    for head in sorted(DOMAIN_WORDS | QUALIFIERS, key=len, reverse=True):
        if word.startswith(head) and len(word) > len(head):
            return [head, *_split_word(word[len(head):])]
    for tail in sorted(DOMAIN_WORDS, key=len, reverse=True):  # pragma: no mutate (as above)
        if word.endswith(tail) and len(word) > len(tail):
            return [*_split_word(word[:-len(tail)]), tail]
    return [word]


def name_words(name: str) -> list[str]:
    """The words of a name (rule step 2).

    >>> name_words("Hotel-BookPeople"), name_words("refHotel"), name_words("phone number")
    (['hotel', 'bookpeople'], ['ref', 'hotel'], ['phone', 'number'])
    """
    return [w for part in _SEPARATORS.split(name.strip().lower()) for w in _split_word(part)]


def _concept(phrase: list[str], domain: str | None, booked: bool) -> tuple[str | None, str]:
    """Rule steps 4–5 on the slot phrase's words: ``(concept or None, reason)``."""
    table = lexicon()
    compact = "".join(phrase)
    if compact in ("number", "num", "no"):
        return CONTEXT_NUMBER.get(domain or "", CONTEXT_NUMBER[""]), "lexicon"
    if compact == "id" and booked:
        return "reference", "lexicon"
    for key in (compact, "".join(w for w in phrase if w not in FILLERS)):
        if key in table:
            return table[key], "lexicon"
        if key.endswith("s") and key[:-1] in table:
            return table[key[:-1]], "lexicon"
    if len(compact) < 5:
        return None, f"no slot phrase {' '.join(phrase)!r}"
    from rapidfuzz import fuzz, process

    close = process.extract(compact, list(table), scorer=fuzz.ratio,
                            score_cutoff=NEAR_MISS_CUTOFF, limit=None)
    concepts = {table[k] for k, _, _ in close}
    if len(concepts) == 1:
        return concepts.pop(), f"near miss of {close[0][0]}"
    if concepts:
        return None, f"near miss of several slots: {', '.join(sorted(concepts))}"
    return None, f"no slot phrase {' '.join(phrase)!r}"


@lru_cache(maxsize=8192)
def resolve(name: str) -> Resolution:
    """The :class:`Resolution` of one bracket content or slot name (the module's rule)."""
    low = name.strip().lower()
    if low in SLOT_MAP:
        return Resolution(None, None, SLOT_MAP[low], "table")
    words = name_words(low)
    found = [(w, domain_word(w)) for w in words]
    domains = sorted({d for _, d in found if d})
    if len(domains) > 1:
        return Resolution(None, None, None, f"two domains: {', '.join(domains)}")
    domain = domains[0] if domains else None
    phrase = [w for w, d in found if not d and w not in QUALIFIERS]
    if not phrase:
        return Resolution(None, domain, None, "no slot word")
    booked = any(w in QUALIFIERS and w != "value" for w in words)
    concept, reason = _concept(phrase, domain, booked)
    if concept is None:
        return Resolution(None, domain, None, reason)
    return Resolution(concept, domain, SLOT_MAP[_table_entry(concept, domain)], reason)


def _table_entry(concept: str, domain: str | None) -> str:
    """The reference-table name whose unified name ``concept`` takes with ``domain`` (rule
    step 6): ``attraction_id`` for ``id`` with a domain other than ``train``, else the
    concept's own name or :data:`~.placeholder_lexicon.CONCEPT_TABLE_NAMES`'."""
    if concept == "id" and domain not in (None, "train"):
        return "attraction_id"
    return CONCEPT_TABLE_NAMES.get(concept, concept)


def unified_name(name: str) -> str | None:
    """The unified name of one bracket content under ``extended``, or None (deleted).

    >>> unified_name("hotel_ref"), unified_name("train-leaveat"), unified_name("db_3")
    ('REFERENCE', 'TIME', None)
    """
    return resolve(name).unified


def table_name(name: str) -> str | None:
    """A name of the reference table with the meaning the rule gives ``name`` — its
    ``<domain>_<slot>`` form when the table has it with that meaning, else the slot's own —
    or None when ``name`` is unknown (what ``--lexicalized`` writes for a bracketed name, so
    that ``reference`` reads it as ``extended`` would).

    >>> table_name("Restaurant_Phone_Number"), table_name("booking_ref"), table_name("hotel_id")
    ('restaurant_phone', 'reference', 'attraction_id')
    >>> table_name("hotel_name"), table_name("db_3") is None
    ('hotel_name', True)
    """
    r = resolve(name)
    low = name.strip().lower()
    if r.unified is None or low in SLOT_MAP:
        return low if r.unified else None
    own = _table_entry(r.concept, r.domain)
    prefixed = f"{r.domain}_{own}"
    return prefixed if SLOT_MAP.get(prefixed) == r.unified else own
