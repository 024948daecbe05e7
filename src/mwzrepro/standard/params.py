"""Parameters of the standard evaluation: one model per ``params.yaml`` block
(:mod:`mwzrepro.core.params`), holding defaults, validation and descriptions.

* :class:`InformParams` — block ``inform``: the fuzzy matching of venue names, food and train
  places in database queries (spec-standard-evaluation §6–7);
* :class:`StandardParams` — block ``standard``: the active-domain source per system (§8),
  the threshold of the §13 state metrics and the placeholder vocabulary of the response
  normalization (§3.2, :mod:`mwzrepro.core.placeholders`);
* :class:`RichnessParams` — block ``richness``: the MSTTR window of the lexical-richness
  metrics (§12.2).

The CLI options of ``score-success`` and ``score-richness`` are derived from these models
(``--matching``, ``--fuzzy-threshold``, ``--domain-sources``, ``--state-match-threshold``,
``--msttr-window``); ``--placeholders`` is an option of ``predictions`` (where responses are
normalized) and of ``score``.

>>> StandardParams().domain_source("soloist"), StandardParams().domain_source("augpt")
('slot-names', 'auto')
>>> from mwzrepro.core.params import validate_block
>>> validate_block(StandardParams, {"domain_sources": "dots=magic"}, "standard")
Traceback (most recent call last):
...
mwzrepro.core.errors.ConfigError: standard.domain_sources: Value error, 'dots=magic': expected SYSTEM=SOURCE with SOURCE in ('auto', 'provided', 'estimated', 'slot-names') (got 'dots=magic')
>>> validate_block(InformParams, {"fuzzy_threshold": 101}, "inform")
Traceback (most recent call last):
...
mwzrepro.core.errors.ConfigError: inform.fuzzy_threshold: Input should be less than or equal to 100 (got 101)
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from mwzrepro.core.params import ParamsModel, parse_pairs
from mwzrepro.standard.active_domains import SYSTEM_DOMAIN_SOURCES

__all__ = ["InformParams", "StandardParams", "RichnessParams", "SYSTEM_DOMAIN_SOURCES"]


class InformParams(ParamsModel):
    """Block ``inform``: fuzzy matching in database queries (spec-standard-evaluation §6–7)."""

    matching: Literal["reference", "optimal"] = Field(
        "reference",
        description="Fuzzy matching of venue names/food/train places in database queries "
        "(spec-standard-evaluation §6-7): reference = fuzzywuzzy 0.18 + python-Levenshtein "
        "0.12 partial_ratio (parity with the leaderboard); optimal = "
        "rapidfuzz.fuzz.partial_ratio (best alignment, unrounded).")
    fuzzy_threshold: float = Field(
        90, ge=0, le=100,
        description="Fuzzy keys accept partial_ratio >= fuzzy_threshold (reference "
        "evaluator: 90).")


class StandardParams(ParamsModel):
    """Block ``standard``: Inform/Success settings other than matching
    (spec-standard-evaluation §8, §13)."""

    domain_sources: str = Field(
        "dots=estimated,soloist=slot-names",
        description="Active-domain source of the standard setting per system, "
        "'system=source,...' (systems not listed: auto = the reference evaluator's rule, "
        "spec-standard-evaluation §8). Sources: auto, provided, estimated, slot-names. The "
        "leaderboard used estimated domains for DoTS and slot-name domains for SOLOIST "
        "(spec-standard-evaluation §17.3).")
    state_match_threshold: float = Field(
        95, ge=0, le=100,
        description="State metrics of the reference evaluator (spec-standard-evaluation "
        "§13): a predicted value matches the gold value when partial_ratio (matching mode of "
        "inform.matching) is greater than this.")
    placeholders: Literal["reference", "extended"] = Field(
        "reference",
        description="Placeholder vocabulary of the response normalization: reference = the "
        "table of spec-standard-evaluation §3.2 (unknown placeholders deleted; leaderboard "
        "parity); extended = names resolved by a rule (words, at most one domain, a synonym "
        "lexicon, near misses: [hotel_ref], [train-leaveat], [phone_number], "
        "[booking_reference]), case-insensitive, and predicted-state domain and slot variants "
        "resolved or ignored (mwzrepro.core.placeholders, mwzrepro.core.state_dialects; "
        "signature field ph:ext).")

    @field_validator("domain_sources")
    @classmethod
    def _check_sources(cls, text: str) -> str:
        for system, source in parse_pairs(text, ","):
            if not system or source not in SYSTEM_DOMAIN_SOURCES:
                raise ValueError(f"'{system}={source}': expected SYSTEM=SOURCE with SOURCE "
                                 f"in {SYSTEM_DOMAIN_SOURCES}")
        return text

    def domain_sources_map(self) -> dict[str, str]:
        """``{system: source}`` of :attr:`domain_sources`."""
        return dict(parse_pairs(self.domain_sources, ","))

    def domain_source(self, system: str) -> str:
        """The active-domain source of ``system``'s standard setting (``auto`` if unlisted)."""
        return self.domain_sources_map().get(system, "auto")


class RichnessParams(ParamsModel):
    """Block ``richness``: lexical richness of responses (spec-standard-evaluation §12)."""

    msttr_window: int = Field(
        50, ge=1, description="MSTTR segment length in tokens (spec-standard-evaluation "
        "§12.2; 50 in the reference evaluator).")
