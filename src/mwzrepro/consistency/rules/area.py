"""AREA rule families (attraction, hotel and restaurant area, §7.3) of the annotation-consistency
correction (spec-annotation-consistency; section numbers refer to that spec). Area words are
searched in the masked system utterance S*_t. Rule ids: A1, A2a, A2b, A2c, H1, H2, R1, R2, R3a,
R3b, and AR-U (a project extension, only with ``area_user_side``)."""

from __future__ import annotations

from collections.abc import Callable

from mwzrepro.consistency.context import Hit, TurnContext, has_any

__all__ = [
    "area_attraction_system",
    "area_hotel_system",
    "area_restaurant_system",
    "area_user",
]

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


def area_user(domain: str) -> Callable[[TurnContext], list[Hit]]:
    """The AR-U detector of ``domain`` (see its docstring): ``TurnContext`` → hits."""
    def detect(c: TurnContext) -> list[Hit]:
        """AR-U, the project's optional user-side area rule (``area_user_side``; §7.3 leaves
        it undefined): an area word in the masked U_t when U_t names the domain."""
        if not c.params.area_user_side or not has_any(c.u, _AREA_USER_CUES[domain]):
            return []
        return [c.user_hit(label, "AR-U", i, j) for label, i, j in _area_words(c, c.u_masked)]

    return detect
