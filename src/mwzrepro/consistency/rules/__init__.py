"""The detection-rule families of the annotation-consistency correction
(spec-annotation-consistency §7; section numbers refer to that spec) and their registry
:data:`FAMILIES`, which binds each family to its corrected (domain, slot) (§3).

One module per family group, one function pair (user side, system side) per family:
:mod:`.types` (HTYPE, ATYPE), :mod:`.area` (AREA-A/H/R), :mod:`.price` (PRICE-R/H, FOOD),
:mod:`.hotel_facts` (PARK, NET, STARS); the entity families (NAME, TRAIN-DEP/DEST,
TAXI-DEP/DEST) are in :mod:`mwzrepro.consistency.entities`. A detector reads one
:class:`~mwzrepro.consistency.context.TurnContext` and returns
:class:`~mwzrepro.consistency.context.Hit` records. The scan skeleton and merging live in
:mod:`mwzrepro.consistency.detect`, carry-forward in :mod:`mwzrepro.consistency.correct`.

Rule ids (change log, §6.6): HT1–HT3; AT-U, AT-S, AT-M; A1, A2a, A2b, A2c, H1, H2, R1, R2,
R3a, R3b, AR-U (project extension, only with ``area_user_side``); PR-U, PR-Sa/b/c/n, PH-U,
PH-Sa/b/n; FD-U, FD-Sa/b/n; PK-U, PK-Uq, PK-Sa, PK-Sb; IN-U, IN-Uq, IN-Sa, IN-Sb; ST-S, ST-R;
NM-U, NM-S, NM-F; TD-U, TD-S, TT-U, TT-S, XD-U, XD-S, XT-U, XT-S.

Example:
    >>> len(FAMILIES), SCOPE[:2]
    (18, (('attraction', 'area'), ('attraction', 'name')))
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from mwzrepro.consistency.context import Hit, TurnContext
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
from mwzrepro.consistency.rules.area import (
    area_attraction_system,
    area_hotel_system,
    area_restaurant_system,
    area_user,
)
from mwzrepro.consistency.rules.hotel_facts import (
    internet_system,
    internet_user,
    park_system,
    park_user,
    stars_system,
)
from mwzrepro.consistency.rules.price import (
    food_system,
    food_user,
    price_hotel_system,
    price_hotel_user,
    price_restaurant_system,
    price_restaurant_user,
)
from mwzrepro.consistency.rules.types import atype_system, atype_user, htype_system, htype_user

__all__ = ["Detector", "Family", "FAMILIES", "SCOPE"]

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
    Family("attraction", "area", "AREA-A", area_user("attraction"), area_attraction_system),
    Family("attraction", "name", "NAME", name_user("attraction"), name_system("attraction"),
           scan="skip", respell=False, span_slot=True),
    Family("attraction", "type", "ATYPE", atype_user, atype_system),
    Family("hotel", "area", "AREA-H", area_user("hotel"), area_hotel_system),
    Family("hotel", "internet", "NET", internet_user, internet_system),
    Family("hotel", "name", "NAME", name_user("hotel"), name_system("hotel"),
           scan="skip", respell=False, span_slot=True),
    Family("hotel", "parking", "PARK", park_user, park_system),
    Family("hotel", "pricerange", "PRICE-H", price_hotel_user, price_hotel_system),
    Family("hotel", "stars", "STARS", _none, stars_system),
    Family("hotel", "type", "HTYPE", htype_user, htype_system),
    Family("restaurant", "area", "AREA-R", area_user("restaurant"), area_restaurant_system),
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


#: The corrected (domain, slot) pairs, one per family binding, in §3 order.
SCOPE: tuple[tuple[str, str], ...] = tuple((f.domain, f.slot) for f in FAMILIES)
