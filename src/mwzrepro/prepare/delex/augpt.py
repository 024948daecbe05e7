"""AuGPT-style delexicalized references (Nekvinda & Dušek 2021, Table 4 row "AuGPT").

Re-implements the response delexicalization of AuGPT (Kulhánek et al. 2021) as published in
``ufal/augpt`` at commit ``fa8a579``, ``scripts/download_convlab_multiwoz.py``:
``BeliefStateTransformation`` (the belief state of a system turn), ``delexicalise`` (which
slots may be delexicalized: the fields of the database results for that belief, plus
``reference``), ``delexicalise_spans`` with ``DELEX_LABEL_MAP`` (ConvLab-2 span → ``[label]``)
and ``clear_whitespaces``.

Input: the MultiWOZ 2.1 test split of ConvLab-2 (AuGPT downloads ConvLab-2 at ``e368deeb``;
its ``test.json.zip`` and databases are byte-identical to the mirror's ``b014b81`` copies) and
the ConvLab-2 databases (:mod:`.convlab_db`). Text keeps its case. Day, people, stay, choice,
departure, destination, fee, department and opening hours are never delexicalized.

Example (spec-paper-tables §2): "cafe jello gallery has a free entrance fee . The address is
cafe jello gallery , 13 magdalene street ..." → "[address] has a free entrance fee. The address
is cafe jello gallery, [address] and the post code is [postcode]. Can I help you ...".
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pandas as pd

from mwzrepro.prepare.delex.convlab_db import ConvlabDatabase
from mwzrepro.prepare.delex.references import reference_row, references_frame, system_turns

__all__ = ["LABELS", "belief_state", "allowed_labels", "delexicalize_spans",
           "clear_whitespaces", "ontology_words", "build_references"]

#: ConvLab-2 span slot → AuGPT placeholder label; ``None``: never delexicalized.
LABELS: dict[str, str | None] = {
    "Price": "price range", "Fee": None, "Addr": "address", "Area": "area", "Stars": "stars",
    "Department": None, "Stay": None, "Ref": "reference", "Food": "food", "Type": "type",
    "Choice": None, "Phone": "phone", "Ticket": "price", "Day": None, "Name": "name",
    "Car": "car", "Leave": "leave at", "Time": "time", "Arrive": "arrive by",
    "Post": "postcode", "Depart": None, "People": None, "Dest": None, "Open": None, "Id": "id",
}

_IGNORED = frozenset({"not mentioned", "dont care", "don't care", "dontcare", "do n't care",
                      "none"})
_SLOTS = {"arriveBy": "arrive by", "leaveAt": "leave at", "pricerange": "price range"}
_VALUES = {"el shaddia guesthouse": "el shaddai", "concerthall": "concert hall",
           "nightclub": "night club"}


def belief_state(metadata: Mapping[str, Any], acts: Mapping[str, Any],
                 attraction_names: Mapping[str, str] | None = None) -> dict[str, dict[str, str]]:
    """AuGPT's belief state of a system turn: per domain, ``semi`` and ``book`` slots
    (``booked`` excluded) with a real value, slots renamed (``arriveBy`` → ``arrive by``,
    ``pricerange`` → ``price range``), values cleaned, ``internet``/``parking`` ``no``
    dropped, empty domains dropped; police and hospital added (empty) when the turn's
    dialogue acts name them; attraction names without apostrophes restored
    (``attraction_names``: name without ``'`` → database name).

    >>> belief_state({"hotel": {"semi": {"pricerange": "cheap", "parking": "no"},
    ...                         "book": {"booked": [], "people": "2"}}},
    ...              {"Police-Inform": [["Addr", "x"]]})
    {'hotel': {'price range': 'cheap', 'people': '2'}, 'police': {}}
    """
    attraction_names = attraction_names or {}
    out: dict[str, dict[str, str]] = {}
    for domain, parts in metadata.items():
        slots = dict(parts.get("semi") or {})
        slots.update({k: v for k, v in (parts.get("book") or {}).items() if k != "booked"})
        clean = {}
        for slot, value in slots.items():
            if not isinstance(value, str) or not value or value in _IGNORED:
                continue
            value = value.replace(">", " ")
            value = _VALUES.get(value, value).lstrip("`")
            clean[_SLOTS.get(slot, slot)] = attraction_names.get(value, value)
        for slot in ("internet", "parking"):
            if clean.get(slot) == "no":
                del clean[slot]
        if clean:
            out[domain] = clean
    for domain in ("Police", "Hospital"):
        if any(act.split("-", 1)[0] == domain and pairs for act, pairs in acts.items()):
            out[domain.lower()] = {}
    return out


def allowed_labels(belief: Mapping[str, Mapping[str, str]], db: ConvlabDatabase) -> set[str]:
    """Labels AuGPT may delexicalize in a turn: ``reference``, the fields of the first
    database result of every belief domain (the belief's own slots when nothing matches, and
    added to the result otherwise), and ``time`` when ``arrive by`` or ``leave at`` is among
    them."""
    allowed = {"reference"}
    for domain, slots in belief.items():
        if domain not in ("restaurant", "hotel", "attraction", "train", "taxi", "hospital",
                          "police"):
            continue
        results = db.query(domain, slots)
        allowed.update(results[0] if results else slots)
        allowed.update(slots)
    if {"arrive by", "leave at"} & allowed:
        allowed.add("time")
    return allowed


def delexicalize_spans(text: str, spans: Iterable[Sequence[Any]], allowed: set[str],
                       unknown: Counter[str] | None = None) -> str:
    """AuGPT's ``delexicalise_spans``: words covered by an allowed span become ``[label]``.

    Spans (``[act, slot, value, first word, last word]``) are sorted by first word; a
    ``Time`` value with minutes/hours/days is a ``duration``; a span starting on ``,``/``.``/
    ``:`` writes the mark and the placeholder twice (source quirk); ``the``/``in the`` before
    an area, ``a`` before a time, and ``of town`` / ``ride`` at the end of an area / time
    stay as words; ``4-star`` keeps ``-star``; adjacent addresses joined by a comma merge.

    >>> delexicalize_spans("the hotel is in the east of town .",
    ...                    [["x", "Area", "east of town", 5, 7]], {"area"})
    'the hotel is in the [area] of town .'
    """
    kept = []
    for span in sorted(spans, key=lambda s: int(s[3])):
        label = LABELS.get(str(span[1]))
        if str(span[1]) not in LABELS and unknown is not None:
            unknown[str(span[1])] += 1
        if label is None or label not in allowed or (span[1] == "Fee" and "vary" in span[2]):
            continue
        kept.append((label, str(span[2]), int(span[3]), int(span[4])))
    out: list[str] = []
    current: list[Any] = []  # [label, text or None] of the last placeholder
    for i, word in enumerate(text.split()):
        for label, value, first, last in kept:
            if label == "time" and any(w in value for w in ("minute", "hour", "day")):
                label = "duration"
            if word in {",", ".", ":"}:
                if i != first:
                    continue
                out += [word, f"[{label}]"]
                current = [label, None]
            if i == first:
                if label == "stars" and "-star" in word:
                    number, ext = word.split("-")[:2]
                    out.append(f"[{label}]-{ext}")
                    current = [label, number]
                elif (label == "area" and word == "the") or (label == "time" and word == "a"):
                    out += [word, f"[{label}]"]
                    current = [label, None]
                elif label == "area" and word == "in" and value.startswith("in the "):
                    out += ["in", "the", f"[{label}]"]
                    current = [label, None]
                elif label == "address" and out[-2:] == ["[address]", ","]:
                    out.pop()
                    current = [label, f"{current[1]} , {word}"]
                else:
                    out.append(f"[{label}]")
                    current = [label, word]
                break
            if first < i <= last and current:
                current[1] = word if current[1] is None else f"{current[1]} {word}"
                if i == last and current[0] == "area" and current[1].endswith(" of town"):
                    out += ["of", "town"]
                    current[1] = current[1][: -len(" of town")]
                if i == last and current[0] == "time" and current[1].endswith(" ride"):
                    out.append("ride")
                    current[1] = current[1][: -len(" ride")]
                break
        else:
            out.append(word)
    return " ".join(out)


def clear_whitespaces(text: str) -> str:
    """Collapse whitespace and remove it before ``, . : ? ! '`` runs (``you 're`` →
    ``you're``).

    >>> clear_whitespaces("hello , you 're  welcome !")
    "hello, you're welcome!"
    """
    text = " " + re.sub(r"[\s\n\r]+", " ", text) + " "
    return re.sub(r"\s([,\.:\?\!\']+)", lambda m: m.group(1), text).strip()


def ontology_words(dialogue_sets: Iterable[Mapping[str, Any]],
                   attraction_names: Mapping[str, str] | None = None) -> set[str]:
    """The belief-state values AuGPT removes from names before its name retry (hotel type,
    price range, area; restaurant price range, food, area; attraction type), collected from
    the system-turn belief states of the given raw dialogues."""
    keys = {("hotel", "type"), ("hotel", "price range"), ("hotel", "area"),
            ("restaurant", "price range"), ("restaurant", "food"), ("restaurant", "area"),
            ("attraction", "type")}
    words: set[str] = set()
    for dialogues in dialogue_sets:
        for dialogue in dialogues.values():
            for entry in dialogue["log"][1::2]:
                belief = belief_state(entry.get("metadata") or {}, {}, attraction_names)
                words.update(v for d, s in belief.items() for k, v in s.items()
                             if (d, k) in keys)
    return words


def build_references(dialogues: Mapping[str, Mapping[str, Any]], db: ConvlabDatabase,
                     attraction_names: Mapping[str, str] | None = None,
                     unknown: Counter[str] | None = None) -> pd.DataFrame:
    """AuGPT-style ``references`` table of every system turn.

    Args:
        dialogues: raw ConvLab-2 dialogues (MultiWOZ 2.1 test).
        db: the ConvLab-2 database (:class:`.convlab_db.ConvlabDatabase`).
        attraction_names: attraction database names keyed by the name without apostrophes.
        unknown: receives span slots missing from :data:`LABELS` and placeholder names that
            response normalization deleted.

    Returns:
        ``references`` table (dialogue_id, turn, text, delex, reference).
    """
    rows = []
    for did, turn, entry, _dialogue in system_turns(dialogues):
        belief = belief_state(entry.get("metadata") or {}, entry.get("dialog_act") or {},
                              attraction_names)
        allowed = allowed_labels(belief, db)
        delex = clear_whitespaces(
            delexicalize_spans(entry["text"], entry.get("span_info") or [], allowed, unknown))
        rows.append(reference_row(did, turn, entry["text"], delex, unknown))
    return references_frame(rows)
