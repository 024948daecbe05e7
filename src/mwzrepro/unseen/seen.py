"""The MultiWOZ seen set S and the unseen test U1–U3 (spec-unseen-entity-test-set §5, §4.3).

S is the set of N-normalised strings (spec-annotation-consistency §4.2) of:

1. every state value of the MultiWOZ training split, all alternatives (only when the training
   split is available; :func:`build_seen_set` records whether it was);
2. every value of the MultiWOZ 2.1 ontology;
3. the name, food, department, type, area, departure and destination fields of every MultiWOZ
   database file;
4. every ``possible_values`` entry of the MultiWOZ 2.2 schema;
5. every state value of the base test set.

Each member remembers the families of the MultiWOZ slots it came from
(:data:`~mwzrepro.unseen.families.SEEN_SLOT_FAMILY`), for the same-family containment test U2.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from mwzrepro.unseen.families import SEEN_SLOT_FAMILY
from mwzrepro.unseen.text import norm

__all__ = [
    "SeenSet",
    "SeenEntry",
    "entries_from_ontology",
    "entries_from_databases",
    "entries_from_schema22",
    "entries_from_states",
    "build_seen_set",
    "filter_pool",
    "pool_sizes",
    "closed_class_values",
]

#: (source label, MultiWOZ domain, slot, value).
SeenEntry = tuple[str, str, str, str]

#: Database fields that enter S (§5 item 3).
DB_FIELDS = ("name", "food", "department", "type", "area", "departure", "destination")


def _slot_family(domain: str, slot: str) -> str:
    return SEEN_SLOT_FAMILY.get((domain.lower(), slot.lower().replace(" ", "")), "")


@dataclass
class SeenSet:
    """S with per-member families, and the normalised training text for U3.

    Attributes:
        members: ``{N(value) without padding: set of families ('' = no entity family)}``.
        counts: ``{source label: number of distinct members it contributed}``.
        training_split: True when item 1 (training states) was included.
        training_text: N-normalised training utterances joined by `` | `` (padded), or None
            when U3 does not apply.
    """

    members: dict[str, set[str]] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    training_split: bool = False
    training_text: str | None = None

    def __contains__(self, value: str) -> bool:
        return norm(value).strip() in self.members

    def family_members(self, family: str) -> list[str]:
        """Members from slots of ``family`` with at least 2 tokens or 6 characters (U2)."""
        cache = self.__dict__.setdefault("_fam_cache", {})
        if family not in cache:
            cache[family] = sorted(
                m for m, fams in self.members.items()
                if family in fams and (len(m.split()) >= 2 or len(m) >= 6)
            )
        return cache[family]

    def check(self, candidate: str, family: str, containment: bool = True) -> str:
        """The unseen test of §5 for one candidate key of ``family``.

        Returns:
            ``""`` when the candidate is unseen; else the first failed test with the member
            involved, e.g. ``"U1"``, ``"U2: contains 'cambridge'"``, ``"U3"``.
        """
        nk = norm(candidate).strip()
        if not nk or nk in self.members:
            return "U1"
        if containment:
            padded = f" {nk} "
            for m in self.family_members(family):
                pm = f" {m} "
                if pm in padded:
                    return f"U2: contains {m!r}"
                if padded in pm:
                    return f"U2: contained in {m!r}"
        if self.training_text is not None and f" {nk} " in self.training_text:
            return "U3"
        return ""


def entries_from_ontology(ontology: Mapping[str, list[str]], label: str = "ontology"
                          ) -> Iterable[SeenEntry]:
    """S item 2: ``{"domain-slot": [values]}`` (the 2.1 ``ontology.json``)."""
    for name, values in ontology.items():
        domain, _, slot = name.partition("-")
        for value in values:
            yield label, domain, slot, value


def entries_from_databases(databases: Mapping[str, list[dict[str, Any]]],
                           label: str = "databases") -> Iterable[SeenEntry]:
    """S item 3: ``{domain: [records]}``; the fields of :data:`DB_FIELDS` that are strings."""
    for domain, records in databases.items():
        for rec in records if isinstance(records, list) else []:
            for fld in DB_FIELDS:
                value = rec.get(fld) if isinstance(rec, dict) else None
                if isinstance(value, str):
                    yield label, domain, fld, value


def entries_from_schema22(schema: list[dict[str, Any]], label: str = "schema22"
                          ) -> Iterable[SeenEntry]:
    """S item 4: every ``possible_values`` entry of the MultiWOZ 2.2 ``schema.json``."""
    for service in schema:
        for slot in service.get("slots", []):
            domain, _, name = slot.get("name", "").partition("-")
            for value in slot.get("possible_values") or []:
                yield label, domain, name, value


def entries_from_states(states: pd.DataFrame, label: str) -> Iterable[SeenEntry]:
    """S items 1 and 5: every alternative of every row of a canonical ``states`` table."""
    for domain, slot, value, alts in zip(states["domain"], states["slot"], states["value"],
                                         states["alternatives"]):
        for v in (list(alts) if alts is not None else []) or [value]:
            yield label, domain, slot, v


def build_seen_set(entries: Iterable[SeenEntry], training_split: bool = False,
                   training_utterances: Iterable[str] | None = None) -> SeenSet:
    """Build S from ``(source, domain, slot, value)`` entries.

    Values are split at ``|`` (the 2.1 ``"a|b"`` form), N-normalised and kept when non-empty.

    Args:
        entries: from the ``entries_from_*`` helpers.
        training_split: whether the entries include the training states (item 1); recorded
            so reports can say that the training split was unavailable.
        training_utterances: training-split utterances for U3; None when unavailable (U3 then
            does not apply).
    """
    members: dict[str, set[str]] = defaultdict(set)
    per_source: dict[str, set[str]] = defaultdict(set)
    for source, domain, slot, value in entries:
        if not isinstance(value, str):
            continue
        for part in value.split("|"):
            n = norm(part).strip()
            if not n:
                continue
            members[n].add(_slot_family(domain, slot))
            per_source[source].add(n)
    text = None
    if training_utterances is not None:
        text = " | ".join(norm(u) for u in training_utterances) + " "
    return SeenSet(members=dict(members),
                   counts={k: len(v) for k, v in sorted(per_source.items())},
                   training_split=training_split, training_text=text)


def filter_pool(pool: pd.DataFrame, seen: SeenSet, containment: bool = True) -> pd.DataFrame:
    """Apply the unseen test to every pool candidate (§4.3).

    Args:
        pool: an ``sgd_pool`` table.
        seen: S.
        containment: ``unseen_containment`` (U2 on or off).

    Returns:
        the ``unseen_pool`` table: the pool's columns plus ``admissible`` (bool) and
        ``reason`` (the failed test, ``""`` when admissible), sorted by family and key.
    """
    out = pool.copy()
    reasons = [seen.check(k, f, containment) for f, k in zip(out["family"], out["key"])]
    out["admissible"] = [not r for r in reasons]
    out["reason"] = reasons
    return out.sort_values(["family", "key"], kind="mergesort").reset_index(drop=True)


def closed_class_values(seen: SeenSet, enabled_families: Iterable[str]) -> set[str]:
    """Members of S that some source gives as a value of a non-entity slot (area, price,
    type, days, numbers, or a family that is not replaced, such as attraction-type by default):
    ``moderate``, ``guest house``, ``college``, ``restaurant``. [design] Used by
    :class:`~mwzrepro.unseen.catalog.EntityCatalog` so that such values never resolve to a
    database name by fuzzy matching and are not searched in free text."""
    enabled = set(enabled_families)
    return {m for m, fams in seen.members.items() if any(f not in enabled for f in fams)}


def pool_sizes(pool: pd.DataFrame) -> dict[str, int]:
    """``{family: admissible candidates}`` of an ``unseen_pool`` table."""
    sub = pool[pool["admissible"]]
    return dict(sorted(Counter(sub["family"]).items()))
