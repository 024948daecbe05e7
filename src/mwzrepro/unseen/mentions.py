"""Entity mentions in text and the offset map of a rewritten text
(spec-unseen-entity-test-set §8.1, §8.4).

:func:`find_mentions` finds every mention of a dialogue's entities in one text: span annotations
of replaced slots first, then every variant matched on the token-normalised view; the longer
match wins, matches inside a longer match of another entity are dropped, and partially
overlapping matches of different entities are errors (neither is replaced).

:func:`rewrite` applies replacements right to left and returns an :class:`OffsetMap` from old to
new character offsets, used to move span annotations.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from mwzrepro.unseen.text import Word, find_many, span_of

__all__ = ["Mention", "find_mentions", "OffsetMap", "rewrite"]

EntityKey = tuple[str, str]


@dataclass(frozen=True)
class Mention:
    """A mention of entity ``key`` at characters ``[start, end)`` of a text; ``origin`` is
    ``"span"`` (from a span annotation) or ``"variant"`` (from variant matching)."""

    start: int
    end: int
    key: EntityKey
    origin: str

    def contains(self, other: Mention) -> bool:
        """Whether ``other`` lies within this mention's characters."""
        return self.start <= other.start and other.end <= self.end

    def overlaps(self, other: Mention) -> bool:
        """Whether the two mentions share at least one character."""
        return self.start < other.end and other.start < self.end


def find_mentions(
    words: list[Word],
    index: Mapping[str, list[tuple[str, ...]]],
    owner: Mapping[tuple[str, ...], EntityKey],
    span_ranges: Iterable[tuple[int, int, EntityKey]] = (),
    variant_matching: bool = True,
    skip: set[tuple[str, ...]] | frozenset[tuple[str, ...]] = frozenset(),
) -> tuple[list[Mention], list[tuple[Mention, Mention]]]:
    """Mentions of entities in one text (§8.1).

    Args:
        words: the text's :func:`~mwzrepro.unseen.text.view`.
        index: variants indexed by first word (:func:`~mwzrepro.unseen.text.index_patterns`).
        owner: ``{variant: entity key}``.
        span_ranges: ``(start, end, key)`` character ranges of span annotations of replaced
            slots whose value resolved to ``key``; the longest variant of ``key`` inside the
            range becomes a ``span`` mention.
        variant_matching: False for ``replace_scope: spans`` (span mentions only).
        skip: variants never matched outside span ranges.

    Returns:
        ``(mentions, errors)``: non-overlapping mentions sorted by start, and the pairs of
        partially overlapping mentions of different entities (none of them is in
        ``mentions``).
    """
    cands: list[Mention] = []
    free: list[Mention] = []
    for i, j, pattern in find_many(words, index, possessive=True):
        start, end = span_of(words, i, j, pattern)
        m = Mention(start, end, owner[pattern], "variant")
        cands.append(m)
        if pattern not in skip:
            free.append(m)
    spans = []
    for s, e, key in span_ranges:
        inside = [m for m in cands if m.key == key and s <= m.start and m.end <= e]
        if inside:
            best = max(inside, key=lambda m: (m.end - m.start, -m.start))
            spans.append(Mention(best.start, best.end, key, "span"))
    # A span annotation fixes the extent of its entity's mention: variant matches of the same
    # entity that overlap it ("the Avalon" around the span "Avalon") give way to it.
    free = [m for m in free if not any(sp.key == m.key and sp.overlaps(m) for sp in spans)]
    pool = spans + free if variant_matching else spans
    pool.sort(key=lambda m: (-(m.end - m.start), m.origin != "span", m.start, m.key))
    kept: list[Mention] = []
    errors: list[tuple[Mention, Mention]] = []
    failed: set[Mention] = set()
    for m in pool:
        clash = [k for k in kept if k.overlaps(m)]
        if not clash:
            if m not in failed:
                kept.append(m)
            continue
        if any(k.contains(m) for k in clash):
            continue  # inside a longer (or equal, earlier) match: dropped
        for k in clash:
            if k.key == m.key:
                merged = Mention(min(k.start, m.start), max(k.end, m.end), k.key, k.origin)
                kept[kept.index(k)] = merged
            else:
                errors.append((k, m))
                if k in kept:
                    kept.remove(k)
                failed.add(k)
    return sorted(kept, key=lambda m: m.start), errors


class OffsetMap:
    """Monotone map from character offsets of an old text to those of its rewrite (§8.4).

    Args:
        replaced: ``[(old start, old end, new text)]`` non-overlapping, sorted by start.
    """

    def __init__(self, replaced: list[tuple[int, int, str]]):
        self._old = replaced
        self._starts = [s for s, _, _ in replaced]
        self._new: list[tuple[int, int]] = []
        delta = 0
        for s, e, new in replaced:
            self._new.append((s + delta, s + delta + len(new)))
            delta += len(new) - (e - s)

    def inside(self, pos: int) -> bool:
        """True when ``pos`` lies strictly inside a replaced range."""
        k = bisect.bisect_right(self._starts, pos) - 1
        return k >= 0 and self._old[k][0] < pos < self._old[k][1]

    def map(self, pos: int, side: str = "start") -> int:
        """New offset of old offset ``pos``; a position strictly inside a replaced range maps to
        the new range's start (``side="start"``) or end (``side="end"``)."""
        k = bisect.bisect_right(self._starts, pos) - 1
        if k < 0:
            return pos
        s, e, _ = self._old[k]
        ns, ne = self._new[k]
        if pos == s:
            return ns
        if pos >= e:
            return ne + (pos - e)
        return ns if side == "start" else ne

    def overlap_kind(self, start: int, end: int) -> str:
        """How the old range ``[start, end)`` relates to the replaced ranges: ``"none"``,
        ``"covers"`` (it contains every replaced range it touches), ``"inside"`` (it lies within
        one replaced range without being equal to it: a span nested in another entity's
        mention) or ``"partial"`` (it crosses a replaced range's boundary)."""
        kind = "none"
        for s, e, _ in self._old:
            if s < end and start < e:
                if start <= s and e <= end:
                    kind = "covers"
                elif s <= start and end <= e:
                    return "inside"
                else:
                    return "partial"
        return kind


def rewrite(text: str, replaced: list[tuple[int, int, str]]) -> tuple[str, OffsetMap]:
    """Apply ``[(start, end, new text)]`` (non-overlapping) to ``text``, right to left.

    Returns:
        ``(new text, OffsetMap)``.

    Raises:
        ValueError: the ranges overlap or fall outside the text.
    """
    replaced = sorted(replaced)
    prev = 0
    for s, e, _ in replaced:
        if s < prev or e < s or e > len(text):
            raise ValueError(f"replacement ranges overlap or exceed the text: {replaced}")
        prev = e
    out = text
    for s, e, new in reversed(replaced):
        out = out[:s] + new + out[e:]
    return out, OffsetMap(replaced)
