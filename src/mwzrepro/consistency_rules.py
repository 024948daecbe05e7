"""The ten detection-rule families of the annotation-consistency correction
(spec-annotation-consistency §7), one function pair (user side, system side) per family.

A detector reads one :class:`TurnContext` — U_t, S_t, the windows W_t and W_{t−1}, and the
visible *original* state V_t (§2.2) — and returns :class:`Hit` records. It never sees other
detectors' output (§4.5). The scan skeleton, merging and carry-forward live in
:mod:`mwzrepro.correct`.

Rule ids (change log, §6.6): HT1–HT3; AT-U, AT-S, AT-M; A1, A2a, A2b, A2c, H1, H2, R1, R2,
R3a, R3b, AR-U (project extension, only with ``area_user_side``); PR-U, PR-Sa/b/c/n, PH-U,
PH-Sa/b/n; FD-U, FD-Sa/b/n; PK-U, PK-Uq, PK-Sa, PK-Sb; IN-U, IN-Uq, IN-Sa, IN-Sb; ST-S, ST-R;
NM-U, NM-S, NM-F; TD-U, TD-S, TT-U, TT-S, XD-U, XD-S, XT-U, XT-S.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from mwzrepro.consistency_lexicons import NUMBER_WORDS, Inventories
from mwzrepro.consistency_params import ConsistencyParams
from mwzrepro.consistency_text import (
    Mapped,
    normalize_entity,
    normalize_value,
    nword_matches,
    partial_ratio,
    polarity,
    word_matches,
)

__all__ = ["Hit", "TurnContext", "VisibleState", "Family", "FAMILIES", "USER_SEP"]

#: Separator between S_t and U_t in the window W_t (§2.1).
USER_SEP = " <user> "


@dataclass(frozen=True)
class Hit:
    """One value found by a rule.

    Attributes:
        value: canonical value (before respelling, §2.3) or the label to write.
        rule: rule id (module docstring).
        side: ``user`` or ``system`` (which rule set fired, §4.5).
        where: the utterance holding the evidence, ``user`` (U_t) or ``system`` (S_t).
        start, end: character offsets of the matched surface in that utterance (original
            case); ``-1`` when the evidence is not a located surface.
        order: position of the evidence in W_t (for ordering alternatives, §4.6).
    """

    value: str
    rule: str
    side: str
    where: str
    start: int
    end: int
    order: int


@dataclass(frozen=True)
class VisibleState:
    """V_t of §2.2: the original state after U_t without ``dontcare`` slots.

    Attributes:
        values: lowercased primary values of every slot (all domains).
        names: ``{domain: raw name value}`` for domains with a name slot.
        domains: domains with at least one visible slot.
    """

    values: tuple[str, ...] = ()
    names: dict[str, str] = field(default_factory=dict)
    domains: frozenset[str] = frozenset()

    def value_in_state(self, x: str) -> bool:
        """value-in-state(t, x): ``x`` is a substring of at least one value (§2.2)."""
        return any(x in v for v in self.values)

    def name(self, domain: str) -> str:
        """name(t, d), lowercased ('' if none)."""
        return self.names.get(domain, "").lower()

    def other_names(self, domain: str) -> list[str]:
        """other-names(t, d), lowercased."""
        return [v.lower() for d, v in self.names.items() if d != domain]

    @property
    def name_count(self) -> int:
        """name-count(t)."""
        return len(self.names)


class TurnContext:
    """Everything the rules may read at user turn t of one dialogue (§2.1–2.2, §7 intro).

    Args:
        t: user-turn index.
        user: U_t (original case). system: S_t ('' at t = 0).
        state: V_t. previous: the context of turn t−1 (for W_{t−1}), or None.
        inv: inventories; params: correction parameters.
    """

    def __init__(self, t: int, user: str, system: str, state: VisibleState,
                 previous: TurnContext | None, inv: Inventories, params: ConsistencyParams):
        from mwzrepro.consistency_text import lower

        self.t = t
        self.U, self.S = user, system
        self.u, self.s = lower(user), lower(system)
        self.w = self.s + USER_SEP + self.u
        self.wp = previous.w if previous is not None else ""
        self.previous = previous
        self.state = state
        self.inv = inv
        self.params = params

    # --- lazily derived forms -------------------------------------------------------------
    @cached_property
    def nu(self) -> Mapped:
        """N(U_t)."""
        return normalize_entity(self.U)

    @cached_property
    def ns(self) -> Mapped:
        """N(S_t)."""
        return normalize_entity(self.S)

    @cached_property
    def s_masked(self) -> str:
        """S*_t of §7.3: lower(S) with entity names, street phrases (and optionally addresses)
        replaced by same-length placeholders, so offsets still index S."""
        return _mask(self.s, self.ns, self.inv, self.params)

    @cached_property
    def u_masked(self) -> str:
        """U*_t, the same masking applied to U_t (only for the ``area_user_side`` extension)."""
        return _mask(self.u, self.nu, self.inv, self.params)

    # --- helpers --------------------------------------------------------------------------
    def user_hit(self, value: str, rule: str, start: int, end: int, side: str = "user") -> Hit:
        """A hit whose evidence is at ``[start, end)`` of U_t."""
        order = len(self.s) + len(USER_SEP) + max(start, 0)
        return Hit(value, rule, side, "user", start, end, order)

    def system_hit(self, value: str, rule: str, start: int, end: int) -> Hit:
        """A hit whose evidence is at ``[start, end)`` of S_t."""
        return Hit(value, rule, "system", "system", start, end, max(start, 0))

    def other_names_in_s(self, domain: str) -> bool:
        """"other-names occur in S" (§2.2)."""
        return any(o and o in self.s for o in self.state.other_names(domain))


_STREET = re.compile(r"(?:centre|west|east|south|north)(?:ampton)? (?:road|street|lane|avenue)")


def _blank(chars: list[str], start: int, end: int) -> None:
    for i in range(start, end):
        chars[i] = "#"


def _mask(text: str, norm: Mapped, inv: Inventories, params: ConsistencyParams) -> str:
    chars = list(text)
    if params.mask_entity_names:
        for alias in inv.mask_names:
            if alias in norm.text:
                for a, b in nword_matches(norm, alias):
                    _blank(chars, a, b)
    masked = "".join(chars)
    if params.mask_street_phrases:
        for m in _STREET.finditer(masked):
            _blank(chars, *m.span())
        masked = "".join(chars)
    if params.mask_addresses:
        for addr in inv.mask_addresses:
            i = masked.find(addr)
            while i >= 0:
                _blank(chars, i, i + len(addr))
                masked = "".join(chars)
                i = masked.find(addr, i + 1)
    return masked


def _first(text: str, keys: Sequence[str]) -> tuple[int, int]:
    """Span of the earliest occurrence of any key in text."""
    best = (-1, -1)
    for k in keys:
        i = text.find(k)
        if i >= 0 and (best[0] < 0 or i < best[0]):
            best = (i, i + len(k))
    return best


def _any(text: str, keys: Sequence[str]) -> bool:
    return any(k in text for k in keys)


# ===================================================================================== HTYPE
_GH = ("guesthouse", "guest house")


def htype_user(c: TurnContext) -> list[Hit]:
    """§7.1 HT1 (guesthouse from U) and HT2 (generic "hotel" in U)."""
    gh_w = _any(c.w, _GH)
    if "hotel" not in c.w and _any(c.u, _GH):
        return [c.user_hit("guesthouse", "HT1", *_first(c.u, _GH))]
    if "hotel" in c.u and not gh_w:
        blocked = (
            ("the hotel" in c.w
             and not ("the hotel should" in c.u or "looking for the hotel" in c.u))
            or _any(c.w, ("car ", "taxi", "type"))
        )
        if not blocked:
            return [c.user_hit("hotel", "HT2", *_first(c.u, ("hotel",)))]
    return []


def htype_system(c: TurnContext) -> list[Hit]:
    """§7.1 HT3 (generic "hotel" in S)."""
    if ("hotel" in c.s and not _any(c.w, _GH)
            and not _any(c.w, ("the hotel", "that hotel", "taxi"))):
        return [c.system_hit("hotel", "HT3", *_first(c.s, ("hotel",)))]
    return []


# ===================================================================================== ATYPE
def atype_user(c: TurnContext) -> list[Hit]:
    """§7.2 AT-U."""
    if "taxi" in c.w or "parking" in c.w:
        return []
    out = []
    for surface, canon in c.inv.attraction_types:
        i = c.u.find(surface)
        if i >= 0:
            out.append(c.user_hit(canon, "AT-U", i, i + len(surface)))
    return out


def atype_system(c: TurnContext) -> list[Hit]:
    """§7.2 AT-S, then AT-M when two or more distinct types were found."""
    if _any(c.w, ("parking", "leisure park", "park street", "parkside")):
        return []
    out = []
    for surface, canon in c.inv.attraction_types:
        i = c.s.find(surface)
        if i >= 0:
            out.append(c.system_hit(canon, "AT-S", i, i + len(surface)))
    distinct = {h.value for h in out}
    if len(distinct) >= 2:
        name = c.state.name("attraction")
        if not name:
            return []
        if c.params.atype_resolve_by_db:
            db_type = c.inv.attraction_type_by_name.get(normalize_value(name))
            if db_type in distinct:
                out = [Hit(h.value, "AT-M", h.side, h.where, h.start, h.end, h.order)
                       for h in out if h.value == db_type]
    return out


# ====================================================================================== AREA
_ATTRACTION_CUES = ("college", "museum", "night club", "nightclub", "swimming", "cinema",
                    "theatre", "theater", "entertain", "architect")
_R3_BLOCK = ("hotel", "guest", "attraction", "college", "night", "church", "pool", "museum")


def _area_words(c: TurnContext, masked: str) -> list[tuple[str, int, int]]:
    out = []
    for surface, label in c.inv.areas:
        i = masked.find(surface)
        if i >= 0:
            out.append((label, i, i + len(surface)))
    return out


def area_attraction_system(c: TurnContext) -> list[Hit]:
    """§7.3 AREA-A (A1, A2a, A2b, A2c)."""
    n = c.state.name("attraction")
    if not n:
        return []
    out = []
    for label, i, j in _area_words(c, c.s_masked):
        rule = None
        if n in c.s:
            rule = "A1"
        elif (not c.other_names_in_s("attraction")
              and not _any(c.s, ("restaurant", "hotel", "house", "book"))):
            if _any(c.s, _ATTRACTION_CUES):
                rule = "A2a"
            elif n in c.wp:
                rule = "A2b"
            elif "hotel" not in c.wp and (c.state.name_count == 1 or "museum" in c.wp):
                rule = "A2c"
        if rule:
            out.append(c.system_hit(label, rule, i, j))
    return out


def area_hotel_system(c: TurnContext) -> list[Hit]:
    """§7.3 AREA-H (H1, H2)."""
    n = c.state.name("hotel")
    out = []
    for label, i, j in _area_words(c, c.s_masked):
        if n and n in c.s and label not in n:
            out.append(c.system_hit(label, "H1", i, j))
        elif "restaurant" not in c.s and ("guest" in c.s or "hotel" in c.s):
            out.append(c.system_hit(label, "H2", i, j))
    return out


def _restaurant_cue(c: TurnContext) -> bool:
    if _any(c.s, c.inv.restaurant_cue_words) or _any(c.wp, c.inv.restaurant_cue_words):
        return True
    texts = [c.ns.text]
    if c.previous is not None:
        texts += [c.previous.ns.text, c.previous.nu.text]
    return any(" " + a + " " in t for a in c.inv.restaurant_cue_names for t in texts)


def area_restaurant_system(c: TurnContext) -> list[Hit]:
    """§7.3 AREA-R (R1, R2, R3a, R3b)."""
    n = c.state.name("restaurant")
    out = []
    for label, i, j in _area_words(c, c.s_masked):
        rule = None
        if n and n in c.s and label not in n:
            rule = "R1"
        elif "restaurant" in c.s:
            rule = "R2"
        elif not _any(c.s, _R3_BLOCK):
            if n:
                rule = None if "restaurant" in c.u else "R3a"
            elif _restaurant_cue(c):
                rule = "R3b"
        if rule:
            out.append(c.system_hit(label, rule, i, j))
    return out


_AREA_USER_CUES = {
    "attraction": ("attraction", "to do", "to see", "visit", *_ATTRACTION_CUES),
    "hotel": ("hotel", "guest", "place to stay", "accommodation"),
    "restaurant": ("restaurant", "food", "place to eat", "somewhere to eat", "dine"),
}


def _area_user(domain: str) -> Callable[[TurnContext], list[Hit]]:
    def detect(c: TurnContext) -> list[Hit]:
        """AR-U, the project's optional user-side area rule (``area_user_side``; §7.3 leaves
        it undefined): an area word in the masked U_t when U_t names the domain."""
        if not c.params.area_user_side or not _any(c.u, _AREA_USER_CUES[domain]):
            return []
        return [c.user_hit(label, "AR-U", i, j) for label, i, j in _area_words(c, c.u_masked)]

    return detect


# ===================================================================================== PRICE
def price_restaurant_user(c: TurnContext) -> list[Hit]:
    """§7.4 PR-U."""
    if "guest" in c.w:
        return []
    out = []
    for surface, label in c.inv.prices:
        i = c.u.find(surface)
        if i >= 0 and not c.state.value_in_state(surface.strip()):
            out.append(c.user_hit(label, "PR-U", i, i + len(surface)))
    return out


def price_restaurant_system(c: TurnContext) -> list[Hit]:
    """§7.4 PR-S (branches a, b, c; n when no restaurant name)."""
    n = c.state.name("restaurant")
    out = []
    for surface, label in c.inv.prices:
        i = c.s.find(surface)
        if i < 0:
            continue
        rule = None
        if n:
            if n in c.s:
                rule = "PR-Sa"
            elif n in c.wp and "hotel" not in c.s:
                rule = "PR-Sb"
            elif (n not in c.wp and "hotel" not in c.s and "guest" not in c.s
                  and ("restaurant" in c.s or "hotel" not in c.state.domains)):
                rule = "PR-Sc"
        elif (not c.other_names_in_s("restaurant") and "accommodations" not in c.s
              and "hotel" not in c.s):
            rule = "PR-Sn"
        if rule:
            out.append(c.system_hit(label, rule, i, i + len(surface)))
    return out


def price_hotel_user(c: TurnContext) -> list[Hit]:
    """§7.4 PH-U."""
    if "how expensive" in c.u or "cheapest" in c.u:
        return []
    out = []
    for surface, label in c.inv.prices:
        i = c.u.find(surface)
        if i >= 0 and not c.state.value_in_state(surface.strip()):
            out.append(c.user_hit(label, "PH-U", i, i + len(surface)))
    return out


def price_hotel_system(c: TurnContext) -> list[Hit]:
    """§7.4 PH-S (branches a, b; n when no hotel name)."""
    n = c.state.name("hotel")
    out = []
    for surface, label in c.inv.prices:
        i = c.s.find(surface)
        if i < 0:
            continue
        rule = None
        if n:
            if n in c.s:
                rule = "PH-Sa"
            elif not _any(c.s, ("dine", "cuisine", "steakhouse", "restaurant")):
                rule = "PH-Sb"
        elif "restaurant" not in c.s and "hotel" in c.state.domains:
            rule = "PH-Sn"
        if rule:
            out.append(c.system_hit(label, rule, i, i + len(surface)))
    return out


# ====================================================================================== FOOD
def _word_hits(text: str, lexicon: Sequence[str]) -> list[tuple[str, int, int]]:
    out = []
    for v in lexicon:
        if v in text:
            spans = word_matches(text, v)
            if spans:
                out.append((v, *spans[0]))
    return out


def food_user(c: TurnContext) -> list[Hit]:
    """§7.5 FD-U."""
    n = c.state.name("restaurant")
    return [c.user_hit(v, "FD-U", i, j) for v, i, j in _word_hits(c.u, c.inv.cuisines)
            if v not in n]


def food_system(c: TurnContext) -> list[Hit]:
    """§7.5 FD-S (a, b; n when no restaurant name)."""
    n = c.state.name("restaurant")
    out = []
    for v, i, j in _word_hits(c.s, c.inv.cuisines):
        rule = None
        if n:
            if n in c.s and v not in n:
                rule = "FD-Sa"
            elif n not in c.w and v not in n and "cinema" not in c.s:
                rule = "FD-Sb"
        elif "restaurant" in c.state.domains:
            rule = "FD-Sn"
        if rule:
            out.append(c.system_hit(v, rule, i, j))
    return out


# =============================================================================== PARK / NET
_PARK_Q_USER = re.compile(r"do.*parking\?")
_PARK_Q_SYS = (re.compile(r"parking[a-z ]*\?"), re.compile(r"\(.*parking\)"))
_NET_Q_USER = re.compile(r"do[a-z ]*(?:internet|wifi)[a-z', ]*\?")


def park_user(c: TurnContext) -> list[Hit]:
    """§7.6 PK-U (a question or condition about parking adds ``yes``: PK-Uq)."""
    i = c.u.find("parking")
    if i < 0:
        return []
    span = (i, i + len("parking"))
    if not _any(c.u, ("parking or not", "whether", " if ")) and not _PARK_Q_USER.search(c.u):
        return [c.user_hit(polarity(c.u, "parking", 5), "PK-U", *span)]
    return [c.user_hit("yes", "PK-Uq", *span)]


def park_system(c: TurnContext) -> list[Hit]:
    """§7.6 PK-S (PK-Sa with a hotel name; PK-Sb when S is not asking about parking)."""
    i = c.s.find("parking")
    if i < 0:
        return []
    span = (i, i + len("parking"))
    if c.state.name("hotel"):
        return [c.system_hit(polarity(c.s, "parking", 5), "PK-Sa", *span)]
    asks = (any(p.search(c.s) for p in _PARK_Q_SYS) or "if you need parking" in c.s
            or "parking, or internet?" in c.s)
    return [] if asks else [c.system_hit(polarity(c.s, "parking", 5), "PK-Sb", *span)]


def internet_user(c: TurnContext) -> list[Hit]:
    """§7.7 IN-U (IN-Uq for questions and conditions)."""
    out = []
    for w in ("internet", "wifi"):
        i = c.u.find(w)
        if i < 0:
            continue
        if (not _any(c.u, (w + " or not", "whether", " if "))
                and not _NET_Q_USER.search(c.u)):
            out.append(c.user_hit(polarity(c.u, w, 5), "IN-U", i, i + len(w)))
        else:
            out.append(c.user_hit("yes", "IN-Uq", i, i + len(w)))
    return out


def internet_system(c: TurnContext) -> list[Hit]:
    """§7.7 IN-S (IN-Sa: polarity within 2 tokens with a hotel name; IN-Sb otherwise)."""
    out = []
    for w in ("internet", "wifi"):
        i = c.s.find(w)
        if i < 0:
            continue
        if c.state.name("hotel"):
            out.append(c.system_hit(polarity(c.s, w, 2), "IN-Sa", i, i + len(w)))
            continue
        asks = (re.search(re.escape(w) + r"[a-z ]*\?", c.s)
                or re.search(r"\(.*" + re.escape(w) + r"\)", c.s)
                or "if you need parking" in c.s or ("parking, or " + w + "?") in c.s)
        if not asks:
            out.append(c.system_hit(polarity(c.s, w, 5), "IN-Sb", i, i + len(w)))
    return out


# ===================================================================================== STARS
_STAR_CUE = re.compile(r"star[s ]")
_STARS = re.compile(r"(\d+)(?:-star| star)(?=[s ])")
_STAR_RATING = re.compile(r"star rating of (\d+)")


def stars_system(c: TurnContext) -> list[Hit]:
    """§7.8 STARS (ST-S: "<digits>-star"/"<digits> star"; ST-R: "star rating of <digits>")."""
    text = Mapped.of(c.s)
    if _STAR_CUE.search(c.s):
        for word, digit in NUMBER_WORDS.items():
            text = text.sub(r"(?<= )" + word + r"(?=[ -])", digit)
    out: list[Hit] = []
    seen: set[str] = set()
    for rule, pattern in (("ST-S", _STARS), ("ST-R", _STAR_RATING)):
        for m in pattern.finditer(text.text):
            v = m.group(1)
            if v not in seen:
                seen.add(v)
                out.append(c.system_hit(v, rule, *text.source_span(*m.span(1))))
        if out:
            break
    return out


# ====================================================================================== NAME
@functools.lru_cache(maxsize=16)
def _longest_first(pairs: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """Aliases longest first, so a name is reported with its longest matching surface."""
    return tuple(sorted(pairs, key=lambda p: (-len(p[0]), p)))


def _name_value(c: TurnContext, canon: str, where: str, start: int, end: int) -> str:
    if c.params.name_label == "surface":
        return (c.U if where == "user" else c.S)[start:end]
    return canon


def _name_user(domain: str) -> Callable[[TurnContext], list[Hit]]:
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


def _name_system(domain: str) -> Callable[[TurnContext], list[Hit]]:
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


def train_dep_user(c: TurnContext) -> list[Hit]:
    """§7.10 TD-U."""
    out = []
    for v in c.inv.stations:
        if " " + v in c.u and not c.state.value_in_state(v):
            span = _pattern_hit(c.u, _DEP, v)
            if span:
                out.append(c.user_hit(v, "TD-U", *span))
    return out


def train_dep_system(c: TurnContext) -> list[Hit]:
    """§7.10 TD-S."""
    out = []
    for v in c.inv.stations:
        if v in c.s and not c.state.value_in_state(v):
            span = _pattern_hit(c.s, _DEP, v)
            if span:
                out.append(c.system_hit(v, "TD-S", *span))
    return out


def train_dest_user(c: TurnContext) -> list[Hit]:
    """§7.10 TT-U (optionally requiring "train" in W_t)."""
    if c.params.train_dest_require_train_cue and "train" not in c.w:
        return []
    out = []
    for v in c.inv.stations:
        if v in c.u and not c.state.value_in_state(v):
            i = c.u.find("to " + v)
            if i >= 0:
                out.append(c.user_hit(v, "TT-U", i + 3, i + 3 + len(v)))
    return out


def train_dest_system(c: TurnContext) -> list[Hit]:
    """§7.10 TT-S."""
    out = []
    for v in c.inv.stations:
        if v in c.s and not c.state.value_in_state(v):
            span = _pattern_hit(c.s, _ARR, v)
            if span:
                out.append(c.system_hit(v, "TT-S", *span))
    return out


def taxi_dep_user(c: TurnContext) -> list[Hit]:
    """§7.10 XD-U."""
    out = []
    for v in c.inv.taxi_places:
        if " " + v in c.u and not c.state.value_in_state(v):
            span = _pattern_hit(c.u, _DEP, v)
            value = _resolve(c, v)
            if span and value:
                out.append(c.user_hit(value, "XD-U", *span))
    return out


def taxi_dep_system(c: TurnContext) -> list[Hit]:
    """§7.10 XD-S."""
    if "taxi" not in c.s:
        return []
    out = []
    for v in c.inv.taxi_places:
        if v in c.s and not c.state.value_in_state(v):
            span = _pattern_hit(c.s, _DEP, v)
            value = _resolve(c, v)
            if span and value:
                out.append(c.system_hit(value, "XD-S", *span))
    return out


def taxi_dest_user(c: TurnContext) -> list[Hit]:
    """§7.10 XT-U."""
    if "taxi" not in c.u:
        return []
    out = []
    for v in c.inv.taxi_places:
        if v in c.params.taxi_blocked_values:
            continue
        if v in c.u and not c.state.value_in_state(v):
            i = c.u.find("to " + v)
            value = _resolve(c, v)
            if i >= 0 and value:
                out.append(c.user_hit(value, "XT-U", i + 3, i + 3 + len(v)))
    return out


def taxi_dest_system(c: TurnContext) -> list[Hit]:
    """§7.10 XT-S."""
    if "taxi" not in c.s:
        return []
    out = []
    for v in c.inv.taxi_places:
        if v in c.params.taxi_blocked_values:
            continue
        if v in c.s and not c.state.value_in_state(v):
            span = _pattern_hit(c.s, _ARR_TAXI, v)
            value = _resolve(c, v)
            if span and value:
                out.append(c.system_hit(value, "XT-S", *span))
    return out


# ================================================================================= registry
Detector = Callable[[TurnContext], list[Hit]]


def _none(c: TurnContext) -> list[Hit]:
    return []


@dataclass(frozen=True)
class Family:
    """One rule family bound to one (domain, slot) (§3).

    Attributes:
        domain, slot: the corrected slot. family: family id (HTYPE, ATYPE, AREA-A, ...).
        scan: ``stop`` (stop at the first labeled turn) or ``skip`` (NAME, §4.5).
        user, system: detectors; system runs only when user found nothing.
        respell: write labels in the split's spelling (§2.3; categorical slots).
        span_slot: non-categorical slot that gets span annotations in the 2.2 layout (§6.5).
    """

    domain: str
    slot: str
    family: str
    user: Detector
    system: Detector
    scan: str = "stop"
    respell: bool = True
    span_slot: bool = False


FAMILIES: tuple[Family, ...] = (
    Family("attraction", "area", "AREA-A", _area_user("attraction"), area_attraction_system),
    Family("attraction", "name", "NAME", _name_user("attraction"), _name_system("attraction"),
           scan="skip", respell=False, span_slot=True),
    Family("attraction", "type", "ATYPE", atype_user, atype_system),
    Family("hotel", "area", "AREA-H", _area_user("hotel"), area_hotel_system),
    Family("hotel", "internet", "NET", internet_user, internet_system),
    Family("hotel", "name", "NAME", _name_user("hotel"), _name_system("hotel"),
           scan="skip", respell=False, span_slot=True),
    Family("hotel", "parking", "PARK", park_user, park_system),
    Family("hotel", "pricerange", "PRICE-H", price_hotel_user, price_hotel_system),
    Family("hotel", "stars", "STARS", _none, stars_system),
    Family("hotel", "type", "HTYPE", htype_user, htype_system),
    Family("restaurant", "area", "AREA-R", _area_user("restaurant"), area_restaurant_system),
    Family("restaurant", "food", "FOOD", food_user, food_system, respell=False, span_slot=True),
    Family("restaurant", "name", "NAME", _name_user("restaurant"), _name_system("restaurant"),
           scan="skip", respell=False, span_slot=True),
    Family("restaurant", "pricerange", "PRICE-R", price_restaurant_user,
           price_restaurant_system),
    Family("taxi", "departure", "TAXI-DEP", taxi_dep_user, taxi_dep_system, respell=False,
           span_slot=True),
    Family("taxi", "destination", "TAXI-DEST", taxi_dest_user, taxi_dest_system,
           respell=False, span_slot=True),
    Family("train", "departure", "TRAIN-DEP", train_dep_user, train_dep_system, respell=False,
           span_slot=True),
    Family("train", "destination", "TRAIN-DEST", train_dest_user, train_dest_system,
           respell=False, span_slot=True),
)
