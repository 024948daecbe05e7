"""Parameters of the annotation-consistency correction: the ``consistency`` block of
``params.yaml`` (spec-annotation-consistency §10; section numbers refer to that spec).

:class:`ConsistencyParams` is the one definition of every key of the block — its default (the
spec's "reference profile"), validation and description — with the block's nesting
(``name_strip_leading_the``, ``fuzzy_name_match``, ``area_masking``, ``restaurant_cues``,
``verification_sample``). The CLI options of ``correct``, ``tables-consistency``,
``consistency-sample`` and ``tables-consistency-dst`` are derived from it
(:func:`mwzrepro.core.params.click_options`). Lists are one string with ``|`` between items
(``""`` for none), pairs ``surface=label``, seed aliases ``alias=canonical@domain``, so that
Snakemake and DVC render the same command line. The list defaults are rendered from the
``DEFAULT_*`` constants below, their single definition.

:meth:`ConsistencyParams.correction` converts the block into the flat, parsed
:class:`CorrectionSettings` the rules read; :meth:`CorrectionSettings.profile` names every
setting that differs from the reference profile, as §10 requires for the counts report.

Example:
    >>> p = ConsistencyParams()
    >>> p.name_strip_leading_the.min_chars, p.price_lexicon.split("|")[2]
    (6, ' expensive=expensive')
    >>> s = p.correction()
    >>> s.price_lexicon[2], s.name_seed_aliases[0], s.profile_name()
    ((' expensive', 'expensive'), ('all saints', 'all saints church', 'attraction'), 'reference')
    >>> from mwzrepro.core.params import validate_block
    >>> validate_block(ConsistencyParams, {"fuzzy_name_match": {"threshold": 101}}, "consistency")
    Traceback (most recent call last):
    ...
    mwzrepro.core.errors.ConfigError: consistency.fuzzy_name_match.threshold: Input should be less than or equal to 100 (got 101)
"""

from __future__ import annotations

import functools
from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

from pydantic import Field, field_validator

from mwzrepro.consistency.overrides import Override, read_overrides
from mwzrepro.core.errors import ConfigError
from mwzrepro.core.params import STRUCTURAL, ParamsModel, parse_list, parse_pairs
from mwzrepro.core.venue_aliases import DEFAULT_SEED_ALIASES

__all__ = [
    "ConsistencyParams",
    "CorrectionSettings",
    "NameStripLeadingThe",
    "FuzzyNameMatch",
    "AreaMasking",
    "RestaurantCues",
    "VerificationSample",
    "parse_seed_aliases",
    "DEFAULT_SEED_ALIASES",
    "DEFAULT_PRICE_LEXICON",
    "DEFAULT_REJECTION_CUES",
    "DEFAULT_RESTAURANT_CUES",
]

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


def _bar(text: str) -> tuple[str, ...]:
    """Items of a ``|``-separated list, verbatim (a leading space may be significant)."""
    return parse_list(text, "|", strip=False)


def _pairs(text: str) -> tuple[tuple[str, str], ...]:
    return parse_pairs(text, "|", strip=False)


def parse_seed_aliases(text: str) -> tuple[tuple[str, str, str], ...]:
    """``"alias=canonical@domain|..."`` → ``((alias, canonical, domain), ...)`` (§5.1).

    >>> parse_seed_aliases("caffe uno=caffe uno@restaurant")
    (('caffe uno', 'caffe uno', 'restaurant'),)

    Raises:
        ConfigError: an item is not ``alias=canonical@domain``.
    """
    out = []
    for item in _bar(text):
        alias, sep, rest = item.partition("=")
        canonical, sep2, domain = rest.rpartition("@")
        if not (sep and sep2 and alias and canonical and domain):
            raise ConfigError(f"seed alias {item!r}: expected alias=canonical@domain")
        out.append((alias, canonical, domain))
    return tuple(out)


class NameStripLeadingThe(ParamsModel):
    """§5.1: also match a name without its leading "the" when the rest is long enough."""

    enabled: bool = Field(True, description="§5.1: also match a name without its leading "
                                            "\"the\".")
    min_tokens: int = Field(2, ge=0, description="§5.1: strip when the rest has at least this "
                                                 "many tokens ...")
    min_chars: int = Field(6, ge=0, description="... or at least this many characters.")


