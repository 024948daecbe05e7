"""Entities of a test dialogue: raw occurrences and their canonical keys
(spec-unseen-entity-test-set §6).

:class:`EntityCatalog` holds what MultiWOZ knows about named entities: the attraction, hotel and
restaurant database names with their aliases (spec-annotation-consistency §5.1) and the 13
train stations. :meth:`EntityCatalog.resolve` maps one raw value to an entity key
(family, canonical) by the rules of §6.2. :func:`collect_entities` gathers every raw occurrence of
a dialogue in the ConvLab 2.0/2.1 layout (states, acts, spans, goal, ``booked`` names, and
database names mentioned in text) and groups them into :class:`Entity` objects with their
variants.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from mwzrepro.consistency.params import DEFAULT_SEED_ALIASES
from mwzrepro.unseen.families import (
    ACT_SLOT_ROLES,
    BOOKED_ROLES,
    DERIVED,
    FAMILIES,
    GOAL_SLOT_ROLES,
    STATE_SLOT_ROLES,
)
from mwzrepro.unseen.text import (
    find_many,
    index_patterns,
    is_empty_or_dontcare,
    norm,
    norm_words,
    view,
)

__all__ = [
    "DEFAULT_SEED_ALIASES",
    "DEFAULT_UNANNOTATED_EXCLUDE",
    "EntityCatalog",
    "Resolution",
    "Entity",
    "Occurrence",
    "collect_entities",
    "state_role",
    "act_role",
]

#: Database names that are not searched in unannotated text (§6.1 f) because they are also
#: ordinary phrases ("what is the address of the place ?"). [design]
DEFAULT_UNANNOTATED_EXCLUDE: tuple[str, ...] = ("the place",)

_DOMAIN_FAMILY = {"attraction": "ATTR", "hotel": "HOTEL", "restaurant": "REST"}
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
        reference_phrases: Iterable[str] = ("the hotel", "the restaurant"),
        unannotated_exclude: Iterable[str] = DEFAULT_UNANNOTATED_EXCLUDE,
        fuzzy_threshold: float = 90,
        closed_class: Iterable[str] = (),
    ) -> EntityCatalog:
        """Build the catalog from MultiWOZ database records ``{domain: [record]}`` (at least
        ``attraction``, ``hotel``, ``restaurant`` and ``train``).

        Raises:
            KeyError: a required database is missing (names the domain).
        """
        for dom in ("attraction", "hotel", "restaurant", "train"):
            if dom not in databases:
                raise KeyError(f"database '{dom}' is required to resolve entities")
        names: dict[str, set[str]] = {f: set() for f in _DOMAIN_FAMILY.values()}
        aliases: dict[tuple[str, ...], set[tuple[str, str]]] = {}
        types = {}

        def add_alias(alias: str, fam: str, canonical: str) -> None:
            words = norm_words(alias)
            if words:
                aliases.setdefault(words, set()).add((fam, canonical))

        for dom, fam in _DOMAIN_FAMILY.items():
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
            add_alias(alias, _DOMAIN_FAMILY[dom], canonical.lower())
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
        hint = role if role in _DOMAIN_FAMILY.values() else None
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


def state_role(domain: str, slot: str, replace_attraction_type: bool) -> str | None:
    """Role of a 2.0/2.1 metadata slot (``semi`` names such as ``departure``)."""
    if replace_attraction_type and (domain, slot) == ("attraction", "type"):
        return "ATYPE"
    return STATE_SLOT_ROLES.get((domain, slot))


def act_role(act: str, slot: str, replace_attraction_type: bool) -> str | None:
    """Role of a 2.0/2.1 dialogue-act slot (``("Train-Inform", "Depart")`` → ``"CITY"``)."""
    domain = act.split("-", 1)[0].lower()
    s = slot.lower()
    if replace_attraction_type and (domain, s) == ("attraction", "type"):
        return "ATYPE"
    return ACT_SLOT_ROLES.get((domain, s))


def goal_role(domain: str, slot: str, replace_attraction_type: bool) -> str | None:
    """Role of a goal slot (``("train", "departure")`` → ``"CITY"``)."""
    if replace_attraction_type and (domain, slot.lower()) == ("attraction", "type"):
        return "ATYPE"
    return GOAL_SLOT_ROLES.get((domain, slot.lower()))


@dataclass
class Occurrence:
    """One raw value of a replaced slot in a dialogue.

    Attributes:
        source: ``state``, ``act``, ``span``, ``goal``, ``booked`` or ``text``.
        raw: the value as written.
        role: family or DERIVED/BOOKING of the slot; None for text matches.
        turn_id: log position (None for the goal).
    """

    source: str
    raw: str
    role: str | None
    turn_id: int | None


@dataclass
class Entity:
    """An entity of one dialogue (§6.2).

    Attributes:
        family, canonical: the key.
        raws: ``Counter(raw value)`` over all occurrences.
        sources: ``Counter(occurrence source)``.
        variants: N word tuples used to find mentions (raw values without station suffix,
            database name, aliases).
    """

    family: str
    canonical: str
    raws: Counter[str] = field(default_factory=Counter)
    sources: Counter[str] = field(default_factory=Counter)
    variants: set[tuple[str, ...]] = field(default_factory=set)

    @property
    def key(self) -> tuple[str, str]:
        return (self.family, self.canonical)


def iter_occurrences(dialogue: Mapping[str, Any], catalog: EntityCatalog,
                     replace_attraction_type: bool = False,
                     replace_unannotated_mentions: bool = True) -> Iterable[Occurrence]:
    """Every raw occurrence of §6.1 (a)–(f) in a ConvLab-layout dialogue, in log order, then the
    goal. Text matches (f) are maximal database-alias or station matches in utterances."""
    log = dialogue.get("log") or []
    index = catalog.text_alias_index() if replace_unannotated_mentions else {}
    for turn_id, entry in enumerate(log):
        for dom, parts in (entry.get("metadata") or {}).items():
            if not isinstance(parts, dict):
                continue
            for slot, value in (parts.get("semi") or {}).items():
                role = state_role(dom, slot.lower(), replace_attraction_type)
                if role and isinstance(value, str):
                    for v in value.split("|"):
                        yield Occurrence("state", v, role, turn_id)
            for b in (parts.get("book") or {}).get("booked") or []:
                fam = BOOKED_ROLES.get(dom)
                if fam and isinstance(b, dict) and isinstance(b.get("name"), str):
                    yield Occurrence("booked", b["name"], fam, turn_id)
        for act, pairs in (entry.get("dialog_act") or {}).items():
            for pair in pairs:
                if isinstance(pair, list) and len(pair) >= 2:
                    role = act_role(act, str(pair[0]), replace_attraction_type)
                    if role and isinstance(pair[1], str):
                        yield Occurrence("act", pair[1], role, turn_id)
        for span in entry.get("span_info") or []:
            if len(span) == 5:
                role = act_role(span[0], str(span[1]), replace_attraction_type)
                if role and isinstance(span[2], str):
                    yield Occurrence("span", span[2], role, turn_id)
        if index:
            for words in _maximal_alias_matches(view(entry.get("text", "")), index):
                yield Occurrence("text", " ".join(words), None, turn_id)
    goal = dialogue.get("goal") or {}
    for dom, parts in goal.items():
        if not isinstance(parts, dict):
            continue
        for kind in ("info", "fail_info", "book", "fail_book"):
            for slot, value in (parts.get(kind) or {}).items():
                role = goal_role(dom, slot, replace_attraction_type)
                if role and isinstance(value, str):
                    yield Occurrence("goal", value, role, None)


def _maximal_alias_matches(words, index) -> list[tuple[str, ...]]:
    hits = find_many(words, index)
    out = []
    for i, j, alias in hits:
        if not any(a <= i and j <= b and (a, b) != (i, j) for a, b, _ in hits):
            out.append(alias)
    return out


def _names_another(words: tuple[str, ...], key: tuple[str, str], catalog: EntityCatalog
                   ) -> bool:
    """True when a raw value also contains the database name of another attraction, hotel or
    restaurant ("jesus green outdoor pool and kings hedges learner pool"); such a value is not
    used as a variant, so that each entity's own mention is replaced separately. Town names
    inside a value ("cambridge college") do not count. [design]"""
    from mwzrepro.unseen.text import Word

    fake = [Word(w, i, i + 1, i) for i, w in enumerate(words)]
    aliases = catalog.text_aliases()
    hits = find_many(fake, catalog.text_alias_index())
    for i, j, pattern in hits:
        if any(a <= i and j <= b and (a, b) != (i, j) for a, b, _ in hits):
            continue  # inside a longer name ("cambridge" in "cambridge belfry")
        other = aliases[pattern]
        if pattern != words and other.key != key and other.family in ("ATTR", "HOTEL", "REST"):
            return True
    return False


def collect_entities(dialogue: Mapping[str, Any], catalog: EntityCatalog,
                     families: Iterable[str], replace_attraction_type: bool = False,
                     replace_unannotated_mentions: bool = True
                     ) -> tuple[dict[tuple[str, str], Entity], list[dict[str, Any]]]:
    """Group a dialogue's raw occurrences into entities (§6.1, §6.2).

    Args:
        dialogue: one ConvLab-layout dialogue (``{"goal": ..., "log": [...]}``).
        catalog: the :class:`EntityCatalog`.
        families: the enabled families (``replaced_families``); occurrences resolving to
            another family are not entities.
        replace_attraction_type: include attraction-type values (family ATYPE).
        replace_unannotated_mentions: include database names found in text (§6.1 f).

    Returns:
        ``(entities, unresolved)``: ``{(family, canonical): Entity}`` and a list of
        occurrences that resolve to no entity although their slot is replaced (booking names
        that name no database entity), each ``{"source", "raw", "turn_id"}``.
    """
    enabled = set(families) | ({"ATYPE"} if replace_attraction_type else set())
    entities: dict[tuple[str, str], Entity] = {}
    pending_booking: list[Occurrence] = []
    text_aliases = catalog.text_aliases()
    for occ in iter_occurrences(dialogue, catalog, replace_attraction_type,
                                replace_unannotated_mentions):
        if is_empty_or_dontcare(occ.raw):
            continue
        if occ.source == "text":
            res = text_aliases.get(tuple(occ.raw.split()))
        else:
            res = catalog.resolve(occ.raw, occ.role)
        if res is None:
            if occ.role == "BOOKING":
                pending_booking.append(occ)
            continue
        if res.family not in enabled:
            continue
        ent = entities.get(res.key)
        if ent is None:
            ent = entities[res.key] = Entity(res.family, res.canonical)
            ent.variants |= catalog.entity_variants(res.family, res.canonical)
        ent.raws[occ.raw] += 1
        ent.sources[occ.source] += 1
        words = res.matched or norm_words(occ.raw)
        if res.suffix and words[-len(res.suffix):] == res.suffix:
            words = words[: -len(res.suffix)]
        if words and not _names_another(words, res.key, catalog):
            ent.variants.add(words)
    unresolved = []
    for occ in pending_booking:
        words = norm_words(occ.raw)
        owner = [e for e in entities.values() if words in e.variants]
        if owner:
            owner[0].raws[occ.raw] += 1
            owner[0].sources[occ.source] += 1
        else:
            unresolved.append({"source": occ.source, "raw": occ.raw, "turn_id": occ.turn_id})
    return entities, unresolved
