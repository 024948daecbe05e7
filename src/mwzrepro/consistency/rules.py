"""The ten detection-rule families of the annotation-consistency correction
(spec-annotation-consistency §7) and their registry :data:`FAMILIES` (§3).

This module holds the categorical families — HTYPE, ATYPE, AREA-A/H/R, PRICE-R/H, FOOD, PARK,
NET, STARS — one function pair (user side, system side) each; the entity families (NAME,
TRAIN-DEP/DEST, TAXI-DEP/DEST) are in :mod:`mwzrepro.consistency.entities`. A detector reads
one :class:`~mwzrepro.consistency.context.TurnContext` and returns
:class:`~mwzrepro.consistency.context.Hit` records. The scan skeleton, merging and
carry-forward live in :mod:`mwzrepro.consistency.correct`.

Rule ids (change log, §6.6): HT1–HT3; AT-U, AT-S, AT-M; A1, A2a, A2b, A2c, H1, H2, R1, R2,
R3a, R3b, AR-U (project extension, only with ``area_user_side``); PR-U, PR-Sa/b/c/n, PH-U,
PH-Sa/b/n; FD-U, FD-Sa/b/n; PK-U, PK-Uq, PK-Sa, PK-Sb; IN-U, IN-Uq, IN-Sa, IN-Sb; ST-S, ST-R;
NM-U, NM-S, NM-F; TD-U, TD-S, TT-U, TT-S, XD-U, XD-S, XT-U, XT-S.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from mwzrepro.consistency.context import (
    USER_SEP,
    Hit,
    TurnContext,
    VisibleState,
    first_span,
    has_any,
)
from mwzrepro.consistency.entities import (
    name_system,
    name_user,
    taxi_dep_system,
    taxi_dep_user,
    taxi_dest_system,
    taxi_dest_user,
    train_dep_system,
    train_dep_user,
    train_dest_system,
    train_dest_user,
)
from mwzrepro.consistency.lexicons import NUMBER_WORDS
from mwzrepro.consistency.text import Mapped, normalize_value, polarity, word_matches

__all__ = ["Hit", "TurnContext", "VisibleState", "Family", "FAMILIES", "USER_SEP"]

# ===================================================================================== HTYPE
_GH = ("guesthouse", "guest house")


def htype_user(c: TurnContext) -> list[Hit]:
    """§7.1 HT1 (guesthouse from U) and HT2 (generic "hotel" in U)."""
    gh_w = has_any(c.w, _GH)
    if "hotel" not in c.w and has_any(c.u, _GH):
        return [c.user_hit("guesthouse", "HT1", *first_span(c.u, _GH))]
    if "hotel" in c.u and not gh_w:
        blocked = (
            ("the hotel" in c.w
             and not ("the hotel should" in c.u or "looking for the hotel" in c.u))
            or has_any(c.w, ("car ", "taxi", "type"))
        )
        if not blocked:
            return [c.user_hit("hotel", "HT2", *first_span(c.u, ("hotel",)))]
    return []


def htype_system(c: TurnContext) -> list[Hit]:
    """§7.1 HT3 (generic "hotel" in S)."""
    if ("hotel" in c.s and not has_any(c.w, _GH)
            and not has_any(c.w, ("the hotel", "that hotel", "taxi"))):
        return [c.system_hit("hotel", "HT3", *first_span(c.s, ("hotel",)))]
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
    if has_any(c.w, ("parking", "leisure park", "park street", "parkside")):
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
              and not has_any(c.s, ("restaurant", "hotel", "house", "book"))):
            if has_any(c.s, _ATTRACTION_CUES):
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
    if has_any(c.s, c.inv.restaurant_cue_words) or has_any(c.wp, c.inv.restaurant_cue_words):
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
        elif not has_any(c.s, _R3_BLOCK):
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
        if not c.params.area_user_side or not has_any(c.u, _AREA_USER_CUES[domain]):
            return []
        return [c.user_hit(label, "AR-U", i, j) for label, i, j in _area_words(c, c.u_masked)]

    return detect


# ===================================================================================== PRICE
def _user_price_hits(c: TurnContext, rule: str) -> list[Hit]:
    """Price words of the user utterance whose value is not already in the state."""
    out = []
    for surface, label in c.inv.prices:
        i = c.u.find(surface)
        if i >= 0 and not c.state.value_in_state(surface.strip()):
            out.append(c.user_hit(label, rule, i, i + len(surface)))
    return out


def price_restaurant_user(c: TurnContext) -> list[Hit]:
    """§7.4 PR-U."""
    if "guest" in c.w:
        return []
    return _user_price_hits(c, "PR-U")


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
    return _user_price_hits(c, "PH-U")


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
            elif not has_any(c.s, ("dine", "cuisine", "steakhouse", "restaurant")):
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
    if not has_any(c.u, ("parking or not", "whether", " if ")) and not _PARK_Q_USER.search(c.u):
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
        if (not has_any(c.u, (w + " or not", "whether", " if "))
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
    Family("attraction", "name", "NAME", name_user("attraction"), name_system("attraction"),
           scan="skip", respell=False, span_slot=True),
    Family("attraction", "type", "ATYPE", atype_user, atype_system),
    Family("hotel", "area", "AREA-H", _area_user("hotel"), area_hotel_system),
    Family("hotel", "internet", "NET", internet_user, internet_system),
    Family("hotel", "name", "NAME", name_user("hotel"), name_system("hotel"),
           scan="skip", respell=False, span_slot=True),
    Family("hotel", "parking", "PARK", park_user, park_system),
    Family("hotel", "pricerange", "PRICE-H", price_hotel_user, price_hotel_system),
    Family("hotel", "stars", "STARS", _none, stars_system),
    Family("hotel", "type", "HTYPE", htype_user, htype_system),
    Family("restaurant", "area", "AREA-R", _area_user("restaurant"), area_restaurant_system),
    Family("restaurant", "food", "FOOD", food_user, food_system, respell=False, span_slot=True),
    Family("restaurant", "name", "NAME", name_user("restaurant"), name_system("restaurant"),
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
