"""Planning one dialogue of the unseen-entity test set (spec-unseen-entity-test-set §6, §7
step 1, §8.1): its entities (duplicates merged), their text mentions in every utterance and goal
message, and the order in which they receive replacements.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mwzrepro.unseen.catalog import EntityCatalog
from mwzrepro.unseen.entities import Entity, act_role, collect_entities
from mwzrepro.unseen.families import FAMILIES
from mwzrepro.unseen.mentions import Mention, find_mentions
from mwzrepro.unseen.params import UnseenParams
from mwzrepro.unseen.text import (
    index_patterns,
    is_empty_or_dontcare,
    is_tokenised,
    norm,
    norm_words,
    view,
)

__all__ = ["EntityKey", "DialoguePlan", "plan_dialogue", "generic_variants", "ws_tokens",
           "goal_messages"]

EntityKey = tuple[str, str]


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


def _merge_duplicates(entities: dict[EntityKey, Entity], catalog: EntityCatalog
                      ) -> dict[EntityKey, EntityKey]:
    """Merge a fallback entity (a value that names no database entity or station) into another
    entity of the dialogue that has the fallback's canonical among its variants, so that e.g. a
    taxi value ``ask`` and a restaurant-name ``ask`` share one replacement. [design]"""
    redirect: dict[EntityKey, EntityKey] = {}

    def rank(k: EntityKey) -> tuple:
        return (not catalog.is_known(k), FAMILIES.index(k[0]), k[1])

    for key in sorted(entities, key=rank, reverse=True):
        if catalog.is_known(key) or key not in entities:
            continue
        words = tuple(key[1].split())
        owners = [k for k, e in entities.items()
                  if k != key and rank(k) < rank(key) and words in e.variants]
        if not owners:
            owners = _partial_owners(key, entities, catalog, rank)
        if not owners:
            continue
        target = min(owners, key=rank)
        entities[target].absorb(entities.pop(key))
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
        elif k[0] == key[0] and catalog.is_known(k):
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
              and not catalog.is_known(k) and k[0] in ("ATTR", "HOTEL", "REST", "PLACE")):
            out.add(v)
    return out


def ws_tokens(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` character offsets of the whitespace tokens of ``text``."""
    return [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]


def goal_messages(dialogue: Mapping[str, Any]) -> list[str]:
    """The string goal messages of a ConvLab-layout dialogue (others skipped)."""
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
        dialogue, catalog, params.families, params.replace_attraction_type,
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
        if catalog.is_known(a) and catalog.is_known(b):
            continue
        src, dst = (a, b) if not catalog.is_known(a) and (
            catalog.is_known(b) or a > b) else (b, a)
        entities[dst].absorb(entities.pop(src))
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
    ranked = sorted(entities, key=lambda k: (not catalog.is_known(k), FAMILIES.index(k[0]),
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
        ws = ws_tokens(text)
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
    for i, msg in enumerate(goal_messages(dialogue)):
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
    plan.context = " | ".join(norm(t) for t in texts + goal_messages(dialogue)) + " "
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
