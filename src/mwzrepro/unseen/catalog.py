"""What MultiWOZ knows about named entities, and the resolution of one raw value to an entity
key (spec-unseen-entity-test-set §6.2).

:class:`EntityCatalog` holds the attraction, hotel and restaurant database names with their
aliases (spec-annotation-consistency §5.1) and the 13 train stations;
:meth:`EntityCatalog.resolve` maps a raw value to a :class:`Resolution` (family, canonical) by
the rules of §6.2.

>>> db = {"attraction": [{"name": "All Saints Church", "type": "architecture"}],
...       "hotel": [{"name": "The Gonville Hotel"}], "restaurant": [{"name": "Nandos"}],
...       "train": [{"departure": "Ely", "destination": "Cambridge"}]}
>>> cat = EntityCatalog.from_databases(db)
>>> cat.resolve("gonville hotel", "HOTEL").key
('HOTEL', 'the gonville hotel')
>>> cat.resolve("ely train station", "CITY")
Resolution(family='CITY', canonical='ely', suffix=('train', 'station'), matched=())
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from mwzrepro.core.venue_aliases import DEFAULT_SEED_ALIASES
from mwzrepro.core.errors import InputError
from mwzrepro.unseen.families import (
    DEFAULT_REFERENCE_PHRASES,
    DEFAULT_UNANNOTATED_EXCLUDE,
    DERIVED,
    FAMILIES,
)
from mwzrepro.unseen.text import index_patterns, is_empty_or_dontcare, norm, norm_words

__all__ = ["EntityCatalog", "Resolution", "DOMAIN_FAMILY"]

#: Database domain → family of its names.
DOMAIN_FAMILY = {"attraction": "ATTR", "hotel": "HOTEL", "restaurant": "REST"}
_STATION_SUFFIXES = (("train", "station"), ("station",))


@dataclass(frozen=True)
class Resolution:
    """An entity key plus the station suffix the raw value carried (``("train", "station")``
    for ``"ely train station"``, else ``()``) and, when only part of the raw value names the
    entity (``"leaving kings lynn"``), that part's N words in ``matched``."""

    family: str
    canonical: str
    suffix: tuple[str, ...] = ()
    matched: tuple[str, ...] = ()

    @property
    def key(self) -> tuple[str, str]:
        """``(family, canonical name)``: the entity's identity."""
        return (self.family, self.canonical)


