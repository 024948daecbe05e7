"""Value matchers of spec-dst-metrics §2.7 and §8, and the rewriting of predictions towards the
gold spelling that every tolerant figure uses (section numbers refer to that spec).

A matcher decides whether a predicted value counts as a gold value: ``exact`` (equality, the
default), ``fuzzy-levenshtein`` (normalised Levenshtein similarity ≥ θ, §8.2) or ``fuzzy-indel``
(normalised Indel similarity ≥ θ, §8.3). Tolerant matching is applied by
:func:`rewrite_predictions` before any metric is computed.

Example:
    >>> m = make_matcher("fuzzy-levenshtein", 0.9)
    >>> m.accepts("nightclub", "night club"), m.accepts("cheap", "expensive")
    (True, False)
    >>> rewrite_predictions({("hotel", "type"): "guesthouse"},
    ...                     {("hotel", "type"): "guest house"}, m)
    {('hotel', 'type'): 'guesthouse'}
"""

from __future__ import annotations

from fractions import Fraction

from mwzrepro.core.errors import ConfigError
from mwzrepro.dst.state import DONTCARE, Alternatives, Slot, State

__all__ = [
    "Matcher",
    "ExactMatcher",
    "LevenshteinMatcher",
    "IndelMatcher",
    "MATCHERS",
    "make_matcher",
    "rewrite_predictions",
]


class Matcher:
    """A value matcher (§2.7): decides whether a predicted value counts as a gold value.

    Attributes:
        name: profile name recorded in the metrics output (``exact``, ``fuzzy-levenshtein``,
            ``fuzzy-indel``).
        threshold: the similarity threshold θ as a :class:`~fractions.Fraction`, or ``None``.
    """

    name = "exact"
    threshold: Fraction | None = None

    def accepts(self, gold: str, pred: str) -> bool:
        """Whether ``pred`` matches the canonical gold value ``gold`` (both canonicalised)."""
        return gold == pred


class ExactMatcher(Matcher):
    """Equality only (the default). With 2.2 alternatives, equality with any of them."""


def _fraction(theta: float | str | Fraction) -> Fraction:
    t = Fraction(str(theta)) if not isinstance(theta, Fraction) else theta
    if not 0 <= t <= 1:
        raise ConfigError(f"fuzzy threshold must be in [0, 1], got {theta}")
    return t


class _DistanceMatcher(Matcher):
    """Accept iff 1 − distance(g, p) / scale(g, p) ≥ θ, tested in rational arithmetic:
    distance · den ≤ (den − num) · scale for θ = num/den. Equal values always match;
    ``dontcare`` never matches fuzzily. Subclasses give the distance and the scale."""

    def __init__(self, threshold: float | str | Fraction = Fraction(9, 10)) -> None:
        self.threshold = _fraction(threshold)

    def _distance(self, gold: str, pred: str) -> int:
        raise NotImplementedError

    def _scale(self, gold: str, pred: str) -> int:
        raise NotImplementedError

    def accepts(self, gold: str, pred: str) -> bool:
        """Whether ``pred`` matches ``gold``: equal strings always; ``dontcare`` only itself;
        otherwise similarity ``1 - distance / scale`` at least the threshold (§8.2)."""
        if gold == pred:
            return True
        if DONTCARE in (gold, pred):
            return False
        t = self.threshold
        return (self._distance(gold, pred) * t.denominator
                <= (t.denominator - t.numerator) * self._scale(gold, pred))


class LevenshteinMatcher(_DistanceMatcher):
    """``fuzzy-levenshtein`` (§8.2): accept iff 1 − lev(g, p) / max(|g|, |p|) ≥ θ.

    Unit costs over code points (``rapidfuzz.distance.Levenshtein``, no processor), tested in
    rational arithmetic, so θ = 0.9 accepts ``nightclub``/``night club`` (exactly 0.9).

    Args:
        threshold: θ in [0, 1] (default 0.9; floats are read through their decimal string).
    """

    name = "fuzzy-levenshtein"

    def _distance(self, gold: str, pred: str) -> int:
        from rapidfuzz.distance import Levenshtein

        return Levenshtein.distance(gold, pred)

    def _scale(self, gold: str, pred: str) -> int:
        return max(len(gold), len(pred))


class IndelMatcher(_DistanceMatcher):
    """``fuzzy-indel`` (§8.3, a separately named option): accept iff the normalised Indel
    similarity 1 − indel(g, p) / (|g| + |p|) ≥ θ — what ``rapidfuzz.fuzz.ratio`` computes.
    Never the default; it accepts everything :class:`LevenshteinMatcher` accepts, and more."""

    name = "fuzzy-indel"

    def _distance(self, gold: str, pred: str) -> int:
        from rapidfuzz.distance import Indel

        return Indel.distance(gold, pred)

    def _scale(self, gold: str, pred: str) -> int:
        return len(gold) + len(pred)


#: Matcher profiles by name.
MATCHERS = {"exact": ExactMatcher, "fuzzy-levenshtein": LevenshteinMatcher,
            "fuzzy-indel": IndelMatcher}


def make_matcher(name: str, threshold: float | str | Fraction | None = None) -> Matcher:
    """A matcher by profile name (:data:`MATCHERS`); ``threshold`` is θ for fuzzy profiles.

    Raises:
        ConfigError: unknown name, or a threshold outside [0, 1].
    """
    if name not in MATCHERS:
        raise ConfigError(f"unknown matcher {name!r}; choose one of {sorted(MATCHERS)}")
    if name == "exact":
        return ExactMatcher()
    return MATCHERS[name]() if threshold is None else MATCHERS[name](threshold)


def rewrite_predictions(
    gold: State,
    pred: State,
    matcher: Matcher | None = None,
    alternatives: Alternatives | None = None,
) -> dict[Slot, str]:
    """Rewrite a predicted state towards the gold spelling (§2.7).

    For every slot present in both ``gold`` and ``pred`` whose predicted value differs from the
    gold canonical value: if the value equals a gold alternative, or ``matcher`` accepts it
    against any alternative, it is replaced by the gold canonical value. Never adds or removes
    slots; uses only this turn's gold state.

    Args:
        gold: B_t (canonical values).
        pred: B'_t (canonical values).
        matcher: the active matcher (default exact).
        alternatives: per-slot acceptable gold values (2.2); default ``(gold value,)``.

    Returns:
        the rewritten B'_t (a new dict, same key order as ``pred``).
    """
    matcher = matcher or ExactMatcher()
    out: dict[Slot, str] = {}
    for slot, p in pred.items():
        g = gold.get(slot)
        if g is not None and p != g:
            alts = (alternatives or {}).get(slot) or (g,)
            if any(p == a or matcher.accepts(a, p) for a in alts):
                p = g
        out[slot] = p
    return out
