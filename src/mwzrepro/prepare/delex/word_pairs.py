"""Word-sequence substitutions in the ``mapping.pair`` format, as the DAMD and UniConv
reference styles apply them (spec-paper-tables §1).

The format comes from the original MultiWOZ text preprocessing.

A word-pair file has one ``source<TAB>target`` line per substitution (for example a plural
and its stem followed by the ``-s`` marker that response normalization later deletes,
spec-standard-evaluation §3.1 step 3). DAMD's and UniConv's files are pinned sources
(``src/mwzrepro/resources/sources.yaml``, role ``delex-word-pairs``; their repositories and blob
ids are also listed in ``workflow/resources/published/nekvinda2021.yaml`` under
``word_pairs``), applied by default (``bleu_styles.word_pairs``). Without one, the styles run
with no substitutions (the ``pairs:no`` variant).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from mwzrepro.core.errors import InputError

__all__ = ["WordPairs", "parse_word_pairs", "read_word_pairs", "substitute_word_pairs"]

#: Ordered ``(source, target)`` substitutions.
WordPairs = tuple[tuple[str, str], ...]


def parse_word_pairs(text: str, source: str = "<text>") -> WordPairs:
    """Parse ``source<TAB>target`` lines (empty lines ignored; ``\\r`` stripped).

    >>> parse_word_pairs("hotels\\thotel -s\\none\\t1\\n")
    (('hotels', 'hotel -s'), ('one', '1'))

    Raises:
        InputError: a non-empty line without exactly one tab (names ``source`` and the line).
    """
    pairs = []
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.rstrip("\r")
        if not line:
            continue
        parts = line.split("\t")
        if len(parts) != 2:
            raise InputError(f"{source}: line {number}: expected 'source<TAB>target': {line!r}")
        pairs.append((parts[0], parts[1]))
    return tuple(pairs)


def read_word_pairs(path: str | os.PathLike[str] | None) -> WordPairs:
    """The pairs of a word-pair file, or ``()`` for ``None``.

    Raises:
        InputError: unreadable file or malformed line.
    """
    if path is None:
        return ()
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read word pairs: {exc}") from None
    return parse_word_pairs(text, str(path))


def substitute_word_pairs(text: str, pairs: Iterable[tuple[str, str]]) -> str:
    """Apply each pair in order as a whole-word substitution: every non-overlapping
    occurrence of ``" source "`` in ``" " + text + " "`` becomes ``" target "``.

    Because occurrences do not overlap, of two adjacent matches sharing a space only the first
    is replaced (the source preprocessing behaves the same way).

    >>> substitute_word_pairs("there are two hotels", [("hotels", "hotel -s"), ("two", "2")])
    'there are 2 hotel -s'
    >>> substitute_word_pairs("one one one", [("one", "1")])
    '1 one 1'
    """
    for source, target in pairs:
        text = (" " + text + " ").replace(f" {source} ", f" {target} ")[1:-1]
    return text
