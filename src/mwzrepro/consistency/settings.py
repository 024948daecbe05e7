"""The settings of the annotation-consistency correction as its rules read them
(spec-annotation-consistency §10): :func:`correction_settings` converts the ``consistency``
block of ``params.yaml`` (:class:`~mwzrepro.consistency.params.ConsistencyParams`, the one
definition of every key) into the flat, parsed :class:`CorrectionSettings`;
:meth:`CorrectionSettings.profile` names every setting that differs from the reference
profile, as §10 requires for the counts report.

Example:
    >>> from mwzrepro.consistency.params import ConsistencyParams
    >>> s = correction_settings(ConsistencyParams())
    >>> s.price_lexicon[2], s.name_seed_aliases[0], s.profile_name()
    ((' expensive', 'expensive'), ('all saints', 'all saints church', 'attraction'), 'reference')
"""

from __future__ import annotations

import functools
from dataclasses import asdict, dataclass, fields
from typing import Any

from mwzrepro.consistency.overrides import Override, read_overrides
from mwzrepro.consistency.params import (
    ConsistencyParams,
    bar_list,
    bar_pairs,
    parse_seed_aliases,
)

__all__ = ["CorrectionSettings", "correction_settings"]


def correction_settings(params: ConsistencyParams) -> CorrectionSettings:
    """The settings the correction reads from the ``consistency`` block, lists parsed (the
    ``overrides_file`` is read).

    Raises:
        InputError: an unreadable overrides file (names the file and row).
    """
    strip, fuzzy = params.name_strip_leading_the, params.fuzzy_name_match
    mask, cues, sample = params.area_masking, params.restaurant_cues, params.verification_sample
    return CorrectionSettings(
        dontcare_policy=params.dontcare_policy,
        multi_value_policy=params.multi_value_policy,
        name_label=params.name_label,
        name_seed_aliases=parse_seed_aliases(params.name_seed_aliases),
        strip_the_enabled=strip.enabled,
        strip_the_min_tokens=strip.min_tokens,
        strip_the_min_chars=strip.min_chars,
        name_blocklist=bar_list(params.name_blocklist),
        fuzzy_enabled=fuzzy.enabled,
        fuzzy_domains=bar_list(fuzzy.domains),
        fuzzy_threshold=fuzzy.threshold,
        fuzzy_exclude=bar_list(params.fuzzy_exclude),
        food_min_chars=params.food_min_chars,
        food_blocklist=bar_list(params.food_blocklist),
        taxi_blocked_values=bar_list(params.taxi_blocked_values),
        area_user_side=params.area_user_side,
        area_extra_surfaces=bar_pairs(params.area_extra_surfaces),
        mask_entity_names=mask.entity_names,
        mask_street_phrases=mask.street_phrases,
        mask_addresses=mask.addresses,
        restaurant_cues_db_names=cues.db_names,
        restaurant_cues=bar_list(cues.extra),
        price_lexicon=bar_pairs(params.price_lexicon),
        atype_resolve_by_db=params.atype_resolve_by_db,
        require_no_rejection=params.require_no_rejection,
        rejection_cues=bar_list(params.rejection_cues),
        train_dest_require_train_cue=params.train_dest_require_train_cue,
        add_system_spans=params.add_system_spans,
        overrides=read_overrides(params.overrides_file) if params.overrides_file else (),
        verification_seed=params.verification_seed,
        verification_modified=sample.modified,
        verification_unmodified=sample.unmodified,
        verification_unit=sample.unit,
        verification_with_replacement=sample.with_replacement,
        verification_splits=bar_list(sample.splits),
    )


@dataclass(frozen=True)
class CorrectionSettings:
    """The §10 settings as the rules read them (built by :func:`correction_settings`;
    no defaults of its own).

    Nested keys are flattened with a prefix (``fuzzy_name_match`` → ``fuzzy_enabled``/
    ``fuzzy_domains``/``fuzzy_threshold``, ``name_strip_leading_the`` → ``strip_the_*``,
    ``area_masking`` → ``mask_*``, ``restaurant_cues`` → ``restaurant_cues_db_names`` +
    ``restaurant_cues``, ``verification_sample`` → ``verification_*``); lists are tuples,
    pairs ``(surface, label)``, seed aliases ``(alias, canonical, domain)``; ``overrides`` holds
    the parsed ``overrides_file``. These names are recorded in the outputs' metadata.
    """

    dontcare_policy: str
    multi_value_policy: str
    name_label: str
    name_seed_aliases: tuple[tuple[str, str, str], ...]
    strip_the_enabled: bool
    strip_the_min_tokens: int
    strip_the_min_chars: int
    name_blocklist: tuple[str, ...]
    fuzzy_enabled: bool
    fuzzy_domains: tuple[str, ...]
    fuzzy_threshold: int
    fuzzy_exclude: tuple[str, ...]
    food_min_chars: int
    food_blocklist: tuple[str, ...]
    taxi_blocked_values: tuple[str, ...]
    area_user_side: bool
    area_extra_surfaces: tuple[tuple[str, str], ...]
    mask_entity_names: bool
    mask_street_phrases: bool
    mask_addresses: bool
    restaurant_cues_db_names: bool
    restaurant_cues: tuple[str, ...]
    price_lexicon: tuple[tuple[str, str], ...]
    atype_resolve_by_db: bool
    require_no_rejection: bool
    rejection_cues: tuple[str, ...]
    train_dest_require_train_cue: bool
    add_system_spans: bool
    overrides: tuple[Override, ...]
    verification_seed: int
    verification_modified: int
    verification_unmodified: int
    verification_unit: str
    verification_with_replacement: bool
    verification_splits: tuple[str, ...]

    @staticmethod
    def reference() -> CorrectionSettings:
        """The reference profile (the defaults of
        :class:`~mwzrepro.consistency.params.ConsistencyParams`)."""
        return _reference()

    def profile(self) -> dict[str, Any]:
        """``{key: value}`` of every setting that differs from the reference profile (§10);
        ``{}`` for the reference profile. ``overrides`` is reported as its length."""
        ref = _reference()
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


@functools.lru_cache(maxsize=1)
def _reference() -> CorrectionSettings:
    return correction_settings(ConsistencyParams())


def _plain(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    return v
