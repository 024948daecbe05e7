"""The headline figures given intervals, and how each is named in tables and rankings.

Each :class:`MetricSpec` is one figure of one test-set version: BLEU (span references,
spec-standard-evaluation §11), Inform and Success in the standard and optimistic settings
(§9–§10), JGA and FGA(λ) (spec-dst-metrics §3, §6). A ranking *condition* is the version plus
whatever else changes the figure (setting, corrected annotations, reference style).

Example:
    >>> [m.key for m in METRICS]
    ['bleu', 'inform', 'success', 'inform-optimistic', 'success-optimistic', 'jga', 'fga']
    >>> spec("inform-optimistic").condition("mwz21")
    'mwz21 optimistic'
    >>> spec("fga").title(0.5)
    'FGA(0.5)'
"""

from __future__ import annotations

from dataclasses import dataclass

from mwzrepro.core.errors import InputError

__all__ = ["MetricSpec", "METRICS", "spec", "RANKED_METRICS", "SUCCESS_VARY"]


@dataclass(frozen=True)
class MetricSpec:
    """One figure given an interval.

    Attributes:
        key: identifier used in file names and JSON (``inform-optimistic``).
        metric: the ranked metric it belongs to (``inform``).
        label: short column label (``Inform opt.``).
        setting: Inform/Success setting (``standard``/``optimistic``), "" otherwise.
        decimals: digits shown (as the pipeline's own tables show the figure).
        source: ``bleu``, ``success`` or ``dst``: which scores it is built from.
        vary: signature fields allowed to differ between systems of one column.
    """

    key: str
    metric: str
    label: str
    setting: str
    decimals: int
    source: str
    vary: tuple[str, ...] = ("system",)

    def condition(self, version: str) -> str:
        """The ranking condition of this figure on ``version`` (``mwz21``, ``mwz21
        optimistic``)."""
        return f"{version} {self.setting}" if self.setting == "optimistic" else version

    def title(self, fga_lambda: float) -> str:
        """Column title, with FGA's λ (``FGA(0.5)``)."""
        return f"FGA({fga_lambda:g})" if self.metric == "fga" else self.label


#: Signature fields of Inform/Success allowed to differ between systems of one column: the
#: system, and the state and domain sources the reference evaluator picks per file (§8–§9).
SUCCESS_VARY = ("system", "state", "dom")

#: Every figure of a version, in table order.
METRICS: tuple[MetricSpec, ...] = (
    MetricSpec("bleu", "bleu", "BLEU", "", 2, "bleu"),
    MetricSpec("inform", "inform", "Inform", "standard", 1, "success", SUCCESS_VARY),
    MetricSpec("success", "success", "Success", "standard", 1, "success", SUCCESS_VARY),
    MetricSpec("inform-optimistic", "inform", "Inform opt.", "optimistic", 1, "success",
               SUCCESS_VARY),
    MetricSpec("success-optimistic", "success", "Success opt.", "optimistic", 1, "success",
               SUCCESS_VARY),
    MetricSpec("jga", "jga", "JGA", "", 2, "dst"),
    MetricSpec("fga", "fga", "FGA", "", 2, "dst"),
)

#: Metrics whose rankings are compared across conditions, with their display names.
#: ``bleu-styles`` is BLEU of the 13 Table 4 systems under each reference delexicalization
#: style (Nekvinda & Dušek 2021, Table 4; conditions ``ref:<style>``).
RANKED_METRICS: dict[str, str] = {"bleu": "BLEU", "bleu-styles": "BLEU by reference style",
                                  "inform": "Inform", "success": "Success", "jga": "JGA",
                                  "fga": "FGA", "dst-presets": "JGA by DST scoring preset"}


def spec(key: str) -> MetricSpec:
    """The :class:`MetricSpec` called ``key``.

    Raises:
        InputError: unknown key.
    """
    for m in METRICS:
        if m.key == key:
            return m
    raise InputError(f"unknown figure {key!r}; known: {', '.join(m.key for m in METRICS)}")
