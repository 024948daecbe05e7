"""Entity rule families of the annotation-consistency correction (spec-annotation-consistency
§7.9-7.10): NAME (attraction, hotel, restaurant names; NM-U, NM-S, NM-F) and the train and
taxi places (TD-U/S, TT-U/S, XD-U/S, XT-U/S). Each detector reads one
:class:`~mwzrepro.consistency.context.TurnContext` and returns hits.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Collection, Iterable

from mwzrepro.consistency.context import Hit, TurnContext
from mwzrepro.consistency.text import normalize_value, nword_matches, partial_ratio

__all__ = [
    "name_user", "name_system", "train_dep_user", "train_dep_system", "train_dest_user",
    "train_dest_system", "taxi_dep_user", "taxi_dep_system", "taxi_dest_user",
    "taxi_dest_system",
]


# ====================================================================================== NAME
@functools.lru_cache(maxsize=16)
def _longest_first(pairs: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """Aliases longest first, so a name is reported with its longest matching surface."""
    return tuple(sorted(pairs, key=lambda p: (-len(p[0]), p)))


def _name_value(c: TurnContext, canon: str, where: str, start: int, end: int) -> str:
    if c.params.name_label == "surface":
        return (c.U if where == "user" else c.S)[start:end]
    return canon


def name_user(domain: str) -> Callable[[TurnContext], list[Hit]]:
    """The §7.9 NM-U detector (entity names of ``domain`` said by the user) for one domain."""
    def detect(c: TurnContext) -> list[Hit]:
        """§7.9 NM-U."""
        if "taxi" in c.u:
            return []
        others = [normalize_value(o) for o in c.state.other_names(domain)]
        out, seen = [], set()
        for alias, canon in _longest_first(c.inv.names[domain]):
            if canon in seen or alias not in c.nu.text:
                continue
            for a, b in nword_matches(c.nu, alias):
                if any(alias in o for o in others):
                    break
                out.append(c.user_hit(_name_value(c, canon, "user", a, b), "NM-U", a, b))
                seen.add(canon)
                break
        return out

    return detect


def name_system(domain: str) -> Callable[[TurnContext], list[Hit]]:
    """The §7.9 NM-S/NM-F detector (entity names of ``domain`` offered by the system, exact
    then fuzzy) for one domain."""
    def detect(c: TurnContext) -> list[Hit]:
        """§7.9 NM-S, then NM-F (fuzzy, restaurant by default) for names NM-S did not add."""
        out: list[Hit] = []
        seen: set[str] = set()
        raw_others = c.state.other_names(domain)
        others = [normalize_value(o) for o in raw_others]
        if not (domain in ("attraction", "hotel") and "taxi" in c.s):
            for alias, canon in _longest_first(c.inv.names[domain]):
                if canon in seen or alias not in c.ns.text:
                    continue
                spans = list(nword_matches(c.ns, alias))
                if not spans or (" " + alias + " ") in c.nu.text:
                    continue
                if any(alias in o for o in others):
                    continue
                out.append(c.system_hit(_name_value(c, canon, "system", *spans[0]), "NM-S",
                                        *spans[0]))
                seen.add(canon)
        p = c.params
        if p.fuzzy_enabled and domain in p.fuzzy_domains and c.s:
            out += _fuzzy_names(c, domain, seen, raw_others)
        return out

    return detect


def _fuzzy_names(c: TurnContext, domain: str, seen: set[str], others: list[str]) -> list[Hit]:
    from rapidfuzz import fuzz, process

    p = c.params
    choices = [v for v in c.inv.canonical_names[domain]
               if v not in seen and v not in p.fuzzy_exclude
               and not any(v in o for o in others)]
    out = []
    for canon, _, _ in process.extract(c.s, choices, scorer=fuzz.partial_ratio,
                                       score_cutoff=max(p.fuzzy_threshold - 0.5, 0),
                                       limit=None):
        if partial_ratio(canon, c.s) < p.fuzzy_threshold:
            continue
        al = fuzz.partial_ratio_alignment(canon, c.s)
        a, b = (al.dest_start, al.dest_end) if len(canon) <= len(c.s) else (0, len(c.s))
        out.append(c.system_hit(_name_value(c, canon, "system", a, b), "NM-F", a, b))
    return sorted(out, key=lambda h: (h.order, h.value))


# ============================================================================ TRAIN / TAXI
_DEP = "(?:leave|leaves|depart|departs|from) "
_ARR = "(?:arrive|arrives|arrive in|arrive at|arrives in|arrives at|to) "
_ARR_TAXI = "(?:arrive|arrives|arrive in|arrive at|arrives in|arrives at| to) "


def _pattern_hit(text: str, prefix: str, v: str) -> tuple[int, int] | None:
    m = re.search(prefix + re.escape(v), text)
    return (m.end() - len(v), m.end()) if m else None


def _resolve(c: TurnContext, v: str) -> str:
    if v == "the hotel":
        return c.state.names.get("hotel", "")
    if v == "the restaurant":
        return c.state.names.get("restaurant", "")
    return v


def _after_to(text: str, v: str) -> tuple[int, int] | None:
    i = text.find("to " + v)
    return (i + 3, i + 3 + len(v)) if i >= 0 else None


def _place_hits(c: TurnContext, places: Iterable[str], side: str, rule: str,
                locate: Callable[[str, str], tuple[int, int] | None], spaced: bool = False,
                resolve: bool = False, blocked: Collection[str] = ()) -> list[Hit]:
    """The §7.10 scan shared by the train and taxi rules: every place ``v`` (not in
    ``blocked``) said on ``side`` ("user" or "system"; preceded by a space when ``spaced``)
    and absent from the state, located by ``locate(text, v)`` → (start, end) or None, becomes
    a hit of ``rule`` with the value ``v`` (with ``resolve``, "the hotel"/"the restaurant"
    become the state's venue name, and a place without one is skipped)."""
    text = c.u if side == "user" else c.s
    hit = c.user_hit if side == "user" else c.system_hit
    out = []
    for v in places:
        if v in blocked:
            continue
        if (" " + v if spaced else v) in text and not c.state.value_in_state(v):
            span = locate(text, v)
            value = _resolve(c, v) if resolve else v
            if span and value:
                out.append(hit(value, rule, *span))
    return out


def _departure(text: str, v: str) -> tuple[int, int] | None:
    return _pattern_hit(text, _DEP, v)


def train_dep_user(c: TurnContext) -> list[Hit]:
    """§7.10 TD-U."""
    return _place_hits(c, c.inv.stations, "user", "TD-U", _departure, spaced=True)


def train_dep_system(c: TurnContext) -> list[Hit]:
    """§7.10 TD-S."""
    return _place_hits(c, c.inv.stations, "system", "TD-S", _departure)


def train_dest_user(c: TurnContext) -> list[Hit]:
    """§7.10 TT-U (optionally requiring "train" in W_t)."""
    if c.params.train_dest_require_train_cue and "train" not in c.w:
        return []
    return _place_hits(c, c.inv.stations, "user", "TT-U", _after_to)


def train_dest_system(c: TurnContext) -> list[Hit]:
    """§7.10 TT-S."""
    return _place_hits(c, c.inv.stations, "system", "TT-S",
                       lambda text, v: _pattern_hit(text, _ARR, v))


def taxi_dep_user(c: TurnContext) -> list[Hit]:
    """§7.10 XD-U."""
    return _place_hits(c, c.inv.taxi_places, "user", "XD-U", _departure, spaced=True,
                       resolve=True)


def taxi_dep_system(c: TurnContext) -> list[Hit]:
    """§7.10 XD-S."""
    if "taxi" not in c.s:
        return []
    return _place_hits(c, c.inv.taxi_places, "system", "XD-S", _departure, resolve=True)


def taxi_dest_user(c: TurnContext) -> list[Hit]:
    """§7.10 XT-U."""
    if "taxi" not in c.u:
        return []
    return _place_hits(c, c.inv.taxi_places, "user", "XT-U", _after_to, resolve=True,
                       blocked=c.params.taxi_blocked_values)


def taxi_dest_system(c: TurnContext) -> list[Hit]:
    """§7.10 XT-S."""
    if "taxi" not in c.s:
        return []
    return _place_hits(c, c.inv.taxi_places, "system", "XT-S",
                       lambda text, v: _pattern_hit(text, _ARR_TAXI, v), resolve=True,
                       blocked=c.params.taxi_blocked_values)
