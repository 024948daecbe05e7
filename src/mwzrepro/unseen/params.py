"""Parameters of the unseen-entity test set and of the entity-bias measures: one model per
``params.yaml`` block (:mod:`mwzrepro.core.params`), spec-unseen-entity-test-set §12.

* :class:`UnseenParams` — block ``unseen``: the SGD pools (§4, used by ``sgd-pools``), the seen
  set and entity resolution (§5, §6) and the transformation (§7, §8), used by ``unseen``;
* :class:`BiasParams` — block ``bias``: the entity-bias measures and their tables (§11).

Lists are comma-separated strings and booleans ``true``/``false`` in ``params.yaml`` (so that
Snakemake and DVC render the same command line); the parsed forms are properties
(:attr:`UnseenParams.families`, ...). Defaults are written once: the list defaults render
from the constants of :mod:`mwzrepro.unseen.families`.

>>> p = UnseenParams(replaced_families="ATTR,HOTEL", replace_attraction_type=True)
>>> p.families, sorted(p.enabled_families())
(('ATTR', 'HOTEL'), ['ATTR', 'ATYPE', 'HOTEL'])
>>> from mwzrepro.core.params import validate_block
>>> validate_block(UnseenParams, {"replaced_families": "ATTR,PUB"}, "unseen")
Traceback (most recent call last):
...
mwzrepro.core.errors.ConfigError: unseen.replaced_families: Value error, unknown families ['PUB']; choose from ATTR, HOTEL, REST, FOOD, CITY, PLACE, DEPT, ATYPE (got 'ATTR,PUB')
>>> validate_block(BiasParams, {"bias_count_unit": "word"}, "bias")
Traceback (most recent call last):
...
mwzrepro.core.errors.ConfigError: bias.bias_count_unit: Input should be 'turn' or 'dialogue' (got 'word')
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from mwzrepro.core.params import STRUCTURAL, ParamsModel, parse_list
from mwzrepro.unseen.families import (
    DEFAULT_CITY_NICKNAMES,
    DEFAULT_FAMILIES,
    DEFAULT_FOOD_POOL_EXCLUDE,
    DEFAULT_UNANNOTATED_EXCLUDE,
    FAMILIES,
)

__all__ = ["UnseenParams", "BiasParams", "BiasSource", "SGD_SPLITS"]

#: The SGD splits (§1, §4.1).
SGD_SPLITS = ("train", "dev", "test")


def _families(text: str) -> str:
    unknown = [f for f in parse_list(text, ",") if f not in FAMILIES]
    if unknown:
        raise ValueError(f"unknown families {unknown}; choose from {', '.join(FAMILIES)}")
    return text


class UnseenParams(ParamsModel):
    """Block ``unseen`` (spec-unseen-entity-test-set §12), every key in ``params.yaml``
    order. ``bases`` is expanded by the workflow (one ``unseen`` job per version), not passed
    to a command."""

    bases: dict[str, str] = Field(
        {"mwz20": "mwz20/test.json.zip", "mwz21": "mwz21/test.json.zip"},
        description="§1 base: the test split (raw file under data/raw/, ConvLab 2.0/2.1 "
        "layout) that gets an unseen-entity copy, per version; written to "
        "data/interim/<version>/test_unseen/.", json_schema_extra=STRUCTURAL)
    train: str = Field(
        "", description="§5: MultiWOZ training split in the base layout (path under "
        "data/raw/); '' = unavailable: seen-set item 1 then relies on the ontology and U3 is "
        "not applied, which every report states.")
    sgd_splits: str = Field(
        ",".join(SGD_SPLITS), description="§1, §4.1: SGD splits whose files in data/raw/sgd/ "
        "feed the pools (comma-separated).")
    pool_families: str = Field(
        ",".join(FAMILIES), description="Families whose SGD pools are built "
        "(comma-separated; ATYPE too, so replace_attraction_type needs no rerun).")
    replaced_families: str = Field(
        ",".join(DEFAULT_FAMILIES), description="§3: families whose entities are replaced "
        "(comma-separated).")
    replace_attraction_type: bool = Field(
        False, description="§3.1: also replace attraction-type values (ATYPE pool).")
    city_pool_include_stations: bool = Field(
        False, description="§3: add SGD station-name slots to the CITY pool.")
    max_tokens: int = Field(
        6, ge=1, description="§4.2: drop pool keys with more whitespace tokens.")
    city_nicknames: str = Field(
        ",".join(DEFAULT_CITY_NICKNAMES), description="§4.2: CITY keys dropped as nicknames "
        "(comma-separated).")
    food_pool_exclude: str = Field(
        ",".join(DEFAULT_FOOD_POOL_EXCLUDE), description="§4.2: FOOD keys dropped (service "
        "types, not cuisines; comma-separated).")
    unseen_containment: bool = Field(
        True, description="§5 U2: same-family containment test (members with >= 2 tokens or "
        ">= 6 characters).")
    unseen_check_training_text: Literal["auto", "true", "false"] = Field(
        "auto", description="§5 U3: auto = check training utterances when the training split "
        "is given; true/false.")
    replace_unannotated_mentions: bool = Field(
        True, description="§6.1 (f): database names and stations found only in text are "
        "entities too.")
    entity_fuzzy_threshold: float = Field(
        90, ge=0, le=100, description="§6.2: partial-ratio threshold (0-100) resolving values "
        "to database names.")
    seed: int = Field(0, description="§7: seed of the keyed hash that chooses replacements.")
    mapping_scope: Literal["dialogue", "global"] = Field(
        "dialogue", description="§7 step 4: dialogue (one mapping per dialogue) or global (one "
        "injective mapping per family).")
    attraction_category_match: bool = Field(
        False, description="§7 step 6: restrict attraction replacements to compatible SGD "
        "categories.")
    replace_scope: Literal["all_mentions", "spans"] = Field(
        "all_mentions", description="§8.1: all_mentions (every variant mention) or spans "
        "(annotated mentions only).")
    match_tokenisation: Literal["auto", "always", "never"] = Field(
        "auto", description="§8.2: tokenise replacements like the base text: auto, always or "
        "never.")
    text_match_single_token_fallback: Literal["spans", "all"] = Field(
        "spans", description="[design] One-word name/place values naming no database entity "
        "(junk such as 'restaurant' or 'ask' in a name slot): spans = replaced in text only "
        "inside span annotations; all.")
    unannotated_exclude: str = Field(
        ",".join(DEFAULT_UNANNOTATED_EXCLUDE), description="[design] Database names not "
        "searched in unannotated text (comma-separated).")

    @field_validator("replaced_families", "pool_families")
    @classmethod
    def _check_families(cls, text: str) -> str:
        return _families(text)

    @field_validator("sgd_splits")
    @classmethod
    def _check_splits(cls, text: str) -> str:
        unknown = [s for s in parse_list(text, ",") if s not in SGD_SPLITS]
        if unknown:
            raise ValueError(f"unknown SGD splits {unknown}; choose from {', '.join(SGD_SPLITS)}")
        return text

    @property
    def families(self) -> tuple[str, ...]:
        """:attr:`replaced_families`, parsed."""
        return parse_list(self.replaced_families, ",")

    @property
    def pool_family_list(self) -> tuple[str, ...]:
        """:attr:`pool_families`, parsed."""
        return parse_list(self.pool_families, ",")

    @property
    def sgd_split_list(self) -> tuple[str, ...]:
        """:attr:`sgd_splits`, parsed."""
        return parse_list(self.sgd_splits, ",")

    @property
    def city_nickname_list(self) -> tuple[str, ...]:
        """:attr:`city_nicknames`, parsed."""
        return parse_list(self.city_nicknames, ",")

    @property
    def food_exclude_list(self) -> tuple[str, ...]:
        """:attr:`food_pool_exclude`, parsed."""
        return parse_list(self.food_pool_exclude, ",")

    @property
    def unannotated_exclude_list(self) -> tuple[str, ...]:
        """:attr:`unannotated_exclude`, parsed."""
        return parse_list(self.unannotated_exclude, ",")

    def enabled_families(self) -> set[str]:
        """The replaced families plus ATYPE when ``replace_attraction_type``."""
        return set(self.families) | ({"ATYPE"} if self.replace_attraction_type else set())


class BiasSource(ParamsModel):
    """One (version, split) whose states are measured (``bias.sources``)."""

    version: str = Field(description="Dataset version, e.g. mwz21.")
    split: str = Field(description="Split, e.g. test, val or test_unseen (§11.6).")


class BiasParams(ParamsModel):
    """Block ``bias`` (spec-unseen-entity-test-set §11). ``sources`` is expanded by the
    workflow (one ``bias`` job per source), not passed to a command."""

    bias_split: str = Field(
        "train", description="§11.2: the split Table 2 is computed on; its row is shown as "
        "'not computed: training split unavailable' when it is missing, never replaced by "
        "another split.")
    bias_count_unit: Literal["turn", "dialogue"] = Field(
        "turn", description="§11.2: turn (one count per user turn, the reference) or "
        "dialogue.")
    sources: list[BiasSource] = Field(
        [BiasSource(version=v, split=s) for v in ("mwz20", "mwz21") for s in ("test", "val")]
        + [BiasSource(version=v, split="test_unseen") for v in ("mwz20", "mwz21")],
        description="(version, split) pairs whose states are measured (test_unseen: §11.6, "
        "the new test set).", json_schema_extra=STRUCTURAL)
    versions: str = Field(
        "mwz20,mwz21", description="Versions whose bias_split row the table shows (marked "
        "when unavailable; comma-separated).")
    plot_source: str = Field(
        "mwz21/test", description="Plot: version/split whose value distribution is drawn.")
    plot_slots: int = Field(4, ge=1, description="Plot: number of most biased slots.")
    plot_values: int = Field(
        10, ge=1, description="Plot: values per slot (the rest summed as 'other').")

    @property
    def version_list(self) -> tuple[str, ...]:
        """:attr:`versions`, parsed."""
        return parse_list(self.versions, ",")
