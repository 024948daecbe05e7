"""DAMD's text cleaning (``clean_dataset.py`` of ``thu-spmi/damd-multiwoz`` at ``9b0456d``):
:func:`clean_time` and :func:`clean_text`, run on every response and on every database value
before DAMD's delexicalization (:mod:`.damd`, :mod:`.damd_values`).
"""

from __future__ import annotations

import re

from mwzrepro.prepare.delex.word_pairs import WordPairs, substitute_word_pairs

__all__ = ["clean_time", "clean_text"]

#: Repairs of frequent spelling and formatting problems, applied in order after the time
#: rewriting (DAMD ``clean_text``). Patterns are regular expressions. (The source's one
#: capitalized pattern can never match its lowercased text and is left out.)
_REPAIRS: tuple[tuple[str, str], ...] = (
    (r"c\.b (\d), (\d) ([a-z])\.([a-z])", r"cb\1\2\3\4"),
    ("c.b. 1 7 d.y", "cb17dy"),
    ("c.b.1 7 d.y", "cb17dy"),
    ("c.b 25, 9 a.q", "cb259aq"),
    ("isc.b 25, 9 a.q", "is cb259aq"),
    ("c.b2, 1 u.f", "cb21uf"),
    ("c.b 1,2 q.a", "cb12qa"),
    ("0-122-336-5664", "01223365664"),
    ("postcodecb21rs", "postcode cb21rs"),
    (r"i\.d", "id"),
    (" i d ", "id"),
    ("depature", "departure"),
    ("depearting", "departing"),
    ("-type", " type"),
    (r"b[\s]?&[\s]?b", "bed and breakfast"),
    ("b and b", "bed and breakfast"),
    (r"guesthouse[s]?", "guest house"),
    (r"swimmingpool[s]?", "swimming pool"),
    ("wo n't", "will not"),
    (" 'd ", " would "),
    (" 'm ", " am "),
    (" 're' ", " are "),
    (" 'll' ", " will "),
    (" 've ", " have "),
    (r"^'", ""),
    (r"'$", ""),
)
_REPAIRS_RE = tuple((re.compile(p), r) for p, r in _REPAIRS)


def clean_time(text: str) -> str:
    """DAMD's time rewriting: ``9 am`` → ``09:00``, ``5pm`` → ``17:00``, ``7:30pm`` →
    ``19:30``, ``9:15`` → ``09:15`` (quirks: ``12:30pm`` → ``24:30``; ``12pm`` unchanged).

    >>> clean_time("at 9 am or 7:30pm, not 5pm")
    'at 09:00 or 19:30, not 17:00'
    """
    text = re.sub(r"(\d+) ([ap]\.?m)", r"\1\2", text)
    text = re.sub(r"((?<!\d)\d:\d+)(am)?", r"0\1", text)
    text = re.sub(r"((?<!\d)\d)am", r"0\1:00", text)
    text = re.sub(r"((?<!\d)\d)pm", lambda m: f"{int(m.group(1)) + 12}:00", text)
    text = re.sub(r"(\d+)(:\d+)pm", lambda m: f"{int(m.group(1)) + 12}{m.group(2)}", text)
    return re.sub(r"(\d+)a\.?m", r"\1", text)


def clean_text(text: str, pairs: WordPairs = ()) -> str:
    """DAMD's text cleaning: strip, lowercase, unify quotes, ``;`` → ``,``, drop ``"``,
    ``/`` → `` and ``, ``don't`` → ``do n't``, :func:`clean_time`, the spelling repairs,
    ``abc.def`` → ``abc . def``, ``abc. `` → ``abc . ``, then the word pairs.

    >>> clean_text("The B&B is on Hills Rd.Ok? guesthouses/hotels")
    'the bed and breakfast is on hills rd . ok? guest house and hotels'
    """
    text = text.strip().lower().replace("\u2019", "'").replace("\u2018", "'")
    text = text.replace(";", ",").replace('"', " ").replace("/", " and ")
    text = clean_time(text.replace("don't", "do n't"))
    for pattern, repl in _REPAIRS_RE:
        text = pattern.sub(repl, text)
    text = re.sub(r"([a-zT]+)\.([a-z])", r"\1 . \2", text)
    text = re.sub(r"(\w+)\.\.? ", r"\1 . ", text)
    return substitute_word_pairs(text, pairs)
