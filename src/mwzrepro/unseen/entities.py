"""Entities of a test dialogue: raw occurrences and their canonical keys
(spec-unseen-entity-test-set §6.1–6.2).

:func:`collect_entities` gathers every raw occurrence of a dialogue in the ConvLab 2.0/2.1
layout (states, acts, spans, goal, ``booked`` names, and database names mentioned in text),
resolves each with :class:`~mwzrepro.unseen.catalog.EntityCatalog` and groups them into
:class:`Entity` objects with their variants. :func:`state_role`, :func:`act_role` and
:func:`goal_role` give the family (role) of a slot.

>>> act_role("Train-Inform", "Depart", False), state_role("attraction", "type", True)
('CITY', 'ATYPE')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from mwzrepro.unseen.catalog import EntityCatalog
from mwzrepro.unseen.families import (
    ACT_SLOT_ROLES,
    BOOKED_ROLES,
    GOAL_SLOT_ROLES,
    STATE_SLOT_ROLES,
)
from mwzrepro.unseen.text import find_many, is_empty_or_dontcare, norm_words, view

__all__ = [
    "Entity",
    "Occurrence",
    "iter_occurrences",
    "collect_entities",
    "state_role",
    "act_role",
    "goal_role",
]


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
        """``(family, canonical name)``: the entity's identity."""
        return (self.family, self.canonical)

    def absorb(self, other: Entity) -> None:
        """Merge ``other`` into this entity: its raw values, sources and variants are added
        (:mod:`.plan` merges an entity into the one that owns it)."""
        self.raws.update(other.raws)
        self.sources.update(other.sources)
        self.variants |= other.variants


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
