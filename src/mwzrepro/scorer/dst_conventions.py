"""The scorer's ``dst_conventions`` block: JGA and slot accuracy of a prediction file's states
under one or every DST scoring preset (spec-dst-metrics §12.9), with each preset's signature;
``mwzrepro score FILE --dst-convention NAME|all`` and ``Evaluator(dst_convention=...)``.

>>> convention_names("all")
['fga', 'mwzeval', 'simpletod', 'simpletod-original', 'trade', 'convlab3']
>>> convention_names("jga")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
mwzrepro.core.errors.ConfigError: unknown DST convention 'jga'; known: fga, ... (or all)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mwzrepro.core.errors import ConfigError, InputError
from mwzrepro.scorer.blocks import public_signature

if TYPE_CHECKING:
    from mwzrepro.scorer.inputs import Coverage

__all__ = ["ConventionFigures", "DSTConventions", "convention_names", "conventions_block",
           "format_conventions", "needs_states", "rank_conventions"]


def convention_names(name: str) -> list[str]:
    """The presets of ``--dst-convention``: every preset for ``all``, else the one named.

    Raises:
        ConfigError: an unknown name (one line listing the known names).
    """
    from mwzrepro.dst.conventions.presets import PRESETS

    if name == "all":
        return list(PRESETS)
    if name not in PRESETS:
        raise ConfigError(f"unknown DST convention {name!r}; known: {', '.join(PRESETS)} "
                          f"(or all)")
    return [name]


def needs_states(source: str) -> InputError:
    """The one-line error of a file without a predicted state on every turn."""
    return InputError(f"{source}: --dst-convention: DST needs a predicted state on every turn "
                      f"(this file has none on some turns)")


@dataclass(frozen=True)
class ConventionFigures:
    """One preset's figures: JGA and SA in percent, scored turns, the signature."""

    name: str
    jga: float
    sa: float
    turns: int
    signature: str

    def to_dict(self) -> dict[str, Any]:
        """``{"jga", "sa", "turns", "signature"}``."""
        return {"jga": self.jga, "sa": self.sa, "turns": self.turns,
                "signature": self.signature}


@dataclass(frozen=True)
class DSTConventions:
    """The ``dst_conventions`` block: one :class:`ConventionFigures` per preset, in order."""

    rows: tuple[ConventionFigures, ...]

    def to_dict(self) -> dict[str, dict[str, Any]]:
        """``{preset: {"jga", "sa" (percent), "turns", "signature"}}``."""
        return {r.name: r.to_dict() for r in self.rows}


def conventions_block(preds: Mapping[str, list], gold_turns: Mapping[str, Sequence[Any]],
                      names: Sequence[str], source: str, coverage: Coverage,
                      version: str | None = None) -> DSTConventions:
    """The block of a prediction file's ``predictions`` columns (``dialogue_id``, ``turn``,
    ``state_json``) against the version's raw gold turns
    (:func:`mwzrepro.dst.conventions.turns.gold_turns`); signatures gain ``cov`` when the
    coverage is partial (:func:`mwzrepro.scorer.blocks.public_signature`) and ``ver`` when
    ``version`` (the dataset version) is given.

    Raises:
        InputError: no predicted state on some turn (:func:`needs_states`); a value the
            reference's normalization cannot read (names ``source``).
    """
    from mwzrepro.dst.conventions.presets import PRESETS
    from mwzrepro.dst.conventions.scoring import score_corpus
    from mwzrepro.dst.conventions.turns import predicted_turns, raw_corpus
    from mwzrepro.dst.conventions.views import ViewCache

    if any(not isinstance(s, str) for s in preds["state_json"]):
        raise needs_states(source)
    pred = predicted_turns(preds, source)
    corpus = raw_corpus(gold_turns, pred or {}, source)
    cache = ViewCache()
    rows = []
    for name in names:
        s = score_corpus(corpus, PRESETS[name], cache)
        rows.append(ConventionFigures(name, 100 * s.jga, 100 * s.sa, s.turns,
                                      public_signature(PRESETS[name].signature(version=version),
                                                       coverage)))
    return DSTConventions(tuple(rows))


def format_conventions(block: Mapping[str, Mapping[str, Any]], title: str) -> str:
    """The text of ``score --dst-convention``: a title line, then one preset per row (JGA and
    SA with two decimals, the signature)."""
    width = max(len(n) for n in block)
    lines = [title, f"{'preset':<{width}}  {'JGA':>6}  {'SA':>6}  signature"]
    for name, r in block.items():
        lines.append(f"{name:<{width}}  {r['jga']:6.2f}  {r['sa']:6.2f}  {r['signature']}")
    return "\n".join(lines)


def rank_conventions(blocks: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> str:
    """The text of ``score A B C --dst-convention NAME|all``: one row per system, sorted by
    JGA under the first preset; per preset the JGA and the system's rank under it (1 = best,
    ties share the lower rank); then each preset's signature.

    >>> print(rank_conventions({"a": {"fga": {"jga": 40.0, "signature": "JGA|x"}},
    ...                         "b": {"fga": {"jga": 50.0, "signature": "JGA|x"}}}))
    system  fga JGA (rank)
    b            50.00 (1)
    a            40.00 (2)
    fga: JGA|x
    """
    presets = list(next(iter(blocks.values())))
    order = sorted(blocks, key=lambda s: (-blocks[s][presets[0]]["jga"], s))
    rank = {p: {s: 1 + sum(blocks[o][p]["jga"] > blocks[s][p]["jga"] for o in blocks)
                for s in blocks} for p in presets}
    width = max(6, *(len(s) for s in blocks))
    heads = {p: f"{p} JGA (rank)" for p in presets}
    cells = {s: {p: f"{blocks[s][p]['jga']:.2f} ({rank[p][s]})" for p in presets}
             for s in blocks}
    wide = {p: max(len(heads[p]), *(len(cells[s][p]) for s in blocks)) for p in presets}
    lines = [f"{'system':<{width}}" + "".join(f"  {heads[p]:>{wide[p]}}" for p in presets)]
    for s in order:
        lines.append(f"{s:<{width}}" + "".join(f"  {cells[s][p]:>{wide[p]}}"
                                               for p in presets))
    lines += [f"{p}: {blocks[order[0]][p]['signature']}" for p in presets]
    return "\n".join(lines)
