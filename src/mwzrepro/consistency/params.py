"""Parameters of the annotation-consistency correction (spec-annotation-consistency §10).

:class:`ConsistencyParams` holds every key of §10 with its default; the defaults are the
"reference profile". The CLI builds it from explicit options (the pipeline passes the
``consistency`` block of ``params.yaml``); the library never reads a parameter file.
:meth:`ConsistencyParams.profile` names every setting that differs from the reference profile,
as §10 requires for the counts report.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any

__all__ = [
    "ConsistencyParams",
    "Override",
    "DEFAULT_SEED_ALIASES",
    "DEFAULT_PRICE_LEXICON",
    "DEFAULT_REJECTION_CUES",
    "DEFAULT_RESTAURANT_CUES",
]

#: §5.1 seed alias table: (alias, canonical name, domain).
DEFAULT_SEED_ALIASES: tuple[tuple[str, str, str], ...] = (
    ("all saints", "all saints church", "attraction"),
    ("marriott", "huntingdon marriott hotel", "hotel"),
    ("alexander b & b", "alexander bed and breakfast", "hotel"),
    ("rosa's bed and breakfast", "rosa's bed and breakfast", "hotel"),
    ("travelers rest", "travellers rest", "restaurant"),
    ("caffe uno", "caffe uno", "restaurant"),
)

#: §5.5 price surfaces → labels (the leading space of " expensive" is significant; D9).
DEFAULT_PRICE_LEXICON: tuple[tuple[str, str], ...] = (
    ("cheap", "cheap"),
    ("moderate", "moderate"),
    (" expensive", "expensive"),
    ("inexpensive", "moderate"),
)

#: §6.2 rejection cues (used only when ``require_no_rejection`` is true).
DEFAULT_REJECTION_CUES: tuple[str, ...] = (
    "something else", "another one", "anything else", "different", "no,", "not that",
)

#: §7.3 R3b generic restaurant cues (added to the restaurant database names and aliases).
DEFAULT_RESTAURANT_CUES: tuple[str, ...] = (
    "bistro", "noodle", "cafe", "cuisine", "dine in", "restuarant",
)


@dataclass(frozen=True)
class Override:
    """One forced decision of an ``overrides_file`` (§10): at user turn ``turn`` of
    ``dialogue_id`` the detection for (``domain``, ``slot``) is ``[value]``, or nothing when
    ``value`` is ``"none"``."""

    dialogue_id: str
    turn: int
    domain: str
    slot: str
    value: str


@dataclass(frozen=True)
class ConsistencyParams:
    """Every parameter of spec-annotation-consistency §10 (defaults = reference profile).

    Attributes mirror the §10 keys; nested keys are flattened with a prefix
    (``fuzzy_name_match`` → ``fuzzy_enabled``/``fuzzy_domains``/``fuzzy_threshold``,
    ``name_strip_leading_the`` → ``strip_the_enabled``/``strip_the_min_tokens``/
    ``strip_the_min_chars``, ``area_masking`` → ``mask_*``, ``restaurant_cues`` →
    ``restaurant_cues_db_names`` + ``restaurant_cues``, ``verification_sample`` →
    ``verification_*``). ``overrides`` holds the parsed ``overrides_file``.
    """

    dontcare_policy: str = "fill"
    multi_value_policy: str = "alternatives"
    name_label: str = "canonical"
    name_seed_aliases: tuple[tuple[str, str, str], ...] = DEFAULT_SEED_ALIASES
    strip_the_enabled: bool = True
    strip_the_min_tokens: int = 2
    strip_the_min_chars: int = 6
    name_blocklist: tuple[str, ...] = ()
    fuzzy_enabled: bool = True
    fuzzy_domains: tuple[str, ...] = ("restaurant",)
    fuzzy_threshold: int = 90
    fuzzy_exclude: tuple[str, ...] = ("j restaurant",)
    food_min_chars: int = 4
    food_blocklist: tuple[str, ...] = ("local",)
    taxi_blocked_values: tuple[str, ...] = ("cambridge",)
    area_user_side: bool = False
    area_extra_surfaces: tuple[tuple[str, str], ...] = ()
    mask_entity_names: bool = True
    mask_street_phrases: bool = True
    mask_addresses: bool = False
    restaurant_cues_db_names: bool = True
    restaurant_cues: tuple[str, ...] = DEFAULT_RESTAURANT_CUES
    price_lexicon: tuple[tuple[str, str], ...] = DEFAULT_PRICE_LEXICON
    atype_resolve_by_db: bool = True
    require_no_rejection: bool = False
    rejection_cues: tuple[str, ...] = DEFAULT_REJECTION_CUES
    train_dest_require_train_cue: bool = False
    add_system_spans: bool = False
    overrides: tuple[Override, ...] = field(default=())
    verification_seed: int = 0
    verification_modified: int = 100
    verification_unmodified: int = 100
    verification_unit: str = "turn"
    verification_with_replacement: bool = False
    verification_splits: tuple[str, ...] = ("train", "val")

    def __post_init__(self) -> None:
        choices = {
            "dontcare_policy": ("fill", "keep"),
            "multi_value_policy": ("alternatives", "skip", "first"),
            "name_label": ("canonical", "surface"),
            "verification_unit": ("turn", "dialogue"),
        }
        for key, allowed in choices.items():
            if getattr(self, key) not in allowed:
                raise ValueError(f"consistency parameter {key}={getattr(self, key)!r}: "
                                 f"expected one of {list(allowed)}")
        if not 0 <= self.fuzzy_threshold <= 100:
            raise ValueError(f"fuzzy_threshold={self.fuzzy_threshold}: expected 0..100")
        for key in ("food_min_chars", "strip_the_min_tokens", "strip_the_min_chars",
                    "verification_modified", "verification_unmodified"):
            if getattr(self, key) < 0:
                raise ValueError(f"consistency parameter {key} must be >= 0")

    def profile(self) -> dict[str, Any]:
        """``{key: value}`` of every setting that differs from the reference profile (§10);
        ``{}`` for the reference profile. ``overrides`` is reported as its length."""
        ref = ConsistencyParams()
        out: dict[str, Any] = {}
        for f in fields(self):
            mine, theirs = getattr(self, f.name), getattr(ref, f.name)
            if mine != theirs:
                out[f.name] = len(mine) if f.name == "overrides" else _plain(mine)
        return out

    def profile_name(self) -> str:
        """``reference`` or ``custom(<key>,<key>...)`` for signatures."""
        diff = self.profile()
        return "reference" if not diff else "custom(" + ",".join(sorted(diff)) + ")"

    def to_dict(self) -> dict[str, Any]:
        """All settings as JSON-ready values (overrides as their count)."""
        d = asdict(self)
        d["overrides"] = len(self.overrides)
        return {k: _plain(v) for k, v in d.items()}

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], overrides: tuple[Override, ...] = ()
                     ) -> ConsistencyParams:
        """Build from a §10-shaped mapping (nested keys as in ``params.yaml``).

        Raises:
            ValueError: an unknown key or an invalid value.
        """
        data = dict(data)
        kw: dict[str, Any] = {}

        def take(key: str) -> Any:
            return data.pop(key)

        nested = {
            "fuzzy_name_match": {"enabled": "fuzzy_enabled", "domains": "fuzzy_domains",
                                 "threshold": "fuzzy_threshold"},
            "name_strip_leading_the": {"enabled": "strip_the_enabled",
                                       "min_tokens": "strip_the_min_tokens",
                                       "min_chars": "strip_the_min_chars"},
            "area_masking": {"entity_names": "mask_entity_names",
                             "street_phrases": "mask_street_phrases",
                             "addresses": "mask_addresses"},
            "restaurant_cues": {"db_names": "restaurant_cues_db_names",
                                "extra": "restaurant_cues"},
            "verification_sample": {"modified": "verification_modified",
                                    "unmodified": "verification_unmodified",
                                    "unit": "verification_unit",
                                    "with_replacement": "verification_with_replacement",
                                    "splits": "verification_splits"},
        }
        for key, sub in nested.items():
            if key in data:
                block = take(key) or {}
                unknown = set(block) - set(sub)
                if unknown:
                    raise ValueError(f"consistency parameter {key}: unknown keys {sorted(unknown)}")
                for k, attr in sub.items():
                    if k in block:
                        kw[attr] = block[k]
        if "name_seed_aliases" in data:
            kw["name_seed_aliases"] = tuple(
                (a["alias"], a["canonical"], a["domain"]) if isinstance(a, Mapping) else tuple(a)
                for a in take("name_seed_aliases") or ()
            )
        if "price_lexicon" in data:
            kw["price_lexicon"] = _pairs(take("price_lexicon"), "surface", "label")
        if "area_extra_surfaces" in data:
            kw["area_extra_surfaces"] = _pairs(take("area_extra_surfaces"), "surface", "label")
        data.pop("overrides_file", None)  # read by the CLI, passed as ``overrides``
        names = {f.name for f in fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise ValueError(f"unknown consistency parameters: {sorted(unknown)}")
        kw.update(data)
        for f in fields(cls):
            if f.name in kw and isinstance(getattr(cls(), f.name), tuple):
                kw[f.name] = tuple(kw[f.name] or ())
        return cls(**kw, overrides=tuple(overrides))


def _pairs(items: Any, a: str, b: str) -> tuple[tuple[str, str], ...]:
    out = []
    for it in items or ():
        if isinstance(it, Mapping):
            out.append((str(it[a]), str(it[b])))
        elif isinstance(it, str) and "->" in it:
            x, y = it.split("->", 1)
            out.append((x, y))
        else:
            x, y = it
            out.append((str(x), str(y)))
    return tuple(out)


def _plain(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    return v
