"""Building the unseen-entity test set (spec-unseen-entity-test-set §6–§8).

Three steps, each a function:

1. :func:`plan_dialogue` — a dialogue's entities (§6), their text mentions in every utterance and
   goal message (§8.1), and the order in which they receive replacements (§7 step 1);
2. :func:`choose_replacements` — the keyed-hash choice of one pool candidate per entity
   (§7 steps 2–6), per dialogue or globally (``mapping_scope``);
3. :func:`apply_plan` — the rewritten dialogue: utterances, span word indices, dialogue-act
   values, states, ``booked`` names, goal values and goal messages (§8), with per-entity counts.

:func:`build_unseen_test_set` runs the three steps over a whole split in the ConvLab 2.0/2.1
layout (``{dialogue id: {"goal": ..., "log": [...]}}``).
"""

from __future__ import annotations

from mwzrepro.core.errors import MwzreproError

import bisect
import copy
import hashlib
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from mwzrepro.unseen.entities import (
    Entity,
    EntityCatalog,
    act_role,
    collect_entities,
    goal_role,
    state_role,
)
from mwzrepro.unseen.families import (
    ATTRACTION_CATEGORY_MATCH,
    BOOKED_ROLES,
    DEFAULT_FAMILIES,
    FAMILIES,
)
from mwzrepro.unseen.mentions import Mention, find_mentions, rewrite
from mwzrepro.unseen.text import (
    index_patterns,
    is_empty_or_dontcare,
    is_tokenised,
    match_case,
    norm,
    norm_words,
    tokenise_like,
    view,
)

__all__ = [
    "UnseenParams",
    "Candidate",
    "Pools",
    "DialoguePlan",
    "ExhaustedPoolError",
    "plan_dialogue",
    "generic_variants",
    "candidate_hash",
    "choose_replacements",
    "apply_plan",
    "UnseenResult",
    "build_unseen_test_set",
]

EntityKey = tuple[str, str]


class ExhaustedPoolError(MwzreproError, ValueError):
    """No admissible candidate is left for an entity (§7 step 5); names dialogue and family."""


@dataclass(frozen=True)
class UnseenParams:
    """Parameters of spec-unseen-entity-test-set §12 that act on the transformation.

    Attributes:
        replaced_families: families whose entities are replaced.
        replace_attraction_type: also replace attraction-type values (family ATYPE, §3.1).
        replace_unannotated_mentions: database names found only in text are entities (§6.1 f).
        seed: the hash seed (§7 step 3).
        mapping_scope: ``dialogue`` (one mapping per dialogue) or ``global`` (§7 step 4).
        attraction_category_match: restrict ATTR candidates by SGD category (§7 step 6).
        replace_scope: ``all_mentions`` (every variant mention, §8.1) or ``spans`` (only
            mentions given by span annotations).
        match_tokenisation: ``auto``, ``always`` or ``never`` (§8.2).
        text_match_single_token_fallback: ``spans`` (default) or ``all``; whether one-word
            values that name no database entity or station (junk annotations such as
            ``restaurant`` or ``college`` in a name slot) are matched in free text or only
            inside span annotations. [design, not in the spec's list]
    """

    replaced_families: tuple[str, ...] = DEFAULT_FAMILIES
    replace_attraction_type: bool = False
    replace_unannotated_mentions: bool = True
    seed: int = 0
    mapping_scope: str = "dialogue"
    attraction_category_match: bool = False
    replace_scope: str = "all_mentions"
    match_tokenisation: str = "auto"
    text_match_single_token_fallback: str = "spans"

    def __post_init__(self) -> None:
        if self.mapping_scope not in ("dialogue", "global"):
            raise ValueError(f"mapping_scope must be 'dialogue' or 'global', "
                             f"not {self.mapping_scope!r}")
        if self.replace_scope not in ("all_mentions", "spans"):
            raise ValueError(f"replace_scope must be 'all_mentions' or 'spans', "
                             f"not {self.replace_scope!r}")
        if self.match_tokenisation not in ("auto", "always", "never"):
            raise ValueError(f"match_tokenisation must be auto, always or never, "
                             f"not {self.match_tokenisation!r}")
        if self.text_match_single_token_fallback not in ("spans", "all"):
            raise ValueError("text_match_single_token_fallback must be 'spans' or 'all'")
        unknown = set(self.replaced_families) - set(FAMILIES)
        if unknown:
            raise ValueError(f"unknown families in replaced_families: {sorted(unknown)}")

    def enabled_families(self) -> set[str]:
        return set(self.replaced_families) | ({"ATYPE"} if self.replace_attraction_type else set())


