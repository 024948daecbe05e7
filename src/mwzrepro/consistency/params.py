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

The flat, parsed settings the rules read
(:class:`~mwzrepro.consistency.settings.CorrectionSettings`) are built from the block in
:mod:`mwzrepro.consistency.settings`.

Example:
    >>> p = ConsistencyParams()
    >>> p.name_strip_leading_the.min_chars, p.price_lexicon.split("|")[2]
    (6, ' expensive=expensive')
    >>> from mwzrepro.core.params import validate_block
    >>> validate_block(ConsistencyParams, {"fuzzy_name_match": {"threshold": 101}}, "consistency")
    Traceback (most recent call last):
    ...
    mwzrepro.core.errors.ConfigError: consistency.fuzzy_name_match.threshold: Input should be less than or equal to 100 (got 101)
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from mwzrepro.core.errors import ConfigError
from mwzrepro.core.params import STRUCTURAL, ParamsModel, parse_list, parse_pairs
from mwzrepro.core.venue_aliases import DEFAULT_SEED_ALIASES

__all__ = [
    "ConsistencyParams",
    "NameStripLeadingThe",
    "FuzzyNameMatch",
    "AreaMasking",
    "RestaurantCues",
    "VerificationSample",
    "parse_seed_aliases",
    "bar_list",
    "bar_pairs",
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


def bar_list(text: str) -> tuple[str, ...]:
    """Items of a ``|``-separated list, verbatim (a leading space may be significant)."""
    return parse_list(text, "|", strip=False)


def bar_pairs(text: str) -> tuple[tuple[str, str], ...]:
    """Pairs ``(surface, label)`` of a ``|``-separated list of ``surface=label``, verbatim."""
    return parse_pairs(text, "|", strip=False)


def parse_seed_aliases(text: str) -> tuple[tuple[str, str, str], ...]:
    """``"alias=canonical@domain|..."`` → ``((alias, canonical, domain), ...)`` (§5.1).

    >>> parse_seed_aliases("caffe uno=caffe uno@restaurant")
    (('caffe uno', 'caffe uno', 'restaurant'),)

    Raises:
        ConfigError: an item is not ``alias=canonical@domain``.
    """
    out = []
    for item in bar_list(text):
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
        bar_pairs(value)
        return value
