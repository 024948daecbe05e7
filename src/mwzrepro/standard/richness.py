"""Lexical richness of generated responses (spec-standard-evaluation §12), bit-identical to the
reference evaluator (mwzeval 2022-06-10 with lexical-diversity 0.1.1).

Input: the *normalized* responses (spec §3, :func:`mwzrepro.core.normalize.normalize_response`) of
all evaluated turns, in input order (dialogues in input order, turns in order). Output: the
seven numbers of §12.2, unrounded.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import chain

from mwzrepro.core.errors import InputError

__all__ = ["LEXDIV_PUNCTUATION", "tokenize", "msttr", "lexical_richness", "RICHNESS_KEYS"]

#: The 18 strings lexical-diversity 0.1.1 deletes, in its order (spec §12.1).
LEXDIV_PUNCTUATION: tuple[str, ...] = (
    "``", "''", "'", ".", ",", "?", "!", ")", "(", "%", "/", "-", "_", "-LRB-", "-RRB-",
    "SYM", ":", ";",
)

#: Output keys of :func:`lexical_richness`, in the reference evaluator's order.
RICHNESS_KEYS = (
    "entropy", "cond_entropy", "avg_lengths", "msttr", "num_unigrams", "num_bigrams",
    "num_trigrams",
)

_WS = re.compile(r"\s+")


def tokenize(text: str) -> list[str]:
    """lexical-diversity 0.1.1 ``tokenize`` (spec §12.1).

    Deletes the 18 :data:`LEXDIV_PUNCTUATION` strings one after the other (case-sensitive,
    before lowercasing, so ``SYM`` is deleted but ``sym`` is not), collapses whitespace runs to
    one space, lowercases and splits on the single space, **keeping empty strings**: an empty
    response gives ``[""]``, a trailing ``:`` leaves a trailing ``""`` token (quirk, kept).
    """
    return _cleaned(text).split(" ")


@lru_cache(maxsize=1 << 15)
def _cleaned(text: str) -> str:
    """:func:`tokenize` before the split, cached (strings only: responses repeat within and
    across systems)."""
    for p in LEXDIV_PUNCTUATION:
        text = text.replace(p, "")
    return _WS.sub(" ", text).lower()


def msttr(tokens: Sequence[str], window: int = 50) -> float:
    """Mean segmental type-token ratio (lexical-diversity 0.1.1 ``msttr``, spec §12.2).

    If ``len(tokens) < window + 1``: ``|set(tokens)| / len(tokens)``. Otherwise the list is cut
    into ``len // window`` consecutive segments of exactly ``window`` tokens from the start
    (the remainder is dropped) and the segment ratios are summed left to right and divided by
    the number of segments. A fraction in [0, 1].

    Raises:
        ZeroDivisionError: ``tokens`` is empty (cannot happen for evaluated turns: every turn
            yields at least one token).
    """
    if len(tokens) < window + 1:
        return len(set(tokens)) / len(tokens)
    n = len(tokens) // window
    total = 0.0
    for k in range(n):
        total += len(set(tokens[k * window:(k + 1) * window])) / window
    return total / n


def lexical_richness(responses: Iterable[str], window: int = 50) -> dict[str, float | int]:
    """The richness metrics of spec §12.2 over normalized responses, one per evaluated turn.

    Args:
        responses: normalized responses (spec §3) in input order (dialogues in input order,
            turns in order; the order only matters for MSTTR).
        window: MSTTR segment length (50 in the reference evaluator).

    Returns:
        ``{"entropy", "cond_entropy", "avg_lengths", "msttr"`` (floats, unrounded; entropies
        in bits, ``avg_lengths`` in tokens per turn, ``msttr`` a fraction) ``,
        "num_unigrams", "num_bigrams", "num_trigrams"`` (ints: distinct n-grams, taken within
        turns)``}``. Floating-point recipe of §12.2 (terms in first-occurrence order, base-2
        logarithm as ``log(x, 2)`` = ln x / ln 2, never ``log2``), so values are bit-identical
        to the reference evaluator.

    Raises:
        InputError: ``responses`` is empty.
    """
    seen: dict[str, list[str]] = {}  # responses repeat within a system: tokenize each once
    turns: list[list[str]] = []
    for response in responses:
        toks = seen.get(response)
        if toks is None:
            toks = seen[response] = tokenize(response)
        turns.append(toks)
    n_turns = len(turns)
    if n_turns == 0:
        raise InputError("lexical richness needs at least one response")
    all_tokens = list(chain.from_iterable(turns))
    # one Counter per order: counts in first-occurrence order, as the evaluator's updates
    uni = Counter(all_tokens)
    bi = Counter(chain.from_iterable(zip(t, t[1:]) for t in turns))
    n_trigrams = len(set(chain.from_iterable(zip(t, t[1:], t[2:]) for t in turns)))
    n_tokens = len(all_tokens)
    acc = 0.0
    for c in uni.values():  # Counter keeps first-occurrence order
        p = c / n_tokens
        acc += p * math.log(p, 2)
    entropy = -acc
    acc = 0.0
    for (h, _w), c in bi.items():
        acc += (c / n_tokens) * math.log(c / uni[h], 2)
    cond_entropy = -acc
    return {
        "entropy": entropy,
        "cond_entropy": cond_entropy,
        "avg_lengths": n_tokens / n_turns,
        "msttr": msttr(all_tokens, window),
        "num_unigrams": len(uni),
        "num_bigrams": len(bi),
        "num_trigrams": n_trigrams,
    }
