"""The data of the reference evaluator's dialogue-state normalization
(spec-standard-evaluation §4, the normative 2022-06-10 behaviour of MultiWOZ_Evaluation): the
slots each value rule applies to (§4.2) and the exact-match rule tables of names (§4.3),
types (§4.4), foods (§4.5) and times (§4.6), as tuples of (input, output) in the spec's order,
checked for duplicate inputs at import time. The rules that read them are in
:mod:`mwzrepro.core.normalize_state`.

>>> NAME_MAP["christs"], FOOD_MAP["english"], TIME_EXACT_MAP["noon"]
("christ's college", 'british', '12:00')
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = [
    "NAME_SLOTS",
    "TIME_SLOTS",
    "YES_FREE_SLOTS",
    "NAME_RULES",
    "TYPE_RULES",
    "FOOD_RULES",
    "TIME_EXACT_RULES",
    "TIME_PREFIX_RULES",
    "NAME_MAP",
    "TYPE_MAP",
    "FOOD_MAP",
    "TIME_EXACT_MAP",
    "rule_dict",
]

#: Slots whose value is a venue or place name (§4.2): name canonicalization (§4.3) for every
#: domain, taxi and train included.
NAME_SLOTS = frozenset({"name", "destination", "departure"})

#: Slots whose value is a time of day (§4.2): time canonicalization (§4.6). The MultiWOZ 2.2
#: names ``booktime``/``bookday``/``bookpeople`` are deliberately absent.
TIME_SLOTS = frozenset({"arrive", "leave", "arriveby", "leaveat", "time"})

#: Slots whose exact value ``free`` becomes ``yes`` (§4.7).
YES_FREE_SLOTS = frozenset({"parking", "internet"})

#: §4.3 step 4: exact-match rules on the name after steps 1–3, in the spec's order
#: (group restaurant, then hotel, then attraction; all groups apply, the domain is never known).
NAME_RULES: tuple[tuple[str, str], ...] = (
    # restaurant
    ("hotel du vin bistro", "hotel du vin and bistro"),
    ("the river bar and grill", "the river bar steakhouse and grill"),
    ("nando's", "nandos"),
    ("city center b and b", "city center north b and b"),
    ("acorn house", "acorn guest house"),
    ("caffee uno", "caffe uno"),
    ("cafe uno", "caffe uno"),
    ("rosa's", "rosas bed and breakfast"),
    ("restaurant called two two", "restaurant two two"),
    ("restaurant 2 two", "restaurant two two"),
    ("restaurant two 2", "restaurant two two"),
    ("restaurant 2 2", "restaurant two two"),
    ("restaurant 1 7", "restaurant one seven"),
    ("restaurant 17", "restaurant one seven"),
    # hotel
    ("lime house", "limehouse"),
    ("cityrooms", "cityroomz"),
    ("whale of time", "whale of a time"),
    ("huntingdon hotel", "huntingdon marriott hotel"),
    ("holiday inn exlpress, cambridge", "express by holiday inn cambridge"),
    ("university hotel", "university arms hotel"),
    ("arbury guesthouse and lodge", "arbury lodge guesthouse"),
    ("bridge house", "bridge guest house"),
    ("arbury guesthouse", "arbury lodge guesthouse"),
    ("nandos in the city centre", "nandos city centre"),
    # attraction
    ("broughton gallery", "broughton house gallery"),
    ("scudamores punt co", "scudamores punting co"),
    ("cambridge botanic gardens", "cambridge university botanic gardens"),
    ("the junction", "junction theatre"),
    ("trinity street college", "trinity college"),
    ("christ college", "christ's college"),
    ("christs", "christ's college"),
    ("history of science museum", "whipple museum of the history of science"),
    ("parkside pools", "parkside swimming pool"),
    ("the botanical gardens at cambridge university", "cambridge university botanic gardens"),
    ("cafe jello museum", "cafe jello gallery"),
)

#: §4.4: exact match on the raw value (no stripping, no lowercasing).
TYPE_RULES: tuple[tuple[str, str], ...] = (
    ("swimming pool", "swimmingpool"),
    ("mutliple sports", "multiple sports"),
    ("night club", "nightclub"),
    ("guest house", "guesthouse"),
)

#: §4.5: exact match on the stripped, lowercased value.
FOOD_RULES: tuple[tuple[str, str], ...] = (
    ("eriterean", "mediterranean"),
    ("brazilian", "portuguese"),
    ("sea food", "seafood"),
    ("portugese", "portuguese"),
    ("modern american", "north american"),
    ("americas", "north american"),
    ("intalian", "italian"),
    ("italain", "italian"),
    ("asian or oriental", "asian"),
    ("english", "british"),
    ("australasian", "australian"),
    ("gastropod", "gastropub"),
    ("brutish", "british"),
    ("bristish", "british"),
    ("europeon", "european"),
)

#: §4.6 step 2: whole-string special cases (exact match after strip + lowercase) ...
TIME_EXACT_RULES: tuple[tuple[str, str], ...] = (
    ("afternoon", "13:00"),
    ("lunch", "12:00"),
    ("noon", "12:00"),
    ("mid-day", "12:00"),
    ("around lunch time", "12:00"),
    ("morning", "08:00"),
    ("seven o'clock tomorrow evening", "07:00"),  # (quirk) evening → 07:00
    ("three forty five p.m", "15:45"),
    ("one thirty p.m.", "13:30"),
    ("six fourty five", "06:45"),
    ("eight thirty", "08:30"),
)
#: ... and prefix special cases (``str.startswith``).
TIME_PREFIX_RULES: tuple[tuple[str, str], ...] = (
    ("one o'clock p.m", "13:00"),
    ("ten o'clock a.m", "10:00"),
)


def rule_dict(rules: tuple[tuple[str, str], ...], table: str) -> dict[str, str]:
    """``dict(rules)``, refusing duplicate inputs (first match = only match)."""
    out: dict[str, str] = {}
    for source, target in rules:
        if source in out:
            raise AssertionError(f"duplicate input {source!r} in {table}")
        out[source] = target
    return out


#: The tables above as ``{input: output}`` (what the rules look up).
NAME_MAP: Mapping[str, str] = rule_dict(NAME_RULES, "NAME_RULES")
TYPE_MAP: Mapping[str, str] = rule_dict(TYPE_RULES, "TYPE_RULES")
FOOD_MAP: Mapping[str, str] = rule_dict(FOOD_RULES, "FOOD_RULES")
TIME_EXACT_MAP: Mapping[str, str] = rule_dict(TIME_EXACT_RULES, "TIME_EXACT_RULES")
