"""Parameters of the ``stats`` block of ``params.yaml``: bootstrap confidence intervals,
significance tests and the FGA λ they report (docs/signatures.md, ``<METRIC>-CI``).

Example:
    >>> p = StatsParams()
    >>> (p.resamples, p.seed, p.confidence, p.alpha, p.correction, p.pvalue, p.fga_lambda)
    (1000, 0, 0.95, 0.05, 'holm', 'normal', 0.5)
    >>> p.signature_fields()
    {'unit': 'dialogue', 'bs': 1000, 'seed': 0, 'ci': 'percentile', 'conf': 0.95}
    >>> from mwzrepro.core.params import cli_args
    >>> cli_args(StatsParams, {"resamples": 1000}, block="stats", template=True).split()[-4:]
    ['--resamples', '"${stats.resamples}"', '--seed', '"0"']
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from mwzrepro.core.params import ParamsModel

__all__ = ["StatsParams"]


class StatsParams(ParamsModel):
    """Seeded paired bootstrap over test dialogues (the unit of a goal), significance between
    systems and ranking stability. Field names are the ``stats:`` keys of ``params.yaml``."""

    resamples: int = Field(
        1000, ge=2, description="Bootstrap resamples of the test dialogues (1000 in the published tables).")
    seed: int = Field(
        0, ge=0, description="Seed of numpy's default_rng drawing the resamples; every system "
        "and metric of a version shares the same resamples (paired bootstrap).")
    confidence: float = Field(
        0.95, gt=0, lt=1, description="Coverage of the percentile confidence intervals.")
    alpha: float = Field(
        0.05, gt=0, lt=1, description="Significance level applied to the corrected p-values.")
    correction: Literal["holm", "bonferroni", "none"] = Field(
        "holm", description="Multiple-comparison correction over one family of tests (all "
        "system pairs of a metric; the adjacent pairs of a ranking are their own family).")
    pvalue: Literal["normal", "empirical"] = Field(
        "normal", description="Two-sided p-value of a paired difference: normal = from the "
        "bootstrap standard error of the difference (Wald); empirical = share of the centred "
        "bootstrap differences at least as large, (c+1)/(B+1), which cannot go below 1/(B+1) "
        "and so, at B = 1000, never survives Holm over 171 pairs.")
    fga_lambda: float = Field(
        0.5, ge=0, description="λ of the FGA(λ) figure given an interval; must be one of "
        "dst.lambdas (spec-dst-metrics §6.4).")

    def signature_fields(self) -> dict[str, object]:
        """Signature fields of an interval: resampling unit, resamples, seed, method, level."""
        return {"unit": "dialogue", "bs": self.resamples, "seed": self.seed,
                "ci": "percentile", "conf": self.confidence}

    def test_fields(self) -> dict[str, object]:
        """Signature fields of a significance test (interval fields plus test settings)."""
        return {"unit": "dialogue", "bs": self.resamples, "seed": self.seed,
                "test": "paired-bootstrap", "p": self.pvalue, "corr": self.correction,
                "alpha": self.alpha}
