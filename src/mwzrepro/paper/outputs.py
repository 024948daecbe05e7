"""The normalized outputs of every system for one test turn, with its context and the corpus
response, next to the paper's rows (Nekvinda & Dušek 2021, Tables 8 and 9; spec-paper-tables
§4)."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from mwzrepro.core.errors import InputError
from mwzrepro.paper.published import OutputsTable
from mwzrepro.paper.table2 import comparable

__all__ = ["outputs_table"]


def outputs_table(turns: pd.DataFrame, references: pd.DataFrame,
                  predictions: Mapping[str, pd.DataFrame],
                  published: OutputsTable) -> pd.DataFrame:
    """One turn's context, corpus response and system outputs.

    Args:
        turns: canonical ``turns`` of the test split (context).
        references: span ``references`` of the same split (the corpus row is its normalized
            reference).
        predictions: ``{system: predictions table}`` (``response_norm`` is shown).
        published: the ``table8``/``table9`` block.

    Returns:
        Columns ``row`` (``user``/``system`` context lines ``context 0``, ..., ``corpus``, then
        systems alphabetically), ``text`` (ours), ``paper`` (``–`` where the paper has no
        row), ``note`` (``matches the paper``, or why not, from the published notes).

    Raises:
        InputError: the dialogue or turn is not in the test turns or references.
    """
    did, turn = published.dialogue_id, published.turn
    log = turns[turns["dialogue_id"] == did].sort_values("turn_id")
    if log.empty or len(log) < 2 * turn + 2:
        raise InputError(f"test turns: dialogue {did} has no system turn {turn}")
    rows = []
    for tid, speaker, text in log[["turn_id", "speaker", "text"]].itertuples(index=False):
        if tid > 2 * turn:
            break
        rows.append({"row": f"context {tid} ({speaker})", "text": text, "paper": "–",
                     "note": published.context if tid == 2 * turn else ""})
    ref = references[(references["dialogue_id"] == did) & (references["turn"] == turn)]
    if ref.empty:
        raise InputError(f"references: dialogue {did} has no turn {turn}")
    candidates = [("corpus", str(ref["reference"].iloc[0]))]
    for system in sorted(predictions):
        preds = predictions[system]
        hit = preds[(preds["dialogue_id"] == did) & (preds["turn"] == turn)]
        candidates.append((system, str(hit["response_norm"].iloc[0]) if len(hit) else "–"))
    for name, text in candidates:
        paper = published.rows.get(name)
        if paper is None:
            note = published.notes.get(name, "")
        elif comparable(text) == comparable(paper):
            note = "matches the paper"
        else:
            note = published.notes.get(name, "differs from the paper (no explanation recorded)")
        rows.append({"row": name, "text": text, "paper": paper or "–", "note": note})
    return pd.DataFrame(rows, columns=["row", "text", "paper", "note"])
