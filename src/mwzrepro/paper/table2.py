"""One test response delexicalized in every reference style, as our code produces it, next to
the paper's text (Nekvinda & Dušek 2021, Table 2; spec-paper-tables §2)."""

from __future__ import annotations

import re
from collections.abc import Mapping

import pandas as pd

from mwzrepro.core.errors import InputError
from mwzrepro.paper.published import Table2
from mwzrepro.prepare.delex.styles import STYLES

__all__ = ["comparable", "delex_example"]


def comparable(text: str) -> str:
    """The form in which our output and the paper's text are compared: lowercase, ``_`` inside
    placeholders as a space, no space before ``. , ? !``, single spaces (the paper prints
    detokenized text and ``[value name]`` for ``[value_name]``).

    >>> comparable("[value_name] has a [value_price] fee . Can I ?")
    '[value name] has a [value price] fee. can i?'
    """
    text = re.sub(r"\[([^\]]*)\]", lambda m: "[" + m.group(1).replace("_", " ") + "]", text)
    text = re.sub(r"\s+([.,?!])", r"\1", text.lower())
    return " ".join(text.split())


def delex_example(references: Mapping[str, pd.DataFrame], published: Table2) -> pd.DataFrame:
    """The example turn under each style.

    Args:
        references: ``{style: references table}`` (any subset of the styles).
        published: the ``table2`` block (dialogue, turn, the paper's text per style, notes).

    Returns:
        One row per style (paper order): ``style``, ``ours`` (our delexicalized text),
        ``normalized`` (our BLEU reference), ``paper``, ``same`` (``yes`` when ours equals the
        paper's text under :func:`comparable`), ``note``.

    Raises:
        InputError: the turn is missing from a style's references.
    """
    rows = []
    for name in STYLES:
        if name not in references:
            continue
        refs = references[name]
        hit = refs[(refs["dialogue_id"] == published.dialogue_id)
                   & (refs["turn"] == published.turn)]
        if hit.empty:
            raise InputError(f"{name} references: no turn {published.turn} of dialogue "
                             f"{published.dialogue_id}")
        ours = str(hit["delex"].iloc[0])
        paper = published.rows.get(name, "")
        same = bool(paper) and comparable(ours) == comparable(paper)
        rows.append({"style": STYLES[name].title, "ours": ours,
                     "normalized": str(hit["reference"].iloc[0]), "paper": paper or "–",
                     "same": "yes" if same else "no", "note": published.notes.get(name, "")})
    return pd.DataFrame(rows, columns=["style", "ours", "normalized", "paper", "same", "note"])