class FuzzyNameMatch(ParamsModel):
    """§7.9 NM-F: fuzzy partial-ratio name matching on S_t."""

    enabled: bool = Field(True, description="§7.9 NM-F on/off.")
    domains: str = Field("restaurant", description="§7.9 NM-F domains \"a|b\".")
    threshold: int = Field(90, ge=0, le=100, description="§7.9 NM-F partial-ratio threshold "
                                                         "(0-100).")


class AreaMasking(ParamsModel):
    """§7.3: what is masked in S_t before area words are searched."""

    entity_names: bool = Field(True, description="§7.3: mask entity names.")
    street_phrases: bool = Field(True, description="§7.3: mask street phrases.")
    addresses: bool = Field(False, description="§7.3: mask database addresses.")


class RestaurantCues(ParamsModel):
    """§7.3 R3b: restaurant cues = database names (db_names) plus extra words."""

    db_names: bool = Field(True, description="§7.3 R3b: restaurant database names are cues.")
    extra: str = Field("|".join(DEFAULT_RESTAURANT_CUES),
                       description="§7.3 R3b: generic cue words \"a|b\".")


class VerificationSample(ParamsModel):
    """§9.3 Table 3 sampling: sizes, unit, replacement, splits and their dataset version."""

    modified: int = Field(100, ge=0, description="§9.3: modified units drawn.")
    unmodified: int = Field(100, ge=0, description="§9.3: unmodified units drawn.")
    unit: Literal["turn", "dialogue"] = Field("turn", description="§9.3: turn or dialogue.")
    with_replacement: bool = Field(False, description="§9.3: draw with replacement.")
    splits: str = Field("train|val", description="§9.3: the splits drawn from together "
                                                 "(\"train|val\"; the mirror has no train "
                                                 "split).")
    version: str = Field("mwz21", description="§9.3: dataset version of the splits.")


