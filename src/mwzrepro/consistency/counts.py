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

from mwzrepro.consistency.rules import SCOPE
from mwzrepro.core.errors import ConfigError

__all__ = [
    "TABLE_ROWS",
    "COUNT_EXCLUDED_SLOTS",
    "count_changes",
    "spec_tolerance_ok",
    "paper_tolerance_ok",
    "PAPER_EXEMPT",
    "verification_stats",
    "draw_verification_sample",
    "turn_units",
    "totals",
    "changed_totals",
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
        Table ``consistency_counts``: 24 rows in :data:`TABLE_ROWS` order (``row`` 0-23) with
        columns ``domain``, ``slot``, ``dialogues``, ``dialogue_base``, ``dialogue_pct``,
        ``turns``, ``turn_base``, ``turn_pct``, ``detections`` (turns at which a rule fired,
        before carry-forward; summed over the slots on total rows), ``user_detections``,
        ``system_detections`` (side of the primary value), ``user_share_pct``. Percentages
        are percent of the base (NaN when the base or the detections are 0).
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
    det_side: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    for d, s, side in zip(det["domain"], det["slot"], det["side"]):
        counts = det_side[(d, s)]
        counts[0] += 1
        counts[1] += side == "user"
        counts[2] += side == "system"
    rows = []
    for i, (d, s) in enumerate(TABLE_ROWS):
        turns = turn_sets.get((d, s), set())
        dias = {did for did, _ in turns}
        bt = base_turns.get(d, set())
        bd = {did for did, _ in bt}
        if s == "total":
            parts = [det_side[(d, x)] for dd, x in SCOPE if dd == d]
        elif d == "total":
            parts = [det_side[k] for k in SCOPE]
        else:
            parts = [det_side[(d, s)]]
        n, n_user, n_sys = (sum(p[j] for p in parts) for j in range(3))
        rows.append({
            "row": i, "domain": d, "slot": s,
            "dialogues": len(dias), "dialogue_base": len(bd),
            "dialogue_pct": 100.0 * len(dias) / len(bd) if bd else float("nan"),
            "turns": len(turns), "turn_base": len(bt),
            "turn_pct": 100.0 * len(turns) / len(bt) if bt else float("nan"),
            "detections": n, "user_detections": n_user, "system_detections": n_sys,
            "user_share_pct": 100.0 * n_user / n if n else float("nan"),
        })
    out = pd.DataFrame(rows)
    for col in ("row", "dialogues", "dialogue_base", "turns", "turn_base", "detections",
                "user_detections", "system_detections"):
        out[col] = out[col].astype("int32")
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


def turn_units(turns: pd.DataFrame, original: pd.DataFrame, corrected: pd.DataFrame
               ) -> pd.DataFrame:
    """Table ``consistency_units``: every user turn with S_t, U_t, O_t, the added slots of
    B'_t (``domain-slot=value; ...``, in position order) and whether it was modified."""
    texts = {(d, int(t)): x for d, t, x in zip(turns["dialogue_id"], turns["turn_id"],
                                              turns["text"])}
    orig: dict[tuple[str, int], list] = defaultdict(list)
    for did, t, d, s, v in original.sort_values(["dialogue_id", "turn", "position"])[
            ["dialogue_id", "turn", "domain", "slot", "value"]].itertuples(index=False):
        orig[(did, int(t))].append((d, s, v))
    added: dict[tuple[str, int], list] = defaultdict(list)
    cor = corrected[corrected["origin"] != "original"].sort_values(
        ["dialogue_id", "turn", "position"])
    for did, t, d, s, v in cor[["dialogue_id", "turn", "domain", "slot",
                                "value"]].itertuples(index=False):
        added[(did, int(t))].append((d, s, v))
    users = turns[turns["speaker"] == "user"]
    rows = []
    for did, tid in zip(users["dialogue_id"], users["turn_id"]):
        t = int(tid) // 2
        rows.append({"dialogue_id": did, "turn": t,
                     "system_text": texts.get((did, int(tid) - 1), ""),
                     "user_text": texts[(did, int(tid))],
                     "original": _fmt_state(orig.get((did, t), [])),
                     "added": _fmt_state(added.get((did, t), [])),
                     "modified": bool(added.get((did, t)))})
    out = pd.DataFrame(rows, columns=["dialogue_id", "turn", "system_text", "user_text",
                                      "original", "added", "modified"])
    out["turn"] = out["turn"].astype("int32")
    return out


def draw_verification_sample(
    units: Mapping[str, pd.DataFrame],
    seed: int,
    n_modified: int,
    n_unmodified: int,
    unit: str = "turn",
    with_replacement: bool = False,
) -> pd.DataFrame:
    """Draw the manual-verification sample of §9.3 (Table 3) from one or more splits.

    Args:
        units: ``{split: consistency_units table}`` (:func:`turn_units`); drawn from together.
        seed: ``verification_seed``. n_modified, n_unmodified: sample sizes.
        unit: ``turn`` (the scripts' unit) or ``dialogue`` (the paper's wording).
        with_replacement: the scripts drew with replacement; the project default is without.

    Returns:
        The modified stratum then the unmodified one, each in pool order: ``split``,
        ``dialogue_id``, ``turn`` (-1 for dialogue units), ``modified``, ``system_text``,
        ``user_text``, ``original``, ``added`` (dialogue units: the turns' additions joined
        by `` | ``), ``judgement`` (empty, for the annotator). Without replacement a stratum
        smaller than its size is taken whole.

    Raises:
        ConfigError: an unknown ``unit``.
    """
    if unit not in ("turn", "dialogue"):
        raise ConfigError(f"consistency.verification_sample.unit must be 'turn' or 'dialogue', not {unit!r}")
    cols = ["split", "dialogue_id", "turn", "modified", "system_text", "user_text",
            "original", "added"]
    frames = [df.assign(split=split) for split, df in sorted(units.items())]
    pool = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=cols)
    if unit == "dialogue" and len(pool):
        pool = (pool.groupby(["split", "dialogue_id"], sort=True)
                .agg(modified=("modified", "any"),
                     added=("added", lambda x: " | ".join(a for a in x if a)))
                .reset_index())
        pool["turn"] = -1
        pool["system_text"] = ""
        pool["user_text"] = ""
        pool["original"] = ""
    pool = pool.sort_values(["split", "dialogue_id", "turn"], kind="mergesort")
    rng = random.Random(seed)
    out = []
    for flag, n in ((True, n_modified), (False, n_unmodified)):
        stratum = pool[pool["modified"] == flag].reset_index(drop=True)
        idx = list(range(len(stratum)))
        if not idx:
            continue
        picked = ([rng.choice(idx) for _ in range(n)] if with_replacement
                  else sorted(rng.sample(idx, min(n, len(idx)))))
        out.append(stratum.iloc[picked])
    sample = pd.concat(out, ignore_index=True)[cols] if out else pd.DataFrame(columns=cols)
    sample["judgement"] = ""
    return sample


