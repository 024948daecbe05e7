"""String machinery of the unseen-entity test set: the pool key, the entity normalisation N,
word-bounded matching on a token-normalised view of a text, and the surface form of a
replacement in MultiWOZ text.

* :func:`key` is the SGD pool key of spec-unseen-entity-test-set §4.2 (lowercase, typographic
  apostrophes, collapsed whitespace).
* :func:`norm` is N of spec-annotation-consistency §4.2; :func:`nword` its word-bounded match.
* :func:`view` is the token-normalised view of §8.1 step 2: the words of N(text), each with the
  character offsets of the original text it came from, so that a match found on normalised words
  maps back to original offsets. ``norm(x) == " " + " ".join(w.text for w in view(x)) + " "``
  holds for every string, so matching on the view and :func:`nword` always agree.
* :func:`match_case` and :func:`tokenise_like` give the replacement's surface in a text (§8.2).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

__all__ = [
    "Word",
    "key",
    "norm",
    "norm_words",
    "nword",
    "view",
    "find_words",
    "find_many",
    "index_patterns",
    "span_of",
    "match_case",
    "tokenise_like",
    "is_tokenised",
    "DONTCARE",
    "is_empty_or_dontcare",
]

#: Every spelling of "don't care" in MultiWOZ 2.0/2.1/2.2 (spec-dst-metrics §2.3), lowercased.
DONTCARE = frozenset({"dontcare", "dont care", "don't care", "do n't care", "do nt care"})
_EMPTY = frozenset({"", "none", "not mentioned"})
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})

# One piece of text: an ASCII alphanumeric run, an ampersand, or a possessive 's.
_PIECE = re.compile(r"[A-Za-z0-9]+|&|['\u2019\u2018\u02bc][sS](?![A-Za-z0-9])")


@dataclass(frozen=True)
class Word:
    """One word of a token-normalised view.

    Attributes:
        text: the normalised word (lowercase ASCII letters and digits).
        start: offset of the first original character it came from.
        end: offset one past the last original character it came from.
        group: words expanded from one original piece (``guesthouse`` → ``guest house``) share a
            group; a match may not split a group.
        poss: for a word that absorbed a possessive ``'s`` (``christ 's`` → ``christs``), the
            offset where the ``'s`` (with any space before it) begins; else -1. A pattern whose
            last word is the word without its final ``s`` still matches, and the match ends
            there, so a following ``'s`` stays outside the mention (§8.2).
    """

    text: str
    start: int
    end: int
    group: int
    poss: int = -1


def key(text: str) -> str:
    """The SGD pool key (§4.2): lowercase, typographic apostrophes → ``'``, whitespace runs
    collapsed to one space, trimmed. ``key(" Best  Western’s ") == "best western's"``."""
    return " ".join(text.translate(_APOSTROPHES).lower().split())


def view(text: str) -> list[Word]:
    """The token-normalised view of ``text`` (spec-unseen-entity-test-set §8.1 step 2).

    The words are those of N(text) (spec-annotation-consistency §4.2): lowercase; possessive
    ``'s`` (also tokenised `` 's``) joined to the preceding word; ``&`` → ``and``; every other
    character outside ``[a-z0-9]`` a separator; ``guesthouse`` → ``guest house``; the word
    sequence ``b and b`` → ``bed and breakfast``.

    Returns:
        the words in order, with original character offsets (``text[w.start:w.end]`` is the
        original spelling of ``w``, possibly including a joined ``'s``).
    """
    words: list[Word] = []
    group = 0
    prev_alnum = False
    for m in _PIECE.finditer(text):
        piece = m.group()
        if piece[0] in "'\u2019\u2018\u02bc":
            if words and prev_alnum and not text[words[-1].end : m.start()].strip():
                last = words[-1]
                words[-1] = Word(last.text + "s", last.start, m.end(), last.group, last.end)
                continue
            words.append(Word("s", m.start() + 1, m.end(), group))
            prev_alnum = True
        elif piece == "&":
            words.append(Word("and", m.start(), m.end(), group))
            prev_alnum = False
        else:
            low = piece.lower()
            if "guesthouse" in low:
                parts = low.replace("guesthouse", "guest house").split()
                for part in parts:
                    words.append(Word(part, m.start(), m.end(), group))
            else:
                words.append(Word(low, m.start(), m.end(), group))
            prev_alnum = True
        group += 1
    return _expand_b_and_b(words)


def _expand_b_and_b(words: list[Word]) -> list[Word]:
    out: list[Word] = []
    i = 0
    while i < len(words):
        if (
            i + 2 < len(words)
            and words[i].text == "b"
            and words[i + 1].text == "and"
            and words[i + 2].text == "b"
        ):
            a, b, c = words[i], words[i + 1], words[i + 2]
            out += [Word("bed", a.start, a.end, a.group), b, Word("breakfast", c.start, c.end,
                                                                   c.group)]
            i += 3
        else:
            out.append(words[i])
            i += 1
    return out


@lru_cache(maxsize=1 << 16)
def norm_words(text: str) -> tuple[str, ...]:
    """The words of N(``text``) as a tuple (``("christs", "college")`` for
    ``"christ 's college"``)."""
    return tuple(w.text for w in view(text))


@lru_cache(maxsize=1 << 16)
def norm(text: str) -> str:
    """N(``text``) of spec-annotation-consistency §4.2, padded with one space at each end.

    >>> norm("Christ 's College")
    ' christs college '
    >>> norm("Alexander B & B")
    ' alexander bed and breakfast '
    >>> norm("Arbury Lodge Guesthouse")
    ' arbury lodge guest house '
    """
    words = norm_words(text)
    return " " + " ".join(words) + " " if words else " "


def nword(text: str, value: str) -> bool:
    """``nword(X, v)`` of spec-annotation-consistency §4.2: N(v) occurs word-bounded in N(X).
    An empty N(v) never matches."""
    nv = norm(value)
    return nv != " " and nv in norm(text)


def find_words(words: list[Word], pattern: tuple[str, ...]) -> list[tuple[int, int]]:
    """All occurrences of the word sequence ``pattern`` in ``words``.

    Returns:
        ``[(i, j)]`` word index ranges (``words[i:j]`` equals the pattern), left to right,
        overlapping occurrences included; occurrences that would split an expansion group
        (part of ``guesthouse``) are left out.
    """
    n = len(pattern)
    if not n:
        return []
    return [(i, i + n) for i in range(len(words) - n + 1) if _fits(words, i, pattern)]


def _fits(words: list[Word], i: int, pattern: tuple[str, ...], possessive: bool = False
          ) -> bool:
    j = i + len(pattern)
    if j > len(words):
        return False
    last = len(pattern) - 1
    if any(words[i + k].text != pattern[k] for k in range(last)):
        return False
    w = words[i + last]
    if w.text != pattern[last] and not (
        possessive and w.poss >= 0 and w.text == pattern[last] + "s"
    ):
        return False
    if i > 0 and words[i - 1].group == words[i].group:
        return False
    return not (j < len(words) and words[j].group == words[j - 1].group)


def span_of(words: list[Word], i: int, j: int, pattern: tuple[str, ...]) -> tuple[int, int]:
    """Character range in the original text of the match ``words[i:j]`` of ``pattern``; a
    possessive ``'s`` absorbed by the last word is left outside."""
    last = words[j - 1]
    end = last.poss if (last.poss >= 0 and last.text != pattern[-1]) else last.end
    return words[i].start, end


def index_patterns(patterns) -> dict[str, list[tuple[str, ...]]]:
    """``{first word: [patterns starting with it]}`` for :func:`find_many` (longest first)."""
    index: dict[str, list[tuple[str, ...]]] = {}
    for p in patterns:
        if p:
            index.setdefault(p[0], []).append(p)
    for lst in index.values():
        lst.sort(key=lambda p: (-len(p), p))
    return index


def find_many(words: list[Word], index: dict[str, list[tuple[str, ...]]],
              possessive: bool = False) -> list[tuple[int, int, tuple[str, ...]]]:
    """Every occurrence of every indexed pattern in ``words`` (see :func:`find_words`).

    Args:
        possessive: also match a last word followed by an absorbed ``'s`` (``cambridge 's``
            for the pattern ``cambridge``); use :func:`span_of` for the character range.

    Returns:
        ``[(i, j, pattern)]`` sorted by ``i`` then by decreasing length.
    """
    out = []
    for i, w in enumerate(words):
        for p in index.get(w.text, ()):
            if _fits(words, i, p, possessive):
                out.append((i, i + len(p), p))
        if possessive and w.poss >= 0 and len(words) > 0:
            # single-word patterns hidden by the possessive (``cambridges``)
            for p in index.get(w.text[:-1], ()):
                if len(p) == 1 and _fits(words, i, p, True):
                    out.append((i, i + 1, p))
    return out


def match_case(mention: str, surface: str) -> str:
    """The replacement surface cased like the original mention (§8.2): an all-lowercase mention
    gives a lowercase surface, an all-capitals mention an all-capitals surface, anything else
    the pool surface unchanged."""
    has_cased = any(c.isalpha() for c in mention)
    if has_cased and mention == mention.lower():
        return surface.lower()
    if has_cased and mention == mention.upper():
        return surface.upper()
    return surface


_TRAILING_PUNCT = re.compile(r"(?<=\S)([.,!?])$")


def tokenise_like(surface: str) -> str:
    """Tokenise a surface the way the 2.0/2.1 ConvLab copies tokenise text (§8.2): possessive
    ``'s`` and a final punctuation mark become separate tokens.

    >>> tokenise_like("Joe's Crab Shack")
    "Joe 's Crab Shack"
    >>> tokenise_like("Acme Inc.")
    'Acme Inc .'
    """
    out = re.sub(r"(?<=\w)'s\b", " 's", surface)
    return _TRAILING_PUNCT.sub(r" \1", out)


def is_tokenised(texts: list[str]) -> bool:
    """``match_tokenisation: auto`` (§8.2): the dialogue counts as tokenised when any of its
    utterances contains `` 's``, `` .`` or `` ,``."""
    return any((" 's" in t) or (" ." in t) or (" ," in t) for t in texts)


def is_empty_or_dontcare(value: str) -> bool:
    """True for the values that are never replaced (§3, §6.1): empty markers and every
    spelling of dontcare (case-insensitive, trimmed)."""
    v = value.strip().lower()
    return v in _EMPTY or v in DONTCARE
