"""Counting the annotation-consistency changes (spec-annotation-consistency §8), the reference
tolerances of §12.7–12.8, the manual-verification sample and statistics (§9.3, Table 3).

Shapes:

* :func:`count_changes` → one row per line of the paper's Table 1 / Table 6 (24 rows, §9.1
  order: the slots of each domain, that domain's ``total``, and the overall ``total``), with
  dialogue and turn counts, denominators and percentages (percent, 0–100), plus detections and
  their user/system provenance (§8 item 7).
* :func:`spec_tolerance_ok` / :func:`paper_tolerance_ok` implement the acceptance tolerances.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pandas as pd

from mwzrepro.correct import SCOPE

__all__ = [
    "TABLE_ROWS",
    "COUNT_EXCLUDED_SLOTS",
    "count_changes",
    "spec_tolerance_ok",
    "paper_tolerance_ok",
    "PAPER_EXEMPT",
    "verification_stats",
    "draw_verification_sample",
    "totals",
    "rows_of",
]

#: Slot types left out of the counts (§8 item 2, a safety net: the rules never add them).
COUNT_EXCLUDED_SLOTS = frozenset(
    {"book stay", "book people", "book time", "book day", "day", "leaveat", "arriveby"})

_DOMAINS = ("attraction", "hotel", "restaurant", "taxi", "train")

#: The 24 rows of Table 1 / Table 6 (§9.1): (domain, slot); slot "total" for domain totals,
#: ("total", "") for the overall total.
TABLE_ROWS: tuple[tuple[str, str], ...] = tuple(
    [row for d in _DOMAINS for row in [(dd, s) for dd, s in SCOPE if dd == d] + [(d, "total")]]
    + [("total", "")]
)

#: Cells exempt from the paper-Table-1 tolerance (§12.8): taxi everywhere, train
#: departure/destination on test.
PAPER_EXEMPT: frozenset[tuple[str, str, str]] = frozenset(
    {(sp, "taxi", s) for sp in ("train", "val", "test") for s in ("departure", "destination",
                                                                    "total")}
    | {("test", "train", "departure"), ("test", "train", "destination")}
)


def _key_frame(df: pd.DataFrame) -> dict[tuple[str, int, str, str], tuple[str, ...]]:
    out = {}
    for did, t, d, s, v, alts in zip(df["dialogue_id"], df["turn"], df["domain"], df["slot"],
                                     df["value"], df["alternatives"]):
        alts_t = tuple(alts) if alts is not None and len(alts) else (v,)
        out[(did, int(t), d, s)] = alts_t
    return out


def count_changes(
    original: pd.DataFrame,
    corrected: pd.DataFrame,
    changes: pd.DataFrame,
) -> pd.DataFrame:
    """Table 1 (dialogues) and Table 6 (turns) counts of one split (§8).

    Args:
        original: the split's ``states`` table (O_t).
        corrected: its ``states_corrected`` table (B'_t).
        changes: its ``consistency_changes`` table (for detections and provenance).

    Returns:
        24 rows in :data:`TABLE_ROWS` order with columns ``domain``, ``slot``, ``dialogues``,
        ``dialogue_base``, ``dialogue_pct``, ``turns``, ``turn_base``, ``turn_pct``,
        ``detections`` (turns at which a rule fired, before carry-forward; per slot only),
        ``user_detections``, ``system_detections`` (side of the primary value),
        ``user_share_pct``. Percentages are percent of the base (NaN when the base is 0);
        detection columns are None on total rows (object dtype).
    """
    orig = _key_frame(original)
    turn_sets: dict[tuple[str, str], set[tuple[str, int]]] = defaultdict(set)
    for key, alts in _key_frame(corrected).items():
        did, t, d, s = key
        if s in COUNT_EXCLUDED_SLOTS or orig.get(key) == alts:
            continue
        turn_sets[(d, s)].add((did, t))
        turn_sets[(d, "total")].add((did, t))
        turn_sets[("total", "")].add((did, t))
    base_turns: dict[str, set[tuple[str, int]]] = defaultdict(set)
    for did, t, d in zip(corrected["dialogue_id"], corrected["turn"], corrected["domain"]):
        base_turns[d].add((did, int(t)))
        base_turns["total"].add((did, int(t)))
    det = changes[changes["applied"] & (changes["rank"] == 0)]
    rows = []
    for d, s in TABLE_ROWS:
        turns = turn_sets.get((d, s), set())
        dias = {did for did, _ in turns}
        bt = base_turns.get(d, set())
        bd = {did for did, _ in bt}
        row: dict[str, Any] = {
            "domain": d, "slot": s,
            "dialogues": len(dias), "dialogue_base": len(bd),
            "dialogue_pct": 100.0 * len(dias) / len(bd) if bd else float("nan"),
            "turns": len(turns), "turn_base": len(bt),
            "turn_pct": 100.0 * len(turns) / len(bt) if bt else float("nan"),
        }
        if s not in ("total", ""):
            mine = det[(det["domain"] == d) & (det["slot"] == s)]
            n_user = int((mine["side"] == "user").sum())
            n = len(mine)
            row.update(detections=n, user_detections=n_user,
                       system_detections=int((mine["side"] == "system").sum()),
                       user_share_pct=100.0 * n_user / n if n else float("nan"))
        else:
            row.update(detections=None, user_detections=None, system_detections=None,
                       user_share_pct=None)
        rows.append(row)
    out = pd.DataFrame(rows)
    for col in ("detections", "user_detections", "system_detections", "user_share_pct"):
        out[col] = pd.Series([r[col] for r in rows], dtype=object)
    return out


def spec_tolerance_ok(measured: float, expected: float) -> bool:
    """§12.7 per-cell tolerance: within ±3 or ±3 % of the expected count, whichever is larger."""
    return abs(measured - expected) <= max(3.0, 0.03 * expected)


def paper_tolerance_ok(measured: float, expected: float, kind: str) -> bool:
    """§12.8 tolerance against the paper's Table 1.

    Args:
        measured, expected: dialogue counts for ``kind="slot"``, percentages (0–100) for
            ``kind="domain_total"`` (±4 points) and ``kind="total"`` (±2 points).
    """
    if kind == "slot":
        return abs(measured - expected) <= max(6.0, 0.20 * expected)
    if kind == "domain_total":
        return abs(measured - expected) <= 4.0
    if kind == "total":
        return abs(measured - expected) <= 2.0
    raise ValueError(f"unknown tolerance kind {kind!r}")


def verification_stats(tp: int, fp: int, tn: int, fn: int) -> dict[str, float]:
    """Precision, recall, F1 and accuracy (fractions) of a manual-verification confusion
    matrix (§9.3, D12): tp/fp are modified units judged right/wrong, tn/fn unmodified units
    judged right/wrong (a wrong unmodified unit is a missed correction).

    Example (paper Table 3): ``verification_stats(97, 3, 96, 4)`` gives precision 0.970,
    recall 0.960, F1 0.965, accuracy 0.965.
    """
    p = tp / (tp + fp) if tp + fp else float("nan")
    r = tp / (tp + fn) if tp + fn else float("nan")
    f1 = 2 * p * r / (p + r) if p + r else float("nan")
    acc = (tp + tn) / (tp + fp + tn + fn) if tp + fp + tn + fn else float("nan")
    return {"precision": p, "recall": r, "f1": f1, "accuracy": acc}


def _fmt_state(rows: Iterable[tuple[str, str, str]]) -> str:
    return "; ".join(f"{d}-{s}={v}" for d, s, v in rows)


def draw_verification_sample(
    splits: Mapping[str, Mapping[str, pd.DataFrame]],
    seed: int,
    n_modified: int,
    n_unmodified: int,
    unit: str = "turn",
    with_replacement: bool = False,
) -> pd.DataFrame:
    """Draw the manual-verification sample of §9.3 (Table 3) from one or more splits.

    Args:
        splits: ``{split: {"turns": turns, "states": states, "states_corrected": corrected}}``.
        seed: ``verification_seed``. n_modified, n_unmodified: sample sizes.
        unit: ``turn`` (the scripts' unit) or ``dialogue`` (the paper's wording).
        with_replacement: the scripts drew with replacement; the project default is without.

    Returns:
        One row per sampled unit: ``split``, ``dialogue_id``, ``turn`` (-1 for dialogue
        units), ``modified`` (bool), ``system_text``, ``user_text`` (turn units), ``original``
        and ``added`` (``domain-slot=value; ...``), ``judgement`` (empty, for the annotator).
        Without replacement a stratum smaller than its size is taken whole.
    """
    if unit not in ("turn", "dialogue"):
        raise ValueError(f"unit must be 'turn' or 'dialogue', not {unit!r}")
    rng = random.Random(seed)
    records: list[dict[str, Any]] = []
    for split in sorted(splits):
        tabs = splits[split]
        texts = {(d, int(t)): x for d, t, x in zip(tabs["turns"]["dialogue_id"],
                                                  tabs["turns"]["turn_id"],
                                                  tabs["turns"]["text"])}
        orig: dict[tuple[str, int], list] = defaultdict(list)
        for did, t, d, s, v in tabs["states"][["dialogue_id", "turn", "domain", "slot",
                                               "value"]].itertuples(index=False):
            orig[(did, int(t))].append((d, s, v))
        added: dict[tuple[str, int], list] = defaultdict(list)
        cor = tabs["states_corrected"]
        cor = cor[cor["origin"] != "original"]
        for did, t, d, s, v in cor[["dialogue_id", "turn", "domain", "slot",
                                    "value"]].itertuples(index=False):
            added[(did, int(t))].append((d, s, v))
        n_user = tabs["turns"][tabs["turns"]["speaker"] == "user"]
        for did, tid in zip(n_user["dialogue_id"], n_user["turn_id"]):
            t = int(tid) // 2
            records.append({"split": split, "dialogue_id": did, "turn": t,
                            "modified": bool(added.get((did, t))),
                            "system_text": texts.get((did, int(tid) - 1), ""),
                            "user_text": texts[(did, int(tid))],
                            "original": _fmt_state(orig.get((did, t), [])),
                            "added": _fmt_state(added.get((did, t), []))})
    pool = pd.DataFrame(records)
    if unit == "dialogue" and len(pool):
        pool = (pool.groupby(["split", "dialogue_id"], sort=True)
                .agg(modified=("modified", "any"), added=("added", lambda x: " | ".join(
                    a for a in x if a)))
                .reset_index())
        pool["turn"] = -1
        pool["system_text"] = ""
        pool["user_text"] = ""
        pool["original"] = ""
    pool = pool.sort_values(["split", "dialogue_id", "turn"], kind="mergesort")
    out = []
    for flag, n in ((True, n_modified), (False, n_unmodified)):
        stratum = pool[pool["modified"] == flag].reset_index(drop=True)
        idx = list(range(len(stratum)))
        if not idx:
            continue
        picked = ([rng.choice(idx) for _ in range(n)] if with_replacement
                  else sorted(rng.sample(idx, min(n, len(idx)))))
        out.append(stratum.iloc[picked])
    cols = ["split", "dialogue_id", "turn", "modified", "system_text", "user_text",
            "original", "added"]
    sample = pd.concat(out, ignore_index=True)[cols] if out else pd.DataFrame(columns=cols)
    sample["judgement"] = ""
    return sample


def totals(counts: pd.DataFrame) -> dict[str, float]:
    """The overall total row as ``{dialogues, dialogue_pct, turns, turn_pct}``."""
    row = counts[(counts["domain"] == "total")].iloc[0]
    return {k: float(row[k]) for k in ("dialogues", "dialogue_pct", "turns", "turn_pct")}


def rows_of(counts: pd.DataFrame) -> Sequence[tuple[str, str]]:
    """(domain, slot) of each row, for checking the Table 1 shape (§12.6)."""
    return list(zip(counts["domain"], counts["slot"]))
