"""Value inventories and lexicons of the annotation-consistency correction
(spec-annotation-consistency §5) and the label speller (§2.3).

Inventories are built once, before scanning, from the MultiWOZ databases (``<domain>_db.json``)
and the MultiWOZ 2.1 ontology (cuisines only); they are deterministic and sorted (§5, D5).
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from mwzrepro.consistency.settings import CorrectionSettings
from mwzrepro.consistency.text import normalize_value
from mwzrepro.core.errors import ConfigError, InputError

__all__ = [
    "AREA_WORDS",
    "ATTRACTION_TYPE_LEXICON",
    "NUMBER_WORDS",
    "Inventories",
    "build_inventories",
    "load_databases",
    "load_ontology",
    "Labeller",
    "is_dontcare",
]

#: §5.5 area lexicon (plain substrings; "northern" yields north).
AREA_WORDS: tuple[str, ...] = ("centre", "west", "east", "south", "north")

#: §5.5 attraction-type surfaces → canonical value, in the order they are checked.
ATTRACTION_TYPE_LEXICON: tuple[tuple[str, str], ...] = (
    ("museum", "museum"), ("college", "college"), ("nightclub", "nightclub"),
    ("architecture", "architecture"), ("entertainment", "entertainment"),
    ("theatre", "theatre"), ("park", "park"), ("swimmingpool", "swimmingpool"),
    ("boat", "boat"), ("cinema", "cinema"), ("multiple sports", "multiple sports"),
    ("concerthall", "concerthall"), ("hiking", "hiking"), ("night club", "nightclub"),
    ("theater", "theatre"), ("swimming pool", "swimmingpool"),
    ("architectural", "architecture"), ("entertain", "entertainment"),
    ("concert hall", "concerthall"),
)

#: §5.5 number words for hotel stars.
NUMBER_WORDS: dict[str, str] = {
    "zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
    "seven": "7", "eight": "8", "nine": "9",
}

#: The domains whose database names form the name inventory (§5.1).
NAME_DOMAINS: tuple[str, ...] = ("attraction", "hotel", "restaurant")

_DONTCARE = frozenset({"dontcare", "dont care", "don't care", "do n't care", "do nt care"})


def is_dontcare(value: str) -> bool:
    """True for every spelling of "don't care" in MultiWOZ 2.0/2.1/2.2 (spec-dst-metrics §2.3)."""
    return value.strip().lower() in _DONTCARE


def load_databases(db_dir: str | Path) -> dict[str, list[dict[str, Any]]]:
    """Read ``attraction_db.json``, ``hotel_db.json``, ``restaurant_db.json`` and
    ``train_db.json`` from ``db_dir``.

    Returns:
        ``{domain: [record, ...]}`` with records as in the MultiWOZ database files.

    Raises:
        InputError: a database file is missing, unreadable or not a JSON list of objects
            (names the path).
    """
    out: dict[str, list[dict[str, Any]]] = {}
    for domain in (*NAME_DOMAINS, "train"):
        path = Path(db_dir) / f"{domain}_db.json"
        if not path.is_file():
            raise InputError(f"{path}: MultiWOZ database file not found")
        data = _read_json(path)
        if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
            raise InputError(f"{path}: expected a JSON list of records")
        out[domain] = data
    return out


def load_ontology(path: str | Path) -> dict[str, list[str]]:
    """Read a MultiWOZ ontology (``{"domain-slot": [values]}``, 2.1 ConvLab-2 layout).

    Raises:
        InputError: missing or unreadable file, or not a JSON object (names the path).
    """
    path = Path(path)
    if not path.is_file():
        raise InputError(f"{path}: ontology file not found")
    data = _read_json(path)
    if not isinstance(data, dict):
        raise InputError(f"{path}: expected a JSON object of value lists")
    return data


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"{path}: unreadable JSON: {exc}") from None


@dataclass(frozen=True)
class Inventories:
    """Everything the detectors look values up in (§5).

    Attributes:
        names: ``{domain: ((alias N-form, canonical name), ...)}`` for attraction, hotel and
            restaurant, sorted by alias then canonical (§5.1).
        canonical_names: ``{domain: (canonical name, ...)}`` (lowercased database names).
        attraction_type_by_name: ``{N(canonical attraction name): canonical type}`` (§7.2 AT-M).
        cuisines: restaurant-food lexicon (§5.2), sorted.
        stations: the train stations (§5.3), sorted.
        taxi_places: database names, stations and the reference phrases (§5.4), sorted.
        areas: ``((surface, label), ...)``, the lexicon plus ``area_extra_surfaces``.
        prices: ``((surface, label), ...)`` (§5.5).
        attraction_types: :data:`ATTRACTION_TYPE_LEXICON`.
        mask_names: N-forms of every entity name and alias, longest first (§7.3 masking).
        mask_addresses: lowercased database addresses, longest first (only when masked).
        restaurant_cue_names: N-forms of restaurant names and aliases (§7.3 R3b).
        restaurant_cue_words: generic R3b cues (plain substrings).
    """

    names: Mapping[str, tuple[tuple[str, str], ...]]
    canonical_names: Mapping[str, tuple[str, ...]]
    attraction_type_by_name: Mapping[str, str]
    cuisines: tuple[str, ...]
    stations: tuple[str, ...]
    taxi_places: tuple[str, ...]
    areas: tuple[tuple[str, str], ...]
    prices: tuple[tuple[str, str], ...]
    attraction_types: tuple[tuple[str, str], ...]
    mask_names: tuple[str, ...]
    mask_addresses: tuple[str, ...]
    restaurant_cue_names: tuple[str, ...]
    restaurant_cue_words: tuple[str, ...]

    def summary(self) -> dict[str, int]:
        """Inventory sizes, for the metrics JSON."""
        return {
            **{f"{d}_names": len(self.canonical_names[d]) for d in NAME_DOMAINS},
            **{f"{d}_aliases": len(self.names[d]) for d in NAME_DOMAINS},
            "cuisines": len(self.cuisines),
            "stations": len(self.stations),
            "taxi_places": len(self.taxi_places),
        }


def _atype_canonical(value: str) -> str:
    v = value.strip().lower()
    for surface, canon in ATTRACTION_TYPE_LEXICON:
        if v == surface:
            return canon
    return v


def build_inventories(
    databases: Mapping[str, Sequence[Mapping[str, Any]]],
    ontology: Mapping[str, Sequence[str]],
    params: CorrectionSettings,
) -> Inventories:
    """Build the §5 inventories.

    Args:
        databases: ``{domain: records}`` with at least attraction, hotel, restaurant and train
            (see :func:`load_databases`).
        ontology: the MultiWOZ 2.1 ontology; its ``restaurant-food`` (or
            ``restaurant-semi-food``) values join the cuisine lexicon (§5.2).
        params: uses ``name_seed_aliases``, ``strip_the_*``, ``name_blocklist``,
            ``food_min_chars``, ``food_blocklist``, ``area_extra_surfaces``, ``price_lexicon``,
            ``restaurant_cues_db_names``, ``restaurant_cues``.

    Raises:
        InputError: a database lacks a domain.
        ConfigError: a seed alias names a canonical name that is not in the database.
    """
    for d in (*NAME_DOMAINS, "train"):
        if d not in databases:
            raise InputError(f"database for domain {d!r} missing")
    block = {b.strip().lower() for b in params.name_blocklist}
    names: dict[str, tuple[tuple[str, str], ...]] = {}
    canonical: dict[str, tuple[str, ...]] = {}
    for d in NAME_DOMAINS:
        canon = sorted({str(r["name"]).strip().lower() for r in databases[d] if r.get("name")})
        canon = [c for c in canon if c not in block]
        pairs: set[tuple[str, str]] = set()
        for c in canon:
            pairs.add((normalize_value(c), c))
            if params.strip_the_enabled and c.startswith("the "):
                rest = c[4:]
                if (len(rest.split()) >= params.strip_the_min_tokens
                        or len(rest) >= params.strip_the_min_chars):
                    pairs.add((normalize_value(rest), c))
        for alias, target, dom in params.name_seed_aliases:
            if dom != d:
                continue
            target = target.strip().lower()
            if target not in canon:
                if target in block:
                    continue
                raise ConfigError(f"consistency.name_seed_aliases: seed alias {alias!r}: "
                                  f"{target!r} is not a {d} database name")
            pairs.add((normalize_value(alias), target))
        pairs = {(a, c) for a, c in pairs if a and a not in block}
        names[d] = tuple(sorted(pairs))
        canonical[d] = tuple(canon)

    atype = {normalize_value(str(r["name"])): _atype_canonical(str(r.get("type", "")))
             for r in databases["attraction"] if r.get("name")}

    food_key = "restaurant-food" if "restaurant-food" in ontology else "restaurant-semi-food"
    raw_foods = [str(r.get("food", "")) for r in databases["restaurant"]]
    raw_foods += [str(v) for v in ontology.get(food_key, [])]
    fblock = {f.strip().lower() for f in params.food_blocklist}
    cuisines = sorted({
        f for f in (v.strip().lower() for v in raw_foods)
        if f and not is_dontcare(f) and len(f) >= params.food_min_chars
        and "mentioned" not in f and f not in fblock
    })

    stations = sorted({str(r[k]).strip().lower() for r in databases["train"]
                       for k in ("departure", "destination") if r.get(k)})
    taxi = sorted({c for d in NAME_DOMAINS for c in canonical[d]} | set(stations)
                  | {"the hotel", "the restaurant"})

    areas = tuple((a, a) for a in AREA_WORDS) + tuple(
        (s.lower(), lab.lower()) for s, lab in params.area_extra_surfaces)
    mask_names = tuple(sorted({a for d in NAME_DOMAINS for a, _ in names[d]},
                              key=lambda x: (-len(x), x)))
    addresses = tuple(sorted({str(r["address"]).strip().lower() for d in NAME_DOMAINS
                              for r in databases[d] if r.get("address")},
                             key=lambda x: (-len(x), x)))
    cue_names = tuple(sorted({a for a, _ in names["restaurant"]})) \
        if params.restaurant_cues_db_names else ()
    return Inventories(
        names=names,
        canonical_names=canonical,
        attraction_type_by_name=atype,
        cuisines=tuple(cuisines),
        stations=tuple(stations),
        taxi_places=tuple(taxi),
        areas=areas,
        prices=tuple((s.lower(), lab.lower()) for s, lab in params.price_lexicon),
        attraction_types=ATTRACTION_TYPE_LEXICON,
        mask_names=mask_names,
        mask_addresses=addresses,
        restaurant_cue_names=cue_names,
        restaurant_cue_words=tuple(c.lower() for c in params.restaurant_cues),
    )


def _spelling_key(value: str) -> str:
    return re.sub(r"[^a-z0-9]", "", value.lower())


class Labeller:
    """Writes labels in the input split's own spelling (§2.3).

    For a categorical value, the label is the most frequent spelling, in the split's original
    states of the same (domain, slot), of the values with the same letters and digits
    (``night club`` and ``nightclub`` are one value); ties go to the alphabetically first
    spelling. Values that do not occur keep the given (MultiWOZ 2.2 schema) spelling.

    Args:
        states: the split's original ``states`` table (columns domain, slot, value).
    """

    def __init__(self, states: pd.DataFrame) -> None:
        counts: dict[tuple[str, str, str], Counter[str]] = defaultdict(Counter)
        for d, s, v in zip(states["domain"], states["slot"], states["value"]):
            if is_dontcare(v):
                continue
            counts[(d, s, _spelling_key(v))][v.strip().lower()] += 1
        self._best = {k: sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
                      for k, c in counts.items()}

    def __call__(self, domain: str, slot: str, value: str) -> str:
        """The split's spelling of ``value`` for (``domain``, ``slot``)."""
        return self._best.get((domain, slot, _spelling_key(value)), value)