def totals(counts: pd.DataFrame) -> dict[str, float]:
    """The overall total row as ``{dialogues, dialogue_pct, turns, turn_pct}``."""
    row = counts[(counts["domain"] == "total")].iloc[0]
    return {k: float(row[k]) for k in ("dialogues", "dialogue_pct", "turns", "turn_pct")}


def changed_totals(counts: Mapping[tuple[str, str], pd.DataFrame]) -> dict[str, Any]:
    """The dialogues and turns the correction changes (the ``total`` row of each split, §8;
    MultiWOZ 2.1 test: 713 dialogues, the headline of Qian et al.'s Table 1), per
    ``"<version>/<split>"`` and summed over each version's splits under ``total``:
    ``{"mwz21/test": {"dialogues": 713, "turns": 3461}, ..., "total": {"mwz21":
    {"dialogues": 1478, "turns": 7213}}}`` (counts, integers).

    >>> t = pd.DataFrame({"domain": ["hotel", "total"], "slot": ["area", ""],
    ...                   "dialogues": [3, 5], "turns": [4, 9]})
    >>> changed_totals({("mwz21", "test"): t, ("mwz21", "val"): t})["total"]
    {'mwz21': {'dialogues': 10, 'turns': 18}}
    """
    out: dict[str, Any] = {}
    total: dict[str, dict[str, int]] = {}
    for (version, split), frame in sorted(counts.items()):
        row = frame[frame["domain"] == "total"].iloc[0]
        here = {"dialogues": int(row["dialogues"]), "turns": int(row["turns"])}
        out[f"{version}/{split}"] = here
        summed = total.setdefault(version, {"dialogues": 0, "turns": 0})
        for k, v in here.items():
            summed[k] += v
    out["total"] = total
    return out


def rows_of(counts: pd.DataFrame) -> Sequence[tuple[str, str]]:
    """(domain, slot) of each row, for checking the Table 1 shape (§12.6)."""
    return list(zip(counts["domain"], counts["slot"]))