class ConsistencyParams(ParamsModel):
    """The ``consistency`` block of ``params.yaml`` (spec-annotation-consistency §10); the
    defaults are the spec's reference profile."""

    dontcare_policy: Literal["fill", "keep"] = Field(
        "fill", description="§6.3: fill (dontcare counts as unlabeled and is overwritten by a "
                            "detection, the scripts) or keep (dontcare is a real label).")
    multi_value_policy: Literal["alternatives", "skip", "first"] = Field(
        "alternatives", description="§6.4: alternatives (write the merged list; 2.0/2.1 "
                                    "export: primary value), skip or first.")
    name_label: Literal["canonical", "surface"] = Field(
        "canonical", description="§2.3: canonical (database name) or surface (the matched "
                                 "text) as name labels.")
    name_seed_aliases: str = Field(
        "|".join(f"{a}={c}@{d}" for a, c, d in DEFAULT_SEED_ALIASES),
        description="§5.1 seed aliases \"alias=canonical@domain|...\", the spellings the "
                    "scripts added by hand.")
    name_strip_leading_the: NameStripLeadingThe = Field(
        NameStripLeadingThe(), description="§5.1: names without their leading \"the\".")
    name_blocklist: str = Field("", description="§5.1: values never used as names (a|b).")
    fuzzy_name_match: FuzzyNameMatch = Field(
        FuzzyNameMatch(), description="§7.9 NM-F: fuzzy partial-ratio name matching on S_t.")
    fuzzy_exclude: str = Field(
        "j restaurant", description="§7.9: names NM-F never adds (\"j restaurant\" matches "
                                    "any \"restaurant\").")
    food_min_chars: int = Field(
        4, ge=0, description="§5.2: cuisine lexicon entries shorter than this are dropped.")
    food_blocklist: str = Field("local", description="§5.2: blocked cuisine entries (a|b).")
    taxi_blocked_values: str = Field(
        "cambridge", description="§5.4: taxi destinations never added (users say \"a taxi to "
                                 "Cambridge\" about the city).")
    area_user_side: bool = Field(
        False, description="§7.3: user-side area rule (a project extension; the spec's rules "
                           "are system-side only).")
    area_extra_surfaces: str = Field(
        "", description="§5.5: extra area surfaces, e.g. \"center=centre\".")
    area_masking: AreaMasking = Field(
        AreaMasking(), description="§7.3: what is masked in S_t before area words are searched.")
    restaurant_cues: RestaurantCues = Field(
        RestaurantCues(), description="§7.3 R3b: restaurant cues.")
    price_lexicon: str = Field(
        "|".join(f"{s}={lab}" for s, lab in DEFAULT_PRICE_LEXICON),
        description="§5.5 price surfaces \"surface=label|...\"; \" expensive\" keeps its "
                    "leading space (D9).")
    atype_resolve_by_db: bool = Field(
        True, description="§7.2 AT-M: resolve several system-side attraction types by the "
                          "named attraction's type.")
    require_no_rejection: bool = Field(
        False, description="§6.2: drop a system-side detection when U_t contains a rejection "
                           "cue.")
    rejection_cues: str = Field("|".join(DEFAULT_REJECTION_CUES),
                                description="§6.2: the rejection cues (a|b).")
    train_dest_require_train_cue: bool = Field(
        False, description="§7.10: TT-U also requires \"train\" in W_t.")
    add_system_spans: bool = Field(
        False, description="§6.5: also record spans for system-side detections.")
    overrides_file: str = Field(
        "", description="§10: TSV (dialogue_id, turn, domain, slot, value or \"none\") of "
                        "forced decisions, a path; \"\" for none (the reference profile).")
    verification_seed: int = Field(0, description="§9.3 Table 3 sampling: seed.")
    verification_sample: VerificationSample = Field(
        VerificationSample(), description="§9.3 Table 3 sampling.")
    reference_version: str = Field(
        "mwz21", description="Dataset version compared with the spec's expected values (§9.4) "
                             "in the reference table.")
    dst_version: str = Field(
        "mwz21", description="DST effect table (Table 4 analogue): gold version (test split).",
        json_schema_extra=STRUCTURAL)
    dst_corrected_alternatives: bool = Field(
        True, description="DST effect table: a multi-valued addition accepts any of its values "
                          "(the 2.2+ release writes the list).")

    @field_validator("name_seed_aliases")
    @classmethod
    def _check_seed_aliases(cls, value: str) -> str:
        parse_seed_aliases(value)
        return value

    @field_validator("area_extra_surfaces", "price_lexicon")
    @classmethod
    def _check_pairs(cls, value: str) -> str:
        _pairs(value)
        return value

    def correction(self) -> CorrectionSettings:
        """The settings the correction reads, lists parsed (the ``overrides_file`` is read).

        Raises:
            InputError: an unreadable overrides file (names the file and row).
        """
        strip, fuzzy = self.name_strip_leading_the, self.fuzzy_name_match
        mask, cues, sample = self.area_masking, self.restaurant_cues, self.verification_sample
        return CorrectionSettings(
            dontcare_policy=self.dontcare_policy,
            multi_value_policy=self.multi_value_policy,
            name_label=self.name_label,
            name_seed_aliases=parse_seed_aliases(self.name_seed_aliases),
            strip_the_enabled=strip.enabled,
            strip_the_min_tokens=strip.min_tokens,
            strip_the_min_chars=strip.min_chars,
            name_blocklist=_bar(self.name_blocklist),
            fuzzy_enabled=fuzzy.enabled,
            fuzzy_domains=_bar(fuzzy.domains),
            fuzzy_threshold=fuzzy.threshold,
            fuzzy_exclude=_bar(self.fuzzy_exclude),
            food_min_chars=self.food_min_chars,
            food_blocklist=_bar(self.food_blocklist),
            taxi_blocked_values=_bar(self.taxi_blocked_values),
            area_user_side=self.area_user_side,
            area_extra_surfaces=_pairs(self.area_extra_surfaces),
            mask_entity_names=mask.entity_names,
            mask_street_phrases=mask.street_phrases,
            mask_addresses=mask.addresses,
            restaurant_cues_db_names=cues.db_names,
            restaurant_cues=_bar(cues.extra),
            price_lexicon=_pairs(self.price_lexicon),
            atype_resolve_by_db=self.atype_resolve_by_db,
            require_no_rejection=self.require_no_rejection,
            rejection_cues=_bar(self.rejection_cues),
            train_dest_require_train_cue=self.train_dest_require_train_cue,
            add_system_spans=self.add_system_spans,
            overrides=read_overrides(self.overrides_file) if self.overrides_file else (),
            verification_seed=self.verification_seed,
            verification_modified=sample.modified,
            verification_unmodified=sample.unmodified,
            verification_unit=sample.unit,
            verification_with_replacement=sample.with_replacement,
            verification_splits=_bar(sample.splits),
        )


@dataclass(frozen=True)
class CorrectionSettings:
    """The §10 settings as the rules read them (built by :meth:`ConsistencyParams.correction`;
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
        """The reference profile (the defaults of :class:`ConsistencyParams`)."""
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
    return ConsistencyParams().correction()


def _plain(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    return v
