"""PARK (hotel-parking, §7.6), NET (hotel-internet, §7.7) and STARS (hotel-stars, §7.8) rule
families of the annotation-consistency correction (spec-annotation-consistency; section numbers
refer to that spec). Rule ids: PK-U, PK-Uq, PK-Sa, PK-Sb; IN-U, IN-Uq, IN-Sa, IN-Sb; ST-S,
ST-R."""

from __future__ import annotations

import re

from mwzrepro.consistency.context import Hit, TurnContext, has_any
from mwzrepro.consistency.lexicons import NUMBER_WORDS
from mwzrepro.consistency.text import Mapped, polarity

__all__ = [
    "park_user",
    "park_system",
    "internet_user",
    "internet_system",
    "stars_system",
]

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
