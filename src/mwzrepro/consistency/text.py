"""Matching primitives of the annotation-consistency correction (spec-annotation-consistency §4).

All matching is on lowercased text. Every function here is pure and works on plain strings:

* :func:`lower` — length-preserving lowercasing, so offsets found in ``lower(X)`` are offsets
  into ``X`` (needed for the change log and for spans, §6.5–6.6).
* :func:`has` — plain substring containment ``k in lower(X)`` (§4: not word-bounded).
* :func:`word_matches` — word-bounded match ``word(X, v)`` with one space of padding (§4.1, D8).
* :func:`normalize_entity` / :class:`Mapped` — entity normalisation N(x) (§4.2) that keeps, for
  every output character, the span of source characters it came from, so a match found in
  N(X) can be reported at its offsets in X. :func:`nword_matches` is ``nword(X, v)``.
* :func:`tokdist`, :func:`negated`, :func:`polarity` — token distance and yes/no polarity (§4.3).
* :func:`partial_ratio` — the fuzzy partial ratio of §4.4 (rapidfuzz, rounded half up).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass

__all__ = [
    "lower",
    "has",
    "find",
    "word_matches",
    "Mapped",
    "normalize_entity",
    "normalize_value",
    "nword_matches",
    "tokdist",
    "negated",
    "polarity",
    "partial_ratio",
    "PARTIAL_RATIO_IMPL",
]


def lower(text: str) -> str:
    """``text`` lowercased character by character, keeping its length.

    A character whose lowercase form is longer than one character (e.g. ``İ``) is kept as is,
    so that every offset into the result is an offset into ``text``.
    """
    out = text.lower()
    if len(out) == len(text):
        return out
    return "".join(lc if len(lc := c.lower()) == 1 else c for c in text)


def has(text: str, key: str) -> bool:
    """``has(X, k)`` of §4: ``key`` is a substring of ``lower(text)`` (``text`` may already be
    lowercase)."""
    return key in text


def find(text: str, key: str) -> int:
    """Offset of the first occurrence of ``key`` in the (lowercased) ``text``, or -1."""
    return text.find(key)


def word_matches(text_lc: str, value: str) -> list[tuple[int, int]]:
    """Every ``(start, end)`` where ``value`` occurs in ``text_lc`` with a non-letter (or the
    text edge) on each side: ``word(X, v)`` of §4.1 with the project's one-space padding (D8).
    Digits count as non-letters. ``text_lc`` must already be lowercased; offsets index it."""
    pattern = r"(?<![a-z])" + re.escape(value) + r"(?![a-z])"
    return [m.span() for m in re.finditer(pattern, text_lc)]


@dataclass(frozen=True)
class Mapped:
    """A derived string and, for each of its characters, the source span it came from.

    ``spans[i] = (start, end)`` are offsets into the source string; characters inserted by a
    replacement carry the span of the whole replaced match; padding carries an empty span at
    the edge.
    """

    text: str
    spans: tuple[tuple[int, int], ...]

    def source_span(self, start: int, end: int) -> tuple[int, int]:
        """Source offsets covering the derived characters ``[start, end)`` (``end > start``)."""
        return self.spans[start][0], self.spans[end - 1][1]

    def sub(self, pattern: str | re.Pattern[str], repl: str) -> Mapped:
        """``re.sub(pattern, repl, text)`` with the character-to-source map kept up to date.
        ``pattern`` must not match the empty string; ``repl`` is literal text."""
        chars: list[str] = []
        spans: list[tuple[int, int]] = []
        pos = 0
        for m in re.finditer(pattern, self.text):
            s, e = m.span()
            if s == e:
                raise ValueError(f"pattern {pattern!r} matched the empty string")
            chars.append(self.text[pos:s])
            spans.extend(self.spans[pos:s])
            src = (self.spans[s][0], self.spans[e - 1][1])
            chars.append(repl)
            spans.extend([src] * len(repl))
            pos = e
        if pos == 0 and not chars:
            return self
        chars.append(self.text[pos:])
        spans.extend(self.spans[pos:])
        return Mapped("".join(chars), tuple(spans))

    @classmethod
    def of(cls, text: str) -> Mapped:
        """The identity map of ``text``."""
        return cls(text, tuple((i, i + 1) for i in range(len(text))))


_APOSTROPHES = re.compile(r"[\u2019\u2018\u02bc]")
_POSSESSIVE = re.compile(r" ?'s(?![a-z0-9])")
_NON_ALNUM = re.compile(r"[^a-z0-9]+")
_GUESTHOUSE = re.compile(r"guesthouse")
_B_AND_B = re.compile(r"(?<![a-z0-9])b and b(?![a-z0-9])")
_SPACES = re.compile(r" {2,}")


def normalize_entity(text: str) -> Mapped:
    """Entity normalisation N(x) of §4.2, with the source map of every character.

    Steps, in order: lowercase; typographic apostrophes → ``'``; possessive ``'s`` and tokenised
    `` 's`` → ``s``; ``&`` → `` and ``; every character outside [a-z0-9] → space;
    ``guesthouse`` → ``guest house``; the tokens ``b and b`` → ``bed and breakfast``; runs of
    spaces collapse; one space of padding at each end.

    Example: ``normalize_entity("Christ 's College").text == " christs college "``.
    """
    m = Mapped.of(lower(text))
    m = m.sub(_APOSTROPHES, "'")
    m = m.sub(_POSSESSIVE, "s")
    m = m.sub("&", " and ")
    m = m.sub(_NON_ALNUM, " ")
    m = m.sub(_GUESTHOUSE, "guest house")
    m = m.sub(_B_AND_B, "bed and breakfast")
    m = m.sub(_SPACES, " ")
    text_n, spans = m.text, list(m.spans)
    # strip, then pad with exactly one space
    i, j = 0, len(text_n)
    while i < j and text_n[i] == " ":
        i += 1
    while j > i and text_n[j - 1] == " ":
        j -= 1
    core, core_spans = text_n[i:j], spans[i:j]
    if not core:
        return Mapped(" ", ((0, 0),))
    left = core_spans[0][0] if core_spans else 0
    right = core_spans[-1][1] if core_spans else 0
    return Mapped(" " + core + " ", tuple([(left, left)] + core_spans + [(right, right)]))


def normalize_value(text: str) -> str:
    """N(x) without padding, as a plain string (for comparing names)."""
    return normalize_entity(text).text.strip()


def nword_matches(norm: Mapped, value_norm: str) -> Iterator[tuple[int, int]]:
    """``nword(X, v)`` of §4.2: yield the source spans ``(start, end)`` in X of every occurrence
    of ``value_norm`` (= N(v) without padding) as `` … `` inside ``norm`` (= N(X))."""
    if not value_norm:
        return
    needle = " " + value_norm + " "
    i = norm.text.find(needle)
    while i >= 0:
        yield norm.source_span(i + 1, i + 1 + len(value_norm))
        i = norm.text.find(needle, i + 1)


_TOK_SPLIT = re.compile(r"[.,?]")


def _tokens(text_lc: str) -> list[str]:
    return _TOK_SPLIT.sub(" ", text_lc.replace("n't ", " not ")).split()


def tokdist(text_lc: str, a: str, b: str) -> int:
    """``tokdist(X, a, b)`` of §4.3: the least ``|i − j| − 1`` over token positions i of ``a``
    and j of ``b`` after replacing ``n't `` by `` not `` and ``.``, ``,``, ``?`` by spaces;
    ``len(tokens) + 1`` if either token is missing. ``text_lc`` must be lowercase."""
    toks = _tokens(text_lc)
    ia = [i for i, tok in enumerate(toks) if tok == a]
    ib = [j for j, tok in enumerate(toks) if tok == b]
    if not ia or not ib:
        return len(toks) + 1
    return min(abs(i - j) - 1 for i in ia for j in ib)


def negated(text_lc: str, w: str, limit: int) -> bool:
    """``negated(X, w, L)`` of §4.3: X has "not"/"n't" with ``tokdist(X, "not", w) < L``, or
    X contains ``"no " + w``."""
    if ("not" in text_lc or "n't" in text_lc) and tokdist(text_lc, "not", w) < limit:
        return True
    return ("no " + w) in text_lc


def polarity(text_lc: str, w: str, limit: int) -> str:
    """``polarity(X, w, L)`` of §4.3: ``"no"`` if :func:`negated`, else ``"yes"``."""
    return "no" if negated(text_lc, w, limit) else "yes"


#: The partial-ratio implementation, recorded in every signature (§4.4 MUST).
PARTIAL_RATIO_IMPL = "rapidfuzz.fuzz.partial_ratio"


def partial_ratio(a: str, b: str) -> int:
    """Fuzzy partial ratio of §4.4 on a 0–100 scale, rounded half up; 0 if either is empty.

    Uses ``rapidfuzz.fuzz.partial_ratio`` (best Indel-normalised similarity of the shorter
    string against every equal-length window of the longer one, ``processor=None``).
    """
    if not a or not b:
        return 0
    from rapidfuzz import fuzz

    return int(math.floor(fuzz.partial_ratio(a, b) + 0.5))
