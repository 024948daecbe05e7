"""The value lexicon of lexicalized-response delexicalization (:mod:`.delexicalize_responses`): every
surface phrase of the venue database that stands for a slot, built once per database and
matched token by token.

Phrases and their span-style slot names (the MultiWOZ 2.2 names of the span references,
spec-standard-evaluation §5.4):

* ``name``: the names of the restaurant, hotel and attraction entities, plus the hospital and
  police station; with the variants writers use — without a leading ``the``; without a
  trailing ``hotel``/``restaurant``/``guest house``/``guesthouse``/``b and b``/``bed and
  breakfast`` (when at least two words remain); ``bed and breakfast`` ↔ ``b and b`` ↔
  ``b & b``; ``guest house`` ↔ ``guesthouse``. A variant that is one common English word
  (:data:`COMMON_WORD_NAMES`) matches only when written with a capital letter.
* ``address``: entity addresses, each comma-separated part of at least two words on its
  own too, with ``road``↔``rd`` and ``street``↔``st``;
* ``food`` (restaurant foods), ``type`` (hotel and attraction types, singular and plural,
  and taxi cars such as ``yellow ford``), ``area``, ``pricerange``, ``day``;
* ``station``: train departure/destination values (which side is decided by the words
  before the phrase, :mod:`.delexicalize_responses`).

Tokens (:func:`tokens`) are lowercase runs of letters/digits or single other characters;
``&`` reads as ``and`` and ``center`` as ``centre``, so ``christ's`` and ``christ 's``, ``b&b``
and ``b & b`` match alike.

>>> lex = ValueLexicon.from_entities({"restaurant": [{"name": "the golden curry",
...     "address": "mill road city centre", "food": "indian"}]})
>>> text = "Golden Curry serves Indian food"
>>> [(text[s:e], slot) for s, e, slot in lex.find(text)]
[('Golden Curry', 'name'), ('Indian', 'food')]
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ValueLexicon", "Token", "tokens", "COMMON_WORD_NAMES", "STATIONS", "name_variants",
           "FUZZY_NAME_CUTOFF"]

#: One token: normalized text, start and end character offsets in the source string.
Token = tuple[str, int, int]

_TOKEN_RE = re.compile(r"[a-z0-9]+|[^\sa-z0-9]", re.IGNORECASE)
_TOKEN_FORMS = {"&": "and", "center": "centre", "theater": "theatre"}

#: rapidfuzz score (0–100) from which a written text (a name span, a bracketed text, a state
#: name) counts as a venue name (:mod:`.delexicalize_responses`).
FUZZY_NAME_CUTOFF = 90
#: Entries of :meth:`ValueLexicon.closest_name_form`'s memo (cleared when full).
_MEMO_SIZE = 1 << 15

#: Name variants that are ordinary words: matched only when capitalized in the response.
COMMON_WORD_NAMES = frozenset({"ask", "one", "place", "junction", "gallery"})

#: Areas: the words alone (``[area] of town`` stays as the systems write it).
_AREAS = ("north", "south", "east", "west", "centre", "city centre", "town centre")
_PRICE_RANGES = ("cheap", "moderate", "moderately priced", "moderately", "expensive",
                 "inexpensive", "cheaply priced")
_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_CAR_COLOURS = ("black", "white", "red", "yellow", "blue", "grey")
_CAR_BRANDS = ("toyota", "skoda", "bmw", "honda", "ford", "audi", "lexus", "volvo",
               "volkswagen", "tesla")
#: The hospital's and the police station's facts ``{domain: {field: value}}`` (no database
#: file in the evaluation resources); their names and addresses are in the lexicon, and
#: :mod:`.relexicalize` fills placeholders of these domains from them.
STATIONS = {"police": {"name": "parkside police station", "address": "parkside, cambridge",
                       "phone": "01223358966", "postcode": "cb11jg"},
            "hospital": {"name": "addenbrookes hospital", "address": "hills rd, cambridge",
                         "phone": "01223245151", "postcode": "cb20qq"}}
_SUFFIXES = ("hotel", "restaurant", "guest house", "guesthouse", "b and b", "bed and breakfast",
             "restaurant and bar", "and bar", "bar")
_SWAPS = (("bed and breakfast", "b and b"), ("b and b", "bed and breakfast"),
          ("guest house", "guesthouse"), ("guesthouse", "guest house"))
_ADDRESS_SWAPS = ((" road", " rd"), (" rd", " road"), (" street", " st"), (" st", " street"))
_TYPE_WORDS = {"swimmingpool": "swimming pool", "concerthall": "concert hall",
               "nightclub": "nightclub", "mutliple sports": "multiple sports"}


def tokens(text: str) -> list[Token]:
    """Normalized tokens of ``text`` with their character offsets.

    >>> [t for t, _, _ in tokens("Christ's B&B, city center")]
    ['christ', "'", 's', 'b', 'and', 'b', ',', 'city', 'centre']
    """
    out = []
    for m in _TOKEN_RE.finditer(text):
        t = m.group().lower()
        out.append((_TOKEN_FORMS.get(t, t), m.start(), m.end()))
    return out


def _key(phrase: str) -> tuple[str, ...]:
    return tuple(t for t, _, _ in tokens(phrase))


def name_variants(name: str) -> list[str]:
    """The written forms of a venue name (module docstring).

    >>> name_variants("the lensfield hotel")
    ['the lensfield hotel', 'lensfield hotel', 'the lensfield', 'lensfield']
    """
    name = " ".join(name.lower().split())
    out = [name]
    for old, new in _SWAPS:
        if old in name:
            out.append(name.replace(old, new))
    for v in list(out):
        if v.startswith("the ") and len(v.split()) > 1:
            out.append(v[4:])
    for v in list(out):
        for suffix in _SUFFIXES:
            core = v[: -len(suffix)].strip() if v.endswith(" " + suffix) else ""
            bare = core[4:] if core.startswith("the ") else core
            if bare and (len(bare.split()) >= 2 or len(bare) >= 4
                         or bare in COMMON_WORD_NAMES):
                out.append(core)
    return list(dict.fromkeys(out))


def _plural(word: str) -> str:
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    return word[:-1] + "ies" if word.endswith("y") and word[-2:-1] not in "aeiou" else word + "s"


@dataclass
class ValueLexicon:
    """Phrase → slot lexicon with a first-token index (phrases longest first).

    Attributes:
        phrases: ``{token tuple: slot}``.
        capitalized: phrases that must start with a capital letter to match.
        name_entities: ``{token tuple of a name form: ((domain, entity id), ...)}``: the
            venues a written name stands for (entity linking, :meth:`entities_of_name`); the
            police and hospital stations have their name as id.
        train_ids: the database's train ids, upper-case (``TR7075``).
    """

    phrases: dict[tuple[str, ...], str] = field(default_factory=dict)
    capitalized: set[tuple[str, ...]] = field(default_factory=set)
    name_entities: dict[tuple[str, ...], tuple[tuple[str, str], ...]] = field(
        default_factory=dict, repr=False)
    train_ids: frozenset[str] = field(default_factory=frozenset, repr=False)
    _index: dict[str, list[tuple[str, ...]]] = field(default_factory=dict, repr=False)
    _name_forms: list[str] = field(default_factory=list, repr=False)
    _closest: dict[str, str | None] = field(default_factory=dict, repr=False, compare=False)

    def add(self, phrase: str, slot: str, overwrite: bool = False) -> None:
        """Add one phrase (an existing phrase keeps its slot unless ``overwrite``)."""
        key = _key(phrase)
        if key and (overwrite or key not in self.phrases):
            self.phrases[key] = slot
            self._index.clear()
            self._name_forms.clear()
            self._closest.clear()

    @classmethod
    def from_entities(cls, databases: Mapping[str, Sequence[Mapping[str, Any]]]
                      ) -> ValueLexicon:
        """The lexicon of raw database entities ``{domain: [entity, ...]}`` (the files of
        spec-standard-evaluation §5.1; any subset of restaurant, hotel, attraction, train)."""
        lex = cls()
        for domain, station in STATIONS.items():  # "hills rd, cambridge" gives "hills road"
            lex._add_value("name", station["name"], domain, station["name"])
            lex._add_value("address", station["address"])
        for domain in ("restaurant", "hotel", "attraction"):
            for entity in databases.get(domain, ()):
                for key, value in entity.items():
                    if isinstance(value, str) and value != "?":
                        lex._add_value(key.replace(" ", ""), value, domain,
                                       str(entity.get("id", "")))
        for entity in databases.get("train", ()):
            for key in ("departure", "destination"):
                lex.add(entity[key], "station")
        lex.train_ids = frozenset(str(e.get("trainID", e.get("trainid", ""))).upper()
                                  for e in databases.get("train", ()))
        for value in _AREAS:
            lex.add(value, "area")
        for value in _PRICE_RANGES:
            lex.add(value, "pricerange")
        for value in _DAYS:
            lex.add(value, "day")
            lex.add(value + "s", "day")
        for colour in _CAR_COLOURS:
            for brand in _CAR_BRANDS:
                lex.add(f"{colour} {brand}", "type")
        return lex

    def entities_of_name(self, text: str) -> tuple[tuple[str, str], ...]:
        """The venues ``((domain, entity id), ...)`` a written name stands for: its written
        form exactly (tokens, :func:`tokens`), else :meth:`closest_name_form`'s; ``()`` when
        none (an unknown venue).

        >>> lex = ValueLexicon.from_entities({"hotel": [{"id": "7", "name": "the lensfield hotel"}]})
        >>> lex.entities_of_name("Lensfield Hotel"), lex.entities_of_name("lensfeld hotel")
        ((('hotel', '7'),), (('hotel', '7'),))
        >>> lex.entities_of_name("the grand budapest")
        ()
        """
        key = _key(text)
        if key in self.name_entities:
            return self.name_entities[key]
        best = self.closest_name_form(" ".join(key))
        return () if best is None else self.name_entities.get(tuple(best.split()), ())

    def closest_name_form(self, key: str) -> str | None:
        """The written venue-name form (:attr:`name_forms`) closest to ``key`` (tokens joined
        by spaces) with ``rapidfuzz`` ``ratio`` ≥ :data:`FUZZY_NAME_CUTOFF`, None when none;
        memoized per lexicon.

        >>> lex = ValueLexicon.from_entities({"hotel": [{"name": "the lensfield hotel"}]})
        >>> lex.closest_name_form("lensfeld hotel"), lex.closest_name_form("the grand budapest")
        ('lensfield hotel', None)
        """
        if key in self._closest:
            return self._closest[key]
        from rapidfuzz import fuzz, process

        best = process.extractOne(key, self.name_forms, scorer=fuzz.ratio,
                                  score_cutoff=FUZZY_NAME_CUTOFF)
        form = None if best is None else best[0]
        if len(self._closest) >= _MEMO_SIZE:
            self._closest.clear()
        self._closest[key] = form
        return form

    def _add_value(self, slot: str, value: str, domain: str = "", entity: str = "") -> None:
        """Add the phrases of one database value; a name is also linked to ``(domain,
        entity)`` (:attr:`name_entities`)."""
        value = " ".join(value.lower().split())
        if slot == "name":
            ref = (domain, entity)
            for v in name_variants(value):
                self.add(v, "name", overwrite=True)
                key = _key(v)
                if v in COMMON_WORD_NAMES:
                    self.capitalized.add(key)
                refs = self.name_entities.get(key, ())
                if ref not in refs:
                    self.name_entities[key] = refs + (ref,)
        elif slot == "address":
            parts = [value] + [p.strip() for p in value.split(",") if len(p.split()) >= 2]
            for part in parts:
                self.add(part, "address")
                for old, new in _ADDRESS_SWAPS:
                    if re.search(re.escape(old) + r"\b", part):
                        self.add(re.sub(re.escape(old) + r"\b", new, part), "address")
        elif slot == "food":
            self.add(value, "food")
        elif slot == "type" and domain in ("hotel", "attraction"):
            word = _TYPE_WORDS.get(value, value)
            for form in {value, word, _plural(word), word.replace(" ", "")}:
                self.add(form, "type")
            if word == "guesthouse":
                self.add("guest house", "type")
                self.add("guest houses", "type")

    @property
    def name_forms(self) -> list[str]:
        """Every written form of a venue name, tokens joined by spaces (fuzzy matching)."""
        if not self._name_forms:
            self._name_forms = sorted(" ".join(k) for k, v in self.phrases.items()
                                      if v == "name")
        return self._name_forms

    @property
    def index(self) -> dict[str, list[tuple[str, ...]]]:
        """``{first token: [phrases, longest first]}`` (built on first use)."""
        if not self._index:
            for key in sorted(self.phrases, key=lambda k: (-len(k), k)):
                self._index.setdefault(key[0], []).append(key)
        return self._index

    def find(self, text: str, extra: Mapping[tuple[str, ...], str] | None = None,
             toks: Sequence[Token] | None = None) -> list[tuple[int, int, str]]:
        """Leftmost-longest phrase matches ``(start, end, slot)`` in ``text``, not
        overlapping; ``extra`` phrases (e.g. the turn's state values) take precedence over
        the lexicon's at equal length."""
        toks = tokens(text) if toks is None else toks
        words = [t for t, _, _ in toks]
        index = self.index
        extra_index: dict[str, list[tuple[str, ...]]] = {}
        for key in sorted(extra or {}, key=lambda k: (-len(k), k)):
            extra_index.setdefault(key[0], []).append(key)
        out: list[tuple[int, int, str]] = []
        i = 0
        while i < len(words):
            best: tuple[int, str] | None = None
            for source, table in ((extra_index, extra or {}), (index, self.phrases)):
                for key in source.get(words[i], ()):
                    n = len(key)
                    if (best is None or n > best[0]) and tuple(words[i:i + n]) == key \
                            and (key not in self.capitalized
                                 or text[toks[i][1]].isupper()):
                        best = (n, table[key])
                        break
            if best is None:
                i += 1
                continue
            n, slot = best
            out.append((toks[i][1], toks[i + n - 1][2], slot))
            i += n
        return out
