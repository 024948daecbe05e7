"""The text normalization of the original MultiWOZ preprocessing, for the UniConv reference
style (:mod:`.uniconv`).

Re-implements ``normalize`` and ``insertSpace`` of ``utils/nlp.py`` as UniConv ships it
(``henryhungle/UniConv`` at ``e2b9bc8``).

Steps: lowercase and strip; ``b&b``/``b and b`` → ``bed and breakfast``; phone numbers and
postcodes written without separators; curly quotes → ``'``; ``;`` → ``,``; ``/`` → `` and ``;
``-`` → space; ``" : < > @ ( )`` removed; spaces around ``? . , !`` (not between digits) and
before ``'s``; quotes at word edges removed; the word pairs (:mod:`.word_pairs`) plus
``guesthouses`` → ``guesthouse -s``; single spaces; adjacent numbers joined.

MultiWOZ 2.1 as distributed by ConvLab-2 is already tokenized (``you 're``, ``do n't``);
:func:`detokenize_clitics` restores the contractions of the original text first, so that the
word pairs see ``you're`` as the original preprocessing did.
"""

from __future__ import annotations

import re

from mwzrepro.prepare.delex.word_pairs import WordPairs, substitute_word_pairs

__all__ = ["detokenize_clitics", "space_around", "normalize_text"]

_PHONE_RE = re.compile(r"\(?(\d{3})\)?[-.\s]?(\d{3})[-.\s]?(\d{4,5})")
_POSTCODE_RE = re.compile(r"([a-z]{1}[\. ]?[a-z]{1}[\. ]?\d{1,2}[, ]+\d{1}[\. ]?[a-z]{1}[\. ]?"
                          r"[a-z]{1}|[a-z]{2}\d{2}[a-z]{2})")
_EXTRA_PAIR = ("guesthouses", "guesthouse -s")
_DIGITS = frozenset("0123456789")


def detokenize_clitics(text: str) -> str:
    """Join Penn-style clitics to their word: ``you 're`` → ``you're``, ``ca n't`` →
    ``can't``.

    >>> detokenize_clitics("you 're sure i ca n't ?")
    "you're sure i can't ?"
    """
    text = re.sub(r"\bca n't\b", "can't", text)
    return re.sub(r"(\S) (n't|'s|'m|'d|'re|'ll|'ve)(?=\s|$)", r"\1\2", text)


def space_around(token: str, text: str) -> str:
    """Put a space before and after every occurrence of ``token`` (the source's
    ``insertSpace``), except between two digits (``5.50``); quirk: a token at position 0
    looks at the last character as its left neighbour, and for a two-character token the
    right space goes after its first character.

    >>> space_around(".", "it costs 5.50.thanks")
    'it costs 5.50 . thanks'
    """
    at = 0
    while True:
        at = text.find(token, at)
        if at == -1:
            return text
        if at + 1 < len(text) and text[at - 1] in _DIGITS and text[at + 1] in _DIGITS:
            at += 1
            continue
        if text[at - 1] != " ":
            text = f"{text[:at]} {text[at:]}"
            at += 1
        if at + len(token) < len(text) and text[at + len(token)] != " ":
            text = f"{text[:at + 1]} {text[at + 1:]}"
        at += 1


def _squeeze_phone_numbers(text: str) -> str:
    at = 0
    for groups in _PHONE_RE.findall(text):
        at = text.find(groups[0], at)
        if text[at - 1] == "(":
            at -= 1
        end = text.find(groups[-1], at) + len(groups[-1])
        text = text.replace(text[at:end], "".join(groups))
    return text


def _squeeze_postcodes(text: str) -> str:
    at = 0
    for code in _POSTCODE_RE.findall(text):
        at = text.find(code, at)
        text = text[:at] + re.sub(r"[,\. ]", "", code) + text[at + len(code):]
    return text


def normalize_text(text: str, pairs: WordPairs = ()) -> str:
    """The original MultiWOZ ``normalize`` (see the module docstring).

    >>> normalize_text("The phone is (01223) 351-880, post code C.B 2, 1 U.F. Hotels!")
    'the phone is 01223351880 , post code cb21uf . hotels !'
    >>> normalize_text("Guesthouses at 10:15?", [("guesthouse", "guest house")])
    'guesthouse -s at 1015 ?'
    """
    text = text.lower().strip()
    text = text.replace("b&b", "bed and breakfast").replace("b and b", "bed and breakfast")
    text = _squeeze_postcodes(_squeeze_phone_numbers(text))
    text = text.replace("\u2018", "'").replace("\u2019", "'").replace(";", ",")
    text = text.replace("/", " and ").replace("-", " ")
    text = re.sub(r"[\":<>@()]", "", text)
    for token in ("?", ".", ",", "!", "'s"):
        text = space_around(token, text)
    text = re.sub(r"^'", "", text)
    text = re.sub(r"'$", "", text)
    text = re.sub(r"'\s", " ", text)
    text = re.sub(r"\s'", " ", text)
    text = substitute_word_pairs(text, (*pairs, _EXTRA_PAIR))
    text = re.sub(" +", " ", text)
    tokens = text.split()
    i = 1
    while i < len(tokens):
        if re.fullmatch(r"\d+", tokens[i]) and re.match(r"\d+$", tokens[i - 1]):
            tokens[i - 1] += tokens[i]
            del tokens[i]
        else:
            i += 1
    return " ".join(tokens)
