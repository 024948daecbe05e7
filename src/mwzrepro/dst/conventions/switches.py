"""The switches of a DST scoring convention and their signature codes (spec-dst-metrics
§12.1–§12.8, one subsection per switch).

A :class:`Convention` fixes one value of every switch. Its signature is
``JGA|ver:…|dial:…|gdc:…|pign:…|names:…|clean:…|slots:…|pscope:…|match:…|v:…`` (``ver``, the
dataset version, where one is known);
two JGAs are comparable only when their signatures agree.

=========  ==========================================================================
switch     values (first the FGA paper's convention)
=========  ==========================================================================
dial       ``fga`` (the FGA paper's excluded dialogues, PMUL1455) · ``all``
gdc        gold ``dontcare``: ``keep`` · ``drop`` (the reference's gold states)
pign       predicted values ignored: ``keep`` (none) · ``none`` · ``none+dc`` (SimpleTOD)
names      slot names: ``canon`` (aliases mapped to the 30 slots) · ``ref`` (the reference's
           literal names: lowercase, spaces removed, arriveby→arrive, leaveat→leave)
clean      values: ``fga`` · ``mwzeval`` · ``trade`` · ``convlab3`` · ``lower`` · ``none``
slots      slot scope: ``30`` (TRADE's 30 slots of 5 domains) · ``nobook`` · ``all``
pscope     prediction scope: ``all`` · ``gold-dom`` (only the gold state's domains)
match      value matching: ``exact`` · ``fuzzy95`` (the reference's partial_ratio > 95)
=========  ==========================================================================

>>> c = Convention()
>>> c.signature()  # doctest: +ELLIPSIS
'JGA|dial:fga|gdc:keep|pign:keep|names:canon|clean:fga|slots:30|pscope:all|match:exact|v:...'
>>> c.signature(version="mwz21")  # doctest: +ELLIPSIS
'JGA|ver:mwz21|dial:fga|gdc:keep|...'
>>> c.replace(match="fuzzy95").differences(c)
['match']
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace

from mwzrepro.core.errors import ConfigError
from mwzrepro.core.signature import Signature

__all__ = ["SWITCHES", "SWITCH_TITLES", "Convention"]

#: Switch → its allowed values (the FGA paper's value first).
SWITCHES: dict[str, tuple[str, ...]] = {
    "dial": ("fga", "all"),
    "gdc": ("keep", "drop"),
    "pign": ("keep", "none", "none+dc"),
    "names": ("canon", "ref"),
    "clean": ("fga", "mwzeval", "trade", "convlab3", "lower", "none"),
    "slots": ("30", "nobook", "all"),
    "pscope": ("all", "gold-dom"),
    "match": ("exact", "fuzzy95"),
}

#: Switch → a short human title (table headers, docs).
SWITCH_TITLES: dict[str, str] = {
    "dial": "dialogue scope",
    "gdc": "gold dontcare",
    "pign": "predicted none/dontcare",
    "names": "slot names",
    "clean": "label cleaning",
    "slots": "slot scope",
    "pscope": "prediction scope",
    "match": "value matching",
}


@dataclass(frozen=True)
class Convention:
    """One value per switch (:data:`SWITCHES`); the defaults are the FGA paper's convention.

    Raises:
        ConfigError: a value outside its switch's values (names the switch and the values).
    """

    dial: str = "fga"
    gdc: str = "keep"
    pign: str = "keep"
    names: str = "canon"
    clean: str = "fga"
    slots: str = "30"
    pscope: str = "all"
    match: str = "exact"

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if value not in SWITCHES[f.name]:
                raise ConfigError(f"DST convention switch {f.name}: unknown value {value!r}; "
                                  f"choose one of {', '.join(SWITCHES[f.name])}")

    def as_dict(self) -> dict[str, str]:
        """``{switch: value}`` in :data:`SWITCHES` order."""
        return asdict(self)

    def replace(self, **changes: str) -> Convention:
        """A copy with some switches changed."""
        return replace(self, **changes)

    def differences(self, other: Convention) -> list[str]:
        """The switches (in :data:`SWITCHES` order) whose values differ from ``other``'s."""
        return [k for k in SWITCHES if getattr(self, k) != getattr(other, k)]

    def signature(self, metric: str = "JGA", version: str | None = None) -> str:
        """``METRIC|ver:DATASET|dial:…|…|match:…|v:VERSION``
        (:class:`~mwzrepro.core.signature.Signature`); ``ver`` (the dataset version, e.g.
        ``mwz21``, or ``<row>`` in a table's notes) only when ``version`` is given."""
        fields = ({"ver": version} if version is not None else {}) | self.as_dict()
        return Signature(metric, fields).format()
