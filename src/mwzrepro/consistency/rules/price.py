"""PRICE (hotel and restaurant pricerange, §7.4) and FOOD (restaurant-food, §7.5) rule families
of the annotation-consistency correction (spec-annotation-consistency; section numbers refer to
that spec): the lexicon-driven families. Rule ids: PR-U, PR-Sa/b/c/n, PH-U, PH-Sa/b/n; FD-U,
FD-Sa/b/n."""

from __future__ import annotations

from collections.abc import Sequence

from mwzrepro.consistency.context import Hit, TurnContext, has_any
from mwzrepro.consistency.text import word_matches

__all__ = [
    "price_restaurant_user",
    "price_restaurant_system",
    "price_hotel_user",
    "price_hotel_system",
    "food_user",
    "food_system",
]

# ===================================================================================== PRICE
def _user_price_hits(c: TurnContext, rule: str) -> list[Hit]:
    """Price words of the user utterance whose value is not already in the state."""
    return c.surface_hits(c.inv.prices, rule, "user",
                          unless=lambda surface: c.state.value_in_state(surface.strip()))


def price_restaurant_user(c: TurnContext) -> list[Hit]:
    """§7.4 PR-U."""
    if "guest" in c.w:
        return []
    return _user_price_hits(c, "PR-U")


def _system_price_hits(c: TurnContext, rule: str | None) -> list[Hit]:
    """One system-side hit per price surface of ``c.inv.prices`` found in S_t, all under
    ``rule`` (the branch does not depend on the surface); none when ``rule`` is None."""
    if not rule:
        return []
    return c.surface_hits(c.inv.prices, rule, "system")


def price_restaurant_system(c: TurnContext) -> list[Hit]:
    """§7.4 PR-S (branches a, b, c; n when no restaurant name)."""
    n = c.state.name("restaurant")
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
    return _system_price_hits(c, rule)


def price_hotel_user(c: TurnContext) -> list[Hit]:
    """§7.4 PH-U."""
    if "how expensive" in c.u or "cheapest" in c.u:
        return []
    return _user_price_hits(c, "PH-U")


def price_hotel_system(c: TurnContext) -> list[Hit]:
    """§7.4 PH-S (branches a, b; n when no hotel name)."""
    n = c.state.name("hotel")
    rule = None
    if n:
        if n in c.s:
            rule = "PH-Sa"
        elif not has_any(c.s, ("dine", "cuisine", "steakhouse", "restaurant")):
            rule = "PH-Sb"
    elif "restaurant" not in c.s and "hotel" in c.state.domains:
        rule = "PH-Sn"
    return _system_price_hits(c, rule)


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