# -- pools ---------------------------------------------------------------------------------


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
        return self.by_family.get(family, [])

    def sizes(self) -> dict[str, int]:
        return {f: len(v) for f, v in sorted(self.by_family.items())}


# -- planning ------------------------------------------------------------------------------


@dataclass
class DialoguePlan:
    """Everything decided about one dialogue before replacements are chosen.

    Attributes:
        source_id: the dialogue id as in the source, without ``.json`` (used in the hash).
        entities: ``{(family, canonical): Entity}`` after merging duplicates.
        redirect: ``{merged key: surviving key}``.
        owner: ``{variant words: entity key}``.
        unresolved: occurrences of replaced slots that name no entity (booking names).
        turn_mentions: mentions per log entry.
        message_mentions: mentions per goal message.
        overlap_errors: partially overlapping mentions, ``{"turn_id" or "message", ...}``.
        order: entity keys in replacement order (§7 step 1).
        context: N of all utterances and goal messages, joined by `` | `` (for §7 step 2).
        tokenised: whether replacement surfaces are tokenised in utterances (§8.2).
        attraction_type: the dialogue's original attraction type, for category matching.
        generic: variants not matched in free text (:func:`generic_variants`).
    """

    source_id: str
    entities: dict[EntityKey, Entity]
    redirect: dict[EntityKey, EntityKey]
    owner: dict[tuple[str, ...], EntityKey]
    unresolved: list[dict[str, Any]]
    turn_mentions: list[list[Mention]]
    message_mentions: list[list[Mention]]
    overlap_errors: list[dict[str, Any]]
    order: list[EntityKey]
    context: str
    tokenised: bool
    attraction_type: str = ""
    generic: set[tuple[str, ...]] = field(default_factory=set)
    _catalog: EntityCatalog | None = field(default=None, repr=False)
    _role_cache: dict = field(default_factory=dict, repr=False)

    def first_mention_keys(self) -> set[EntityKey]:
        """Entities with at least one mention in an utterance."""
        return {m.key for found in self.turn_mentions for m in found}

    def key_of(self, value: str, role: str | None) -> tuple[EntityKey, tuple[str, ...]] | None:
        """The entity a structured value names, with its station suffix, or None."""
        if is_empty_or_dontcare(value):
            return None
        ck = (value, role)
        if ck in self._role_cache:
            return self._role_cache[ck]
        out = None
        res = self._catalog.resolve(value, role) if role is not None else None
        if res is not None:
            key = self.redirect.get(res.key, res.key)
            if key in self.entities:
                out = (key, res.suffix)
        if out is None:
            words = norm_words(value)
            if words in self.owner and role is not None:
                out = (self.owner[words], ())
        self._role_cache[ck] = out
        return out


def _is_known(catalog: EntityCatalog, key: EntityKey) -> bool:
    fam, canon = key
    if fam == "CITY":
        return canon in catalog.stations
    return canon in catalog.names.get(fam, ())


def _merge_duplicates(entities: dict[EntityKey, Entity], catalog: EntityCatalog
                      ) -> dict[EntityKey, EntityKey]:
    """Merge a fallback entity (a value that names no database entity or station) into another
    entity of the dialogue that has the fallback's canonical among its variants, so that e.g. a
    taxi value ``ask`` and a restaurant-name ``ask`` share one replacement. [design]"""
    redirect: dict[EntityKey, EntityKey] = {}

    def rank(k: EntityKey) -> tuple:
        return (not _is_known(catalog, k), FAMILIES.index(k[0]), k[1])

    for key in sorted(entities, key=rank, reverse=True):
        if _is_known(catalog, key) or key not in entities:
            continue
        words = tuple(key[1].split())
        owners = [k for k, e in entities.items()
                  if k != key and rank(k) < rank(key) and words in e.variants]
        if not owners:
            owners = _partial_owners(key, entities, catalog, rank)
        if not owners:
            continue
        target = min(owners, key=rank)
        src, dst = entities.pop(key), entities[target]
        dst.raws.update(src.raws)
        dst.sources.update(src.sources)
        dst.variants |= src.variants
        redirect[key] = target
    for k, v in list(redirect.items()):
        while v in redirect:
            v = redirect[v]
        redirect[k] = v
    return redirect


