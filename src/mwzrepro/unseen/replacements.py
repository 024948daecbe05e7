"""Choosing replacements (spec-unseen-entity-test-set §4.3, §7): the admissible SGD
candidates per family (:class:`Pools`) and the keyed-hash choice of one candidate per entity,
per dialogue or globally (:func:`choose_replacements`).

>>> candidate_hash(0, "MUL0001", "REST", "nandos", "blue plate") == candidate_hash(
...     0, "MUL0001", "REST", "nandos", "blue plate")
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

import pandas as pd

from mwzrepro.core.errors import MwzreproError
from mwzrepro.unseen.catalog import EntityCatalog
from mwzrepro.unseen.families import ATTRACTION_CATEGORY_MATCH, FAMILIES
from mwzrepro.unseen.params import UnseenParams
from mwzrepro.unseen.plan import DialoguePlan, EntityKey
from mwzrepro.unseen.text import norm

__all__ = ["ExhaustedPoolError", "Candidate", "Pools", "candidate_hash",
           "choose_replacements"]


class ExhaustedPoolError(MwzreproError, ValueError):
    """No admissible candidate is left for an entity (§7 step 5); names dialogue and family."""


@dataclass(frozen=True)
class Candidate:
    """One admissible pool entry: family, key, surface, N(key) padded, SGD sources, categories."""

    family: str
    key: str
    surface: str
    nkey: str
    sources: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()

    @property
    def value(self) -> str:
        """The replacement *value* for structured fields (§8.5): lowercase surface."""
        return " ".join(self.surface.lower().split())


class Pools:
    """Admissible candidates per family, sorted by key (§4.3).

    Args:
        table: an ``unseen_pool`` table (rows with ``admissible`` false are ignored) or an
            ``sgd_pool`` table (every row is used).
    """

    def __init__(self, table: pd.DataFrame):
        if "admissible" in table:
            table = table[table["admissible"]]
        self.by_family: dict[str, list[Candidate]] = {}
        for row in table.sort_values(["family", "key"], kind="mergesort").itertuples(False):
            self.by_family.setdefault(row.family, []).append(
                Candidate(row.family, row.key, row.surface, norm(row.key),
                          tuple(row.sources), tuple(getattr(row, "categories", ()) or ()))
            )

    def get(self, family: str) -> list[Candidate]:
        """The admissible candidates of ``family`` (sorted by key; ``[]`` for none)."""
        return self.by_family.get(family, [])

    def sizes(self) -> dict[str, int]:
        """``{family: number of admissible candidates}``, sorted by family."""
        return {f: len(v) for f, v in sorted(self.by_family.items())}


def candidate_hash(seed: int | str, dialogue_id: str, family: str, canonical: str,
                   candidate_key: str) -> int:
    """H(c) of §7 step 3: the first 16 hex digits of SHA-256 of
    ``"{seed}|{dialogue_id}|{family}|{canonical}|{candidate_key}"`` (UTF-8), as an unsigned
    integer."""
    text = f"{seed}|{dialogue_id}|{family}|{canonical}|{candidate_key}"
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def _compatible_categories(plan_type: str, catalog: EntityCatalog, key: EntityKey) -> set[str]:
    atype = catalog.attraction_types.get(key[1], "") or plan_type
    atype = atype.lower().strip()
    if atype != "multiple sports":
        atype = atype.replace(" ", "")
    atype = {"theater": "theatre"}.get(atype, atype)
    return set(ATTRACTION_CATEGORY_MATCH.get(atype, ()))


def _pick(dialogue_id: str, key: EntityKey, pool: list[Candidate], seed: int,
          assigned: list[str], contexts: list[str], variants: list[str],
          categories: set[str]) -> Candidate | None:
    fam, canon = key
    prefix = hashlib.sha256(f"{seed}|{dialogue_id}|{fam}|{canon}|".encode())
    scored = []
    for c in pool:
        h = prefix.copy()
        h.update(c.key.encode("utf-8"))
        scored.append((int.from_bytes(h.digest()[:8], "big"), c.key, c))
    scored.sort(key=lambda t: (t[0], t[1]))
    for _, _, c in scored:
        nk = c.nkey
        if categories and not (categories & set(c.categories)):
            continue
        if any(a in nk or nk in a for a in assigned):
            continue
        if any(nk in ctx for ctx in contexts):
            continue
        if any(v in nk for v in variants):
            continue
        return c
    return None


def choose_replacements(plans: Iterable[DialoguePlan], pools: Pools, params: UnseenParams,
                        catalog: EntityCatalog) -> dict[str, dict[EntityKey, Candidate]]:
    """One candidate per entity (§7).

    Args:
        plans: the dialogues' :class:`DialoguePlan`.
        pools: admissible candidates.
        params: ``seed``, ``mapping_scope``, ``attraction_category_match``.
        catalog: for the database attraction types (category matching).

    Returns:
        ``{source id: {entity key: Candidate}}``.

    Raises:
        ExhaustedPoolError: no candidate is left (names the dialogue and the family).
    """
    plans = list(plans)
    out: dict[str, dict[EntityKey, Candidate]] = {}
    if params.mapping_scope == "dialogue":
        for plan in plans:
            variants = sorted({" " + " ".join(v) + " " for e in plan.entities.values()
                               for v in e.variants})
            chosen: dict[EntityKey, Candidate] = {}
            for key in plan.order:
                cats = (_compatible_categories(plan.attraction_type, catalog, key)
                        if params.attraction_category_match and key[0] == "ATTR" else set())
                c = _pick(plan.source_id, key, pools.get(key[0]), params.seed,
                          [x.nkey for x in chosen.values()], [plan.context], variants, cats)
                if c is None:
                    raise ExhaustedPoolError(
                        f"dialogue {plan.source_id}: no admissible {key[0]} candidate left for "
                        f"{key[1]!r} (pool size {len(pools.get(key[0]))})")
                chosen[key] = c
            out[plan.source_id] = chosen
        return out
    # global scope: one injective mapping per family over the whole split
    contexts: dict[EntityKey, list[str]] = {}
    variants: dict[EntityKey, set[str]] = {}
    atype: dict[EntityKey, str] = {}
    for plan in plans:
        dvars = {" " + " ".join(v) + " " for e in plan.entities.values() for v in e.variants}
        for key in plan.entities:
            contexts.setdefault(key, []).append(plan.context)
            variants.setdefault(key, set()).update(dvars)
            atype.setdefault(key, plan.attraction_type)
    global_map: dict[EntityKey, Candidate] = {}
    assigned_by_family: dict[str, list[str]] = {}
    for key in sorted(contexts, key=lambda k: (FAMILIES.index(k[0]), k[1])):
        cats = (_compatible_categories(atype[key], catalog, key)
                if params.attraction_category_match and key[0] == "ATTR" else set())
        c = _pick("*", key, pools.get(key[0]), params.seed,
                  assigned_by_family.setdefault(key[0], []), contexts[key],
                  sorted(variants[key]), cats)
        if c is None:
            raise ExhaustedPoolError(f"global mapping: no admissible {key[0]} candidate left "
                                     f"for {key[1]!r}")
        global_map[key] = c
        assigned_by_family[key[0]].append(c.nkey)
    for plan in plans:
        out[plan.source_id] = {k: global_map[k] for k in plan.order}
    return out
