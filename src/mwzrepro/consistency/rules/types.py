"""HTYPE (hotel-type, §7.1) and ATYPE (attraction-type, §7.2) rule families of the
annotation-consistency correction (spec-annotation-consistency; section numbers refer to that
spec). Rule ids: HT1–HT3; AT-U, AT-S, AT-M."""

from __future__ import annotations

from mwzrepro.consistency.context import Hit, TurnContext, first_span, has_any
from mwzrepro.consistency.text import normalize_value

__all__ = [
    "htype_user",
    "htype_system",
    "atype_user",
    "atype_system",
]

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
    return c.surface_hits(c.inv.attraction_types, "AT-U", "user")


def atype_system(c: TurnContext) -> list[Hit]:
    """§7.2 AT-S, then AT-M when two or more distinct types were found."""
    if has_any(c.w, ("parking", "leisure park", "park street", "parkside")):
        return []
    out = c.surface_hits(c.inv.attraction_types, "AT-S", "system")
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