def _partial_owners(key: EntityKey, entities: dict[EntityKey, Entity], catalog: EntityCatalog,
                    rank) -> list[EntityKey]:
    """Known entities that a fallback value abbreviates, when exactly one qualifies: its words
    without a leading "the" are contained in one of the entity's variants ("the gonville" →
    gonville hotel; a taxi "the gallery at twelve" → the attraction), or, within the same
    family, it shares the first distinctive word ("lovell hotel" → lovell lodge). [design]"""
    words = [w for w in key[1].split() if w != "the"]
    if not words or " ".join(words) in catalog.closed_class:
        return []
    padded = " " + " ".join(words) + " "
    contained = []
    first = []
    for k, e in entities.items():
        if k == key or rank(k) >= rank(key):
            continue
        if key[0] != "PLACE" and k[0] != key[0]:
            continue
        if len(words) >= 2 and any(padded in " " + " ".join(v) + " " for v in e.variants):
            contained.append(k)
        elif len(words) == 1 and any([w for w in v if w != "the"][:1] == words
                                     for v in e.variants):
            contained.append(k)
        elif k[0] == key[0] and _is_known(catalog, k):
            head = [w for w in k[1].split() if w != "the"]
            if head and head[0] == words[0] and len(words[0]) >= 4 and (
                    words[0] not in catalog.stations):
                first.append(k)
    if len(contained) == 1:
        return contained
    if not contained and len(first) == 1:
        return first
    return []


def generic_variants(owner: Mapping[tuple[str, ...], EntityKey], catalog: EntityCatalog,
                     params: UnseenParams) -> set[tuple[str, ...]]:
    """Variants that are matched in text only inside span annotations, never in free text
    [design]: variants without a letter (junk times such as ``14:15`` in a taxi slot);
    closed-class values (``moderate`` as a cuisine, ``college`` as an attraction name,
    ``guest house``); and, under ``text_match_single_token_fallback: spans``, one-word values
    of attraction/hotel/restaurant name and taxi place slots that name no database entity
    (``restaurant``, ``ask``, ``bridge``). Their structured values are still replaced."""
    out = set()
    for v, k in owner.items():
        text = " ".join(v)
        if not any(ch.isalpha() for ch in text):
            out.add(v)
        elif v in catalog.entity_variants(*k):
            continue
        elif text in catalog.closed_class:
            out.add(v)
        elif (params.text_match_single_token_fallback == "spans" and len(v) == 1
              and not _is_known(catalog, k) and k[0] in ("ATTR", "HOTEL", "REST", "PLACE")):
            out.add(v)
    return out


def _ws_tokens(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]


def _messages(dialogue: Mapping[str, Any]) -> list[str]:
    msgs = (dialogue.get("goal") or {}).get("message") or []
    return [m for m in msgs if isinstance(m, str)] if isinstance(msgs, list) else []


def plan_dialogue(source_id: str, dialogue: Mapping[str, Any], catalog: EntityCatalog,
                  params: UnseenParams) -> DialoguePlan:
    """Entities, mentions and replacement order of one dialogue (§6, §7 step 1, §8.1).

    Args:
        source_id: dialogue id as in the source (``.json`` is stripped).
        dialogue: ConvLab-layout dialogue.
        catalog: :class:`EntityCatalog`.
        params: :class:`UnseenParams`.
    """
    sid = source_id[:-5] if source_id.lower().endswith(".json") else source_id
    entities, unresolved = collect_entities(
        dialogue, catalog, params.replaced_families, params.replace_attraction_type,
        params.replace_unannotated_mentions)
    redirect = _merge_duplicates(entities, catalog)
    for _ in range(5):
        plan = _mentions_plan(sid, dialogue, catalog, params, entities, redirect, unresolved)
        merged = _merge_overlapping(plan, entities, redirect, catalog)
        if not merged:
            return plan
    return plan


