"""Conversations, turns and average turns per split, next to the FGA paper's Table 2 (Dey et
al., ACL 2022; spec-paper-tables §5).

Computed for the splits in the mirror, on MultiWOZ 2.1 and 2.0.

A "turn" is a user–system exchange: half the log entries of a dialogue. The paper's test row
excludes PMUL1455; its train row cannot be computed (the training split is not mirrored).
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from mwzrepro.paper.published import FgaTable2

__all__ = ["split_statistics", "fga_table2"]


def split_statistics(dialogues: pd.DataFrame, excluded: list[str] = ()) -> dict[str, float]:
    """``{"conversations", "turns", "avg_turns"}`` of a ``dialogues`` table, without the
    dialogues in ``excluded`` (lowercase ids).

    >>> d = pd.DataFrame({"dialogue_id": ["a", "b", "c"], "n_turns": [8, 12, 4]})
    >>> split_statistics(d, ["c"])
    {'conversations': 2, 'turns': 10, 'avg_turns': 5.0}
    """
    kept = dialogues[~dialogues["dialogue_id"].isin(list(excluded))]
    turns = int((kept["n_turns"] // 2).sum())
    n = len(kept)
    return {"conversations": n, "turns": turns, "avg_turns": turns / n if n else float("nan")}


def fga_table2(dialogues: Mapping[tuple[str, str], pd.DataFrame],
               published: FgaTable2) -> pd.DataFrame:
    """The table: one row per (split in the paper's order, version), then the paper's row.

    Args:
        dialogues: ``{(version, split): dialogues table}`` for the computed splits.
        published: the ``fga_table2`` block.

    Returns:
        Columns ``split``, ``data`` (``mwz21``, ``mwz20`` or ``paper``), ``conversations``,
        ``turns``, ``avg. turns``, ``note``. A split without data gets one ``not computed``
        row per version.
    """
    versions = sorted({v for v, _ in dialogues}, reverse=True)
    rows = []
    for prow in published.rows:
        split = prow.split
        for version in versions:
            table = dialogues.get((version, split))
            if table is None:
                rows.append({"split": split, "data": version, "conversations": "not computed",
                             "turns": "not computed", "avg. turns": "not computed",
                             "note": published.notes.get(split, "")})
                continue
            excluded = published.excluded.get(split, [])
            stats = split_statistics(table, excluded)
            note = f"excluding {', '.join(excluded)}" if excluded else ""
            extra = published.notes.get(split, "")
            rows.append({"split": split, "data": version, "conversations": stats["conversations"],
                         "turns": stats["turns"], "avg. turns": round(stats["avg_turns"], 4),
                         "note": "; ".join(x for x in (note, extra) if x)})
        rows.append({"split": split, "data": "paper", "conversations": prow.conversations,
                     "turns": prow.turns, "avg. turns": prow.avg_turns, "note": ""})
    return pd.DataFrame(rows, columns=["split", "data", "conversations", "turns", "avg. turns",
                                       "note"])
