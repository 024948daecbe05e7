"""Parameters of DST scoring: the ``dst`` block of ``params.yaml`` (spec-dst-metrics; section
numbers refer to that spec).

:class:`DSTParams` is the one definition of every key of the block — default, validation and
description. The CLI options of the ``score-dst*``, ``tables-dst`` and ``tables-consistency-dst``
commands are derived from it (:func:`mwzrepro.core.params.click_options`), and the workflow
renders the block with :func:`mwzrepro.core.params.cli_args`. Lists are strings (comma
between items) so that Snakemake and DVC pass identical command words.

Example:
    >>> p = DSTParams(forget="0.95,6")
    >>> [round(x, 4) for x in p.lambda_values()]
    [0.25, 0.5, 0.75, 1.0, 0.4993]
    >>> p.excluded(), DSTParams(excluded_dialogues="").excluded()
    (('pmul1455',), ())
    >>> from mwzrepro.core.params import validate_block
    >>> validate_block(DSTParams, {"lambdas": "0.5,-1"}, "dst")
    Traceback (most recent call last):
    ...
    mwzrepro.core.errors.ConfigError: dst.lambdas: Value error, expected comma-separated numbers ≥ 0 (got '0.5,-1')
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from mwzrepro.core.params import STRUCTURAL, ParamsModel
from mwzrepro.dst.settings import excluded_ids, lambda_values, numbers as _numbers

__all__ = ["DSTParams"]


class DSTParams(ParamsModel):
    """The ``dst`` block of ``params.yaml``: DST scoring settings (spec-dst-metrics).

    Gold versions are the top-level ``versions``; every system of ``systems`` is scored
    against each (systems without predicted states are listed, not scored).
    """

    lambdas: str = Field(
        "0.25,0.5,0.75,1.0",
        description="FGA λ values, comma-separated (§6.4; the FGA paper's Table 1 uses 0.25, "
                    "0.5, 0.75, 1.0).")
    forget: str = Field(
        "",
        description="Extra λ from the rule of thumb λ = -ln(1-p)/t_f, written \"p,t_f\" "
                    "(e.g. \"0.95,6\" gives 0.4993); \"\" for none (§6.4).")
    fga_variant: Literal["scripts", "paper_literal"] = Field(
        "scripts",
        description="FGA procedure: scripts (rule R1; normative, reproduces Table 1) or "
                    "paper_literal (Algorithm 1 as printed, no R1; §9 D1).")
    matcher: Literal["exact", "fuzzy-levenshtein", "fuzzy-indel"] = Field(
        "exact",
        description="Value matcher of the main figures: exact (default), fuzzy-levenshtein or "
                    "fuzzy-indel (§2.7; predictions are rewritten to the gold spelling when "
                    "the matcher accepts them).")
    fuzzy_matcher: Literal["fuzzy-levenshtein", "fuzzy-indel"] = Field(
        "fuzzy-levenshtein",
        description="Matcher of the additional fuzzy-JGA figures (§8.2: normalised "
                    "Levenshtein similarity).")
    fuzzy_threshold: float = Field(
        0.9, ge=0, le=1,
        description="Fuzzy threshold θ in [0, 1]; a value matches iff similarity >= θ "
                    "(inclusive, §8.2).")
    label_normalization: Literal["none"] = Field(
        "none",
        description="Dataset-level label normalisation of gold and predictions (§2.3); none = "
                    "canonicalisation only (strip, lowercase, empty markers, dontcare).")
    excluded_dialogues: str = Field(
        "PMUL1455",
        description="Dialogues left out of every DST corpus, comma-separated (\"\" for none). "
                    "PMUL1455 reproduces the FGA paper's 999 dialogues / 7368 turns (§2.6).")
    missing: Literal["skip", "error"] = Field(
        "skip",
        description="Gold dialogues or trailing turns an end-to-end prediction file lacks: "
                    "skip (leave out and list in the coverage) or error (§10).")
    unknown_slots: Literal["filter", "error"] = Field(
        "filter",
        description="Predicted slots outside the 30 MultiWOZ 2.1 slots: filter (remove and "
                    "report the counts) or error (§2.2).")
    flags_version: str = Field(
        "mwz21",
        description="Gold version whose states give AGA's gold presence for TripPy's flag "
                    "file (§7.2).", json_schema_extra=STRUCTURAL)
    human_version: str = Field(
        "mwz21",
        description="Version label of the human-evaluation sample (its gold states are in the "
                    "logs: 2.1).")
    plot_lambda_max: float = Field(
        2.0, gt=0,
        description="FGA-versus-λ plot: λ grid from 0 to plot_lambda_max in steps of "
                    "plot_lambda_step.")
    plot_lambda_step: float = Field(
        0.05, gt=0, description="Step of the FGA-versus-λ plot's λ grid.")

    @field_validator("lambdas")
    @classmethod
    def _check_lambdas(cls, value: str) -> str:
        nums = _numbers(value)
        if not nums or any(x < 0 for x in nums):
            raise ValueError("expected comma-separated numbers ≥ 0")
        return value

    @field_validator("forget")
    @classmethod
    def _check_forget(cls, value: str) -> str:
        if value.strip():
            nums = _numbers(value)
            if nums is None or len(nums) != 2 or not 0 <= nums[0] < 1 or not nums[1] > 0:
                raise ValueError("expected \"p,t_f\" with 0 ≤ p < 1 and t_f > 0")
        return value

    def lambda_values(self) -> list[float]:
        """The λ values of FGA: ``lambdas``, then the rule-of-thumb λ of ``forget`` (§6.4)."""
        return lambda_values(self.lambdas, self.forget)

    def excluded(self) -> tuple[str, ...]:
        """``excluded_dialogues`` as canonical ids (lowercase, no ``.json``), sorted, unique."""
        return excluded_ids(self.excluded_dialogues)