def _merge_overlapping(plan: DialoguePlan, entities: dict[EntityKey, Entity],
                       redirect: dict[EntityKey, EntityKey], catalog: EntityCatalog) -> bool:
    """Merge two entities of one family whose mentions partially overlap when at least one of
    them names no database entity ("north american" and "american food" in "north american
    food"); returns True if anything was merged (mentions must then be found again). [design]"""
    for err in plan.overlap_errors:
        a = (err["first"]["family"], err["first"]["canonical"])
        b = (err["second"]["family"], err["second"]["canonical"])
        if a[0] != b[0] or a not in entities or b not in entities:
            continue
        if _is_known(catalog, a) and _is_known(catalog, b):
            continue
        src, dst = (a, b) if not _is_known(catalog, a) and (
            _is_known(catalog, b) or a > b) else (b, a)
        e_src, e_dst = entities.pop(src), entities[dst]
        e_dst.raws.update(e_src.raws)
        e_dst.sources.update(e_src.sources)
        e_dst.variants |= e_src.variants
        redirect[src] = dst
        for k, v in list(redirect.items()):
            if v == src:
                redirect[k] = dst
        return True
    return False


def _mentions_plan(sid: str, dialogue: Mapping[str, Any], catalog: EntityCatalog,
                   params: UnseenParams, entities: dict[EntityKey, Entity],
                   redirect: dict[EntityKey, EntityKey], unresolved: list[dict[str, Any]]
                   ) -> DialoguePlan:
    owner: dict[tuple[str, ...], EntityKey] = {}
    ranked = sorted(entities, key=lambda k: (not _is_known(catalog, k), FAMILIES.index(k[0]),
                                             k[1]))
    for k in ranked:
        for v in sorted(entities[k].variants):
            owner.setdefault(v, k)
    skip = generic_variants(owner, catalog, params)
    index = index_patterns(owner)
    variant_matching = params.replace_scope == "all_mentions"
    plan = DialoguePlan(sid, entities, redirect, owner, unresolved, [], [], [], [], "", False,
                        generic=skip, _catalog=catalog)
    log = dialogue.get("log") or []
    texts = [str(e.get("text", "")) for e in log]
    plan.tokenised = (params.match_tokenisation == "always"
                      or (params.match_tokenisation == "auto" and is_tokenised(texts)))
    for turn_id, entry in enumerate(log):
        text = texts[turn_id]
        ws = _ws_tokens(text)
        ranges = []
        for span in entry.get("span_info") or []:
            if len(span) != 5 or not isinstance(span[2], str):
                continue
            role = act_role(str(span[0]), str(span[1]), params.replace_attraction_type)
            a, b = int(span[3]), int(span[4])
            if role is None or not (0 <= a <= b < len(ws)):
                continue
            hit = plan.key_of(span[2], role)
            if hit is not None:
                ranges.append((ws[a][0], ws[b][1], hit[0]))
        found, errors = find_mentions(view(text), index, owner, ranges, variant_matching, skip)
        plan.turn_mentions.append(found)
        for m1, m2 in errors:
            plan.overlap_errors.append({"turn_id": turn_id, "text": text,
                                        "first": _mention_dict(m1, text),
                                        "second": _mention_dict(m2, text)})
    for i, msg in enumerate(_messages(dialogue)):
        found, errors = find_mentions(view(msg), index, owner, (), variant_matching, skip)
        plan.message_mentions.append(found)
        for m1, m2 in errors:
            plan.overlap_errors.append({"message": i, "text": msg,
                                        "first": _mention_dict(m1, msg),
                                        "second": _mention_dict(m2, msg)})
    first: dict[EntityKey, tuple[int, int]] = {}
    for turn_id, found in enumerate(plan.turn_mentions):
        for m in found:
            first.setdefault(m.key, (turn_id, m.start))
    mentioned = sorted(first, key=lambda k: (first[k], k))
    rest = sorted((k for k in entities if k not in first), key=lambda k: (FAMILIES.index(k[0]),
                                                                          k[1]))
    plan.order = mentioned + rest
    plan.context = " | ".join(norm(t) for t in texts + _messages(dialogue)) + " "
    plan.attraction_type = _dialogue_attraction_type(dialogue)
    return plan


def _mention_dict(m: Mention, text: str) -> dict[str, Any]:
    return {"start": m.start, "end": m.end, "text": text[m.start:m.end],
            "family": m.key[0], "canonical": m.key[1]}


def _dialogue_attraction_type(dialogue: Mapping[str, Any]) -> str:
    for entry in dialogue.get("log") or []:
        semi = ((entry.get("metadata") or {}).get("attraction") or {}).get("semi") or {}
        value = semi.get("type", "")
        if isinstance(value, str) and not is_empty_or_dontcare(value):
            return value.lower()
    return ""