@dataclass
class EntityCatalog:
    """Database names, aliases and stations, and the resolution rules of §6.2.

    Attributes:
        names: ``{family: sorted canonical database names}`` for ATTR, HOTEL, REST.
        aliases: ``{N words of an alias: sorted [(family, canonical)]}``.
        stations: the train stations (lowercase).
        attraction_types: ``{canonical attraction name: database type}``.
        reference_phrases: N words of taxi reference phrases that are not entities (§8.3).
        unannotated_exclude: N words of aliases not searched in unannotated text.
        fuzzy_threshold: ``entity_fuzzy_threshold`` (partial ratio, 0–100).
        closed_class: N forms (unpadded) of closed-class MultiWOZ values (areas, prices,
            types, days, numbers: members of the seen set from non-entity slots only). They
            never resolve to a database name by fuzzy matching ("guest house" is not "a and b
            guest house"), and values equal to them are not searched in free text. [design]
    """

    names: dict[str, list[str]]
    aliases: dict[tuple[str, ...], list[tuple[str, str]]]
    stations: tuple[str, ...]
    attraction_types: dict[str, str] = field(default_factory=dict)
    reference_phrases: frozenset[tuple[str, ...]] = frozenset()
    unannotated_exclude: frozenset[tuple[str, ...]] = frozenset()
    fuzzy_threshold: float = 90
    closed_class: frozenset[str] = frozenset()

    @classmethod
    def from_databases(
        cls,
        databases: Mapping[str, list[dict[str, Any]]],
        seed_aliases: Iterable[tuple[str, str, str]] = DEFAULT_SEED_ALIASES,
        reference_phrases: Iterable[str] = DEFAULT_REFERENCE_PHRASES,
        unannotated_exclude: Iterable[str] = DEFAULT_UNANNOTATED_EXCLUDE,
        fuzzy_threshold: float = 90,
        closed_class: Iterable[str] = (),
    ) -> EntityCatalog:
        """Build the catalog from MultiWOZ database records ``{domain: [record]}`` (at least
        ``attraction``, ``hotel``, ``restaurant`` and ``train``).

        Raises:
            InputError: a required database is missing (names the domain).
        """
        for dom in ("attraction", "hotel", "restaurant", "train"):
            if dom not in databases:
                raise InputError(f"database '{dom}' is required to resolve entities")
        names: dict[str, set[str]] = {f: set() for f in DOMAIN_FAMILY.values()}
        aliases: dict[tuple[str, ...], set[tuple[str, str]]] = {}
        types = {}

        def add_alias(alias: str, fam: str, canonical: str) -> None:
            words = norm_words(alias)
            if words:
                aliases.setdefault(words, set()).add((fam, canonical))

        for dom, fam in DOMAIN_FAMILY.items():
            for rec in databases[dom]:
                name = str(rec["name"]).lower().strip()
                names[fam].add(name)
                add_alias(name, fam, name)
                if name.startswith("the "):
                    rest = name[4:]
                    if len(rest.split()) >= 2 or len(rest) >= 6:
                        add_alias(rest, fam, name)
                if dom == "attraction" and rec.get("type"):
                    types[name] = str(rec["type"]).lower()
        for alias, canonical, dom in seed_aliases:
            add_alias(alias, DOMAIN_FAMILY[dom], canonical.lower())
        stations = sorted(
            {str(r[k]).lower() for r in databases["train"] for k in ("departure", "destination")}
        )
        return cls(
            names={f: sorted(v) for f, v in names.items()},
            aliases={k: sorted(v) for k, v in sorted(aliases.items())},
            stations=tuple(stations),
            attraction_types=types,
            reference_phrases=frozenset(norm_words(p) for p in reference_phrases),
            unannotated_exclude=frozenset(norm_words(p) for p in unannotated_exclude),
            fuzzy_threshold=fuzzy_threshold,
            closed_class=frozenset(norm(x).strip() for x in closed_class) - {""},
        )

    # -- resolution ------------------------------------------------------------------------

    def _choose(self, options: list[tuple[str, str]], hint: str | None) -> tuple[str, str]:
        return sorted(options, key=lambda fc: (fc[0] != hint, FAMILIES.index(fc[0]), fc[1]))[0]

    def _fuzzy_db(self, nv: str, hint: str | None) -> tuple[str, str] | None:
        from rapidfuzz import fuzz, process

        choices = self.__dict__.get("_fuzzy_choices")
        if choices is None:
            choices = [((fam, name), norm(name).strip())
                       for fam, names in self.names.items() for name in names]
            self.__dict__["_fuzzy_choices"] = choices
        hits = process.extract(nv, [c for _, c in choices], scorer=fuzz.partial_ratio,
                               score_cutoff=self.fuzzy_threshold - 0.5, limit=None)
        best = [(_round(score), choices[i][0]) for _, score, i in hits
                if _round(score) >= self.fuzzy_threshold]
        if not best:
            return None
        top = max(s for s, _ in best)
        return self._choose([fc for s, fc in best if s == top], hint)

    def _station(self, words: tuple[str, ...], role: str | None
                 ) -> tuple[str, tuple[str, ...], tuple[str, ...]] | None:
        from rapidfuzz import fuzz

        base, suffix = words, ()
        for suf in _STATION_SUFFIXES:
            if len(words) > len(suf) and words[-len(suf):] == suf:
                base, suffix = words[: -len(suf)], suf
                break
        text = " ".join(base)
        if text in self.stations:
            return text, suffix, ()
        if role == "CITY":
            # A train-slot value that contains exactly one station ("leaving kings lynn",
            # "depart bishops stortford") names that station. [design]
            padded = f" {text} "
            inside = [st for st in self.stations if f" {st} " in padded]
            inside = [st for st in inside if not any(st != o and st in o for o in inside)]
            if len(inside) == 1:
                return inside[0], suffix, tuple(inside[0].split())
        # Truncated station names ("kings lyn"): the value must be the shorter string. [design]
        if len(base) >= 2:
            hits = sorted(
                (-_round(fuzz.partial_ratio(text, st)), st)
                for st in self.stations
                if len(text) <= len(st) and _round(fuzz.partial_ratio(text, st))
                >= self.fuzzy_threshold
            )
            if hits:
                return hits[0][1], suffix, ()
        return None

    def resolve(self, value: str, role: str | None) -> Resolution | None:
        """Map a raw value to an entity key by §6.2.

        Args:
            value: the raw value as annotated.
            role: the family of the slot it came from, ``DERIVED`` for taxi and bus slots,
                ``"BOOKING"`` for booking acts, or None for text matches.

        Returns:
            the :class:`Resolution`, or None for ``dontcare``/empty values, taxi reference
            phrases ("the hotel"), and booking names that resolve to nothing.

        Rules, in order: (1) a database name of attraction, hotel or restaurant, by alias
        equality or, for values of at least 2 tokens, partial ratio ≥ ``fuzzy_threshold``
        (ties go to the slot's own family); (2) a train station, with an optional "train
        station"/"station" suffix kept aside; (3) the slot's own family with N(v) as canonical;
        (4) taxi and bus values: PLACE.
        """
        if is_empty_or_dontcare(value):
            return None
        return self._resolve_words(norm_words(value), role)

    def _resolve_words(self, words: tuple[str, ...], role: str | None) -> Resolution | None:
        if not words or words in self.reference_phrases:
            return None
        cache = self.__dict__.setdefault("_cache", {})
        ck = (words, role)
        if ck in cache:
            return cache[ck]
        hint = role if role in DOMAIN_FAMILY.values() else None
        res: Resolution | None = None
        if words in self.aliases:
            fam, canon = self._choose(self.aliases[words], hint)
            res = Resolution(fam, canon)
        elif (len(words) >= 2 and " ".join(words) not in self.closed_class
              and (hit := self._fuzzy_db(" ".join(words), hint)) is not None):
            res = Resolution(*hit)
        elif (st := self._station(words, role)) is not None:
            res = Resolution("CITY", st[0], st[1], st[2])
        elif role in (DERIVED,):
            res = Resolution("PLACE", " ".join(words))
        elif role in FAMILIES:
            res = Resolution(role, " ".join(words))
        cache[ck] = res
        return res

    def is_known(self, key: tuple[str, str]) -> bool:
        """True when ``(family, canonical)`` is a database name or, for CITY, a train
        station (not a value that only names itself)."""
        fam, canon = key
        if fam == "CITY":
            return canon in self.stations
        return canon in self.names.get(fam, ())

    def entity_variants(self, family: str, canonical: str) -> set[tuple[str, ...]]:
        """The catalog's own variants of an entity: its database name and every alias, or the
        station name (as N word tuples)."""
        if family == "CITY" and canonical in self.stations:
            return {norm_words(canonical)}
        if canonical not in self.names.get(family, ()):
            return set()
        out = {norm_words(canonical)}
        out |= {a for a, opts in self.aliases.items() if (family, canonical) in opts}
        return {v for v in out if v}

    def text_aliases(self) -> dict[tuple[str, ...], Resolution]:
        """Aliases and stations searched in unannotated text (§6.1 f): ``{N words: key}``."""
        cache = self.__dict__.get("_text_aliases")
        if cache is None:
            cache = {}
            for words, opts in self.aliases.items():
                if words in self.unannotated_exclude or words in self.reference_phrases:
                    continue
                fam, canon = self._choose(opts, None)
                cache[words] = Resolution(fam, canon)
            for st in self.stations:
                cache.setdefault(norm_words(st), Resolution("CITY", st))
            self.__dict__["_text_aliases"] = cache
        return cache

    def text_alias_index(self) -> dict[str, list[tuple[str, ...]]]:
        """:meth:`text_aliases` indexed by first word (for
        :func:`~mwzrepro.unseen.text.find_many`)."""
        if "_text_index" not in self.__dict__:
            self.__dict__["_text_index"] = index_patterns(self.text_aliases())
        return self.__dict__["_text_index"]


def _round(score: float) -> int:
    return int(score + 0.5)