# -- choosing ------------------------------------------------------------------------------


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


# -- applying ------------------------------------------------------------------------------


@dataclass
class _Counts:
    text: Counter = field(default_factory=Counter)
    message: Counter = field(default_factory=Counter)
    state: Counter = field(default_factory=Counter)
    act: Counter = field(default_factory=Counter)
    span: Counter = field(default_factory=Counter)
    goal: Counter = field(default_factory=Counter)
    booked: Counter = field(default_factory=Counter)
    slots: Counter = field(default_factory=Counter)


def apply_plan(dialogue: Mapping[str, Any], plan: DialoguePlan,
               assignment: Mapping[EntityKey, Candidate], params: UnseenParams
               ) -> tuple[dict[str, Any], dict[str, Any]]:
    """Rewrite one dialogue with its assignment (§8).

    Returns:
        ``(new dialogue, report)``: a deep copy with every replacement applied, and
        ``{"counts": {entity key: {field: n}}, "slots": Counter((field, domain, slot)),
        "span_errors": [...]}``.
    """
    new = copy.deepcopy(dict(dialogue))
    counts = _Counts()
    span_errors: list[dict[str, Any]] = []
    rat = params.replace_attraction_type

    def rewrite_value(value: str, role: str | None, fld: str) -> str:
        if not isinstance(value, str) or role is None:
            return value
        parts = value.split("|")
        out = []
        for p in parts:
            hit = plan.key_of(p, role)
            if hit is None or hit[0] not in assignment:
                out.append(p)
                continue
            key, suffix = hit
            nv = assignment[key].value + ("" if not suffix else " " + " ".join(suffix))
            getattr(counts, fld)[key] += 1
            out.append(nv)
        return "|".join(out)

    def surface(m: Mention, text: str, tokenised: bool) -> str:
        s = match_case(text[m.start:m.end], assignment[m.key].surface)
        return tokenise_like(s) if tokenised else s

    def rewrite_text(text: str, mentions: list[Mention], tokenised: bool, fld: str):
        repl = []
        for m in mentions:
            if m.key in assignment:
                repl.append((m.start, m.end, surface(m, text, tokenised)))
                getattr(counts, fld)[m.key] += 1
        return rewrite(text, repl)

    for turn_id, entry in enumerate(new.get("log") or []):
        text = str(entry.get("text", ""))
        new_text, omap = rewrite_text(text, plan.turn_mentions[turn_id], plan.tokenised, "text")
        entry["text"] = new_text
        old_ws, new_ws = _ws_tokens(text), _ws_tokens(new_text)
        old_words = [text[s:e] for s, e in old_ws]
        new_words = [new_text[s:e] for s, e in new_ws]
        new_starts = [s for s, _ in new_ws]
        span_values: dict[tuple[str, str, str], str] = {}
        for k, span in enumerate(entry.get("span_info") or []):
            if len(span) != 5:
                continue
            act, slot, value, a, b = span
            a, b = int(a), int(b)
            role = act_role(str(act), str(slot), rat)
            if not (0 <= a <= b < len(old_ws)):
                if role is not None and isinstance(value, str):
                    span[2] = rewrite_value(value, role, "span")
                continue
            s, e = old_ws[a][0], old_ws[b][1]
            kind = omap.overlap_kind(s, e)
            if kind in ("partial", "inside"):
                span_errors.append({
                    "turn_id": turn_id, "span_index": k, "span": list(span), "kind": kind,
                    "reason": "span partially overlaps a replaced mention" if kind == "partial"
                    else "span lies inside the replaced mention of another entity"})
            ns, ne = omap.map(s, "start"), omap.map(e, "end")
            na = max(0, _token_at(new_starts, ns))
            nb = max(na, _token_at(new_starts, ne - 1))
            held = " ".join(old_words[a : b + 1]).lower() == str(value).lower()
            if kind == "covers" and held:
                nv = " ".join(new_words[na : nb + 1])
                if str(value) == str(value).lower():
                    nv = nv.lower()
                hit = plan.key_of(value, role) if role else None
                if hit is not None:
                    counts.span[hit[0]] += 1
            elif role is not None:
                nv = rewrite_value(value, role, "span")
            else:
                nv = value
            span_values[(str(act), str(slot), str(value))] = nv
            span[2], span[3], span[4] = nv, na, nb
        for act, pairs in (entry.get("dialog_act") or {}).items():
            for pair in pairs:
                if not (isinstance(pair, list) and len(pair) >= 2 and isinstance(pair[1], str)):
                    continue
                role = act_role(act, str(pair[0]), rat)
                old = pair[1]
                k3 = (act, str(pair[0]), old)
                if k3 in span_values:
                    pair[1] = span_values[k3]
                    if role is not None and (hit := plan.key_of(old, role)) is not None:
                        counts.act[hit[0]] += 1
                elif role is not None:
                    pair[1] = rewrite_value(old, role, "act")
                if pair[1] != old:
                    counts.slots[("act", act.lower(), str(pair[0]).lower())] += 1
        for dom, parts in (entry.get("metadata") or {}).items():
            if not isinstance(parts, dict):
                continue
            semi = parts.get("semi") or {}
            for slot in list(semi):
                role = state_role(dom, slot.lower(), rat)
                if role is not None and isinstance(semi[slot], str):
                    old = semi[slot]
                    semi[slot] = rewrite_value(old, role, "state")
                    if semi[slot] != old:
                        counts.slots[("state", dom, slot.lower())] += 1
            fam = BOOKED_ROLES.get(dom)
            for booked in (parts.get("book") or {}).get("booked") or []:
                if fam and isinstance(booked, dict) and isinstance(booked.get("name"), str):
                    old = booked["name"]
                    booked["name"] = rewrite_value(old, fam, "booked")
                    if booked["name"] != old:
                        counts.slots[("booked", dom, "name")] += 1
    goal = new.get("goal") or {}
    for dom, parts in goal.items():
        if not isinstance(parts, dict):
            continue
        for kind in ("info", "fail_info", "book", "fail_book"):
            for slot, value in list((parts.get(kind) or {}).items()):
                role = goal_role(dom, slot, rat)
                if role is not None and isinstance(value, str):
                    nv = rewrite_value(value, role, "goal")
                    parts[kind][slot] = nv
                    if nv != value:
                        counts.slots[("goal", dom, slot.lower())] += 1
    msgs = goal.get("message")
    if isinstance(msgs, list):
        k = 0
        for i, msg in enumerate(msgs):
            if isinstance(msg, str):
                msgs[i], _ = rewrite_text(msg, plan.message_mentions[k], False, "message")
                k += 1
    per_entity = {}
    for key in plan.order:
        per_entity[key] = {f: getattr(counts, f)[key]
                           for f in ("text", "message", "state", "act", "span", "goal", "booked")}
    return new, {"counts": per_entity, "slots": counts.slots, "span_errors": span_errors}


def _token_at(starts: list[int], pos: int) -> int:
    return bisect.bisect_right(starts, pos) - 1


# -- whole split ---------------------------------------------------------------------------


@dataclass
class UnseenResult:
    """Output of :func:`build_unseen_test_set`.

    Attributes:
        data: the new split in the base layout (same dialogue order).
        plans: ``{source id: DialoguePlan}``.
        assignments: ``{source id: {entity key: Candidate}}``.
        reports: ``{source id: apply_plan report}``.
    """

    data: dict[str, Any]
    plans: dict[str, DialoguePlan]
    assignments: dict[str, dict[EntityKey, Candidate]]
    reports: dict[str, dict[str, Any]]


def build_unseen_test_set(data: Mapping[str, Any], catalog: EntityCatalog, pools: Pools,
                          params: UnseenParams = UnseenParams()) -> UnseenResult:
    """Transform a whole split (ConvLab 2.0/2.1 layout) into its unseen-entity copy.

    Args:
        data: ``{dialogue id: dialogue}`` as read from ``test.json``.
        catalog: MultiWOZ entities.
        pools: admissible SGD candidates (after the unseen filter).
        params: :class:`UnseenParams`.

    Raises:
        ExhaustedPoolError: a family ran out of candidates.
    """
    plans = {sid: plan_dialogue(sid, d, catalog, params) for sid, d in data.items()}
    assignments_by_sid = choose_replacements(plans.values(), pools, params, catalog)
    new_data: dict[str, Any] = {}
    reports = {}
    assignments = {}
    for sid, dialogue in data.items():
        plan = plans[sid]
        assignment = assignments_by_sid[plan.source_id]
        new_data[sid], reports[sid] = apply_plan(dialogue, plan, assignment, params)
        assignments[sid] = assignment
    return UnseenResult(new_data, plans, assignments, reports)
