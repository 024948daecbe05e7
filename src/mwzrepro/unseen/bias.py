"""Entity-bias measures: normalised Shannon entropy H1/H0 and normalised min-entropy H∞/H0 per
domain-slot (spec-unseen-entity-test-set Part B, §11; Qian et al. 2021 §4, Table 2).

For one slot with relative value frequencies r₁…r_R (R ≥ 2 distinct values observed):

* H1/H0 = (−Σ rᵢ ln rᵢ) / ln R
* H∞/H0 = (−ln maxᵢ rᵢ) / ln R   (the paper's equation (2) is typeset with the *rarest*
  value; the project follows its text and the authors' computation: the most frequent value,
  §11.1)

Both are fractions in [0, 1]; 1 is uniform, near 0 means one value dominates; R < 2 gives NA.
Frequencies are counted once per user turn in which the value is in the cumulative state
(``bias_count_unit: turn``, §11.2) or once per dialogue (``dialogue``, not the reference).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd

from mwzrepro.core.errors import ConfigError, InputError
from mwzrepro.core.signature import Signature

__all__ = [
    "BIAS_SLOTS",
    "TABLE2",
    "TABLE2_NAME",
    "normalised_entropies",
    "canonical_bias_value",
    "value_counts",
    "bias_table",
    "spearman",
    "table2_comparison",
    "bias_signature",
    "measure_bias",
]

#: The 31 slots of §11.2: the 30 MultiWOZ 2.1 slots of spec-dst-metrics §2.2 plus
#: hospital-department, as (domain, canonical slot).
BIAS_SLOTS: tuple[tuple[str, str], ...] = (
    ("taxi", "leaveat"), ("taxi", "destination"), ("taxi", "departure"), ("taxi", "arriveby"),
    ("restaurant", "book people"), ("restaurant", "book day"), ("restaurant", "book time"),
    ("restaurant", "food"), ("restaurant", "pricerange"), ("restaurant", "name"),
    ("restaurant", "area"), ("hotel", "book people"), ("hotel", "book day"),
    ("hotel", "book stay"), ("hotel", "name"), ("hotel", "area"), ("hotel", "parking"),
    ("hotel", "pricerange"), ("hotel", "stars"), ("hotel", "internet"), ("hotel", "type"),
    ("attraction", "type"), ("attraction", "name"), ("attraction", "area"),
    ("train", "book people"), ("train", "leaveat"), ("train", "destination"), ("train", "day"),
    ("train", "arriveby"), ("train", "departure"), ("hospital", "department"),
)


def _table2_name(domain: str, slot: str) -> str:
    return f"{domain}-{slot[5:] if slot.startswith('book ') else slot}"


#: canonical "domain-slot" → Table 2 name (the ``book `` prefix dropped, §11.2).
TABLE2_NAME: dict[str, str] = {f"{d}-{s}": _table2_name(d, s) for d, s in BIAS_SLOTS}

#: Paper Table 2 (training split, ascending H1/H0): (Table 2 slot name, H1/H0, H∞/H0) (§11.5).
TABLE2: tuple[tuple[str, float, float], ...] = (
    ("hotel-parking", 0.217, 0.060), ("hotel-internet", 0.225, 0.053),
    ("hotel-stars", 0.592, 0.249), ("restaurant-food", 0.638, 0.377),
    ("hotel-name", 0.743, 0.472), ("train-destination", 0.753, 0.269),
    ("hotel-stay", 0.757, 0.673), ("train-departure", 0.776, 0.288),
    ("attraction-area", 0.792, 0.355), ("train-leaveat", 0.801, 0.681),
    ("restaurant-area", 0.824, 0.384), ("restaurant-time", 0.833, 0.758),
    ("train-arriveby", 0.850, 0.732), ("attraction-type", 0.852, 0.514),
    ("attraction-name", 0.855, 0.636), ("restaurant-name", 0.877, 0.709),
    ("train-people", 0.886, 0.615), ("taxi-arriveby", 0.890, 0.736),
    ("taxi-departure", 0.901, 0.579), ("hospital-department", 0.926, 0.530),
    ("taxi-destination", 0.936, 0.685), ("taxi-leaveat", 0.942, 0.781),
    ("hotel-pricerange", 0.944, 0.662), ("hotel-area", 0.954, 0.658),
    ("hotel-type", 0.969, 0.729), ("restaurant-pricerange", 0.971, 0.746),
    ("train-day", 0.999, 0.947), ("hotel-day", 0.999, 0.954),
    ("restaurant-day", 0.999, 0.955), ("restaurant-people", 0.999, 0.969),
    ("hotel-people", 0.999, 0.973),
)

#: Values that never count (§11.2): every dontcare spelling, empty markers, 2.2 ``unknown``.
EXCLUDED_VALUES = frozenset({"dontcare", "dont care", "don't care", "do n't care", "do nt care",
                             "", "none", "not mentioned", "unknown"})


def normalised_entropies(counts: Sequence[float]) -> tuple[float, float]:
    """(H1/H0, H∞/H0) of a count vector (§11.1), as fractions.

    Zero counts are ignored (they are not part of R). With fewer than 2 non-zero counts both
    measures are undefined and ``(nan, nan)`` is returned (reported as NA).

    >>> [round(x, 3) for x in normalised_entropies([3, 1])]
    [0.811, 0.415]

    Raises:
        InputError: a count is negative.
    """
    if any(c < 0 for c in counts):
        raise InputError(f"counts must be non-negative: {list(counts)}")
    pos = [float(c) for c in counts if c > 0]
    r = len(pos)
    if r < 2:
        return float("nan"), float("nan")
    total = sum(pos)
    h1 = -sum((c / total) * math.log(c / total) for c in pos)
    hinf = -math.log(max(pos) / total)
    return h1 / math.log(r), hinf / math.log(r)


def canonical_bias_value(value: str, alternatives: Sequence[str] | None = None) -> str | None:
    """The value that is counted (§11.2): the first alternative, the part before the first
    ``|``, lowercased and trimmed; None for dontcare, empty markers and ``unknown``."""
    v = alternatives[0] if alternatives is not None and len(alternatives) else value
    if not isinstance(v, str):
        return None
    v = v.split("|", 1)[0].strip().lower()
    return None if v in EXCLUDED_VALUES else v


def value_counts(states: pd.DataFrame, unit: str = "turn") -> pd.DataFrame:
    """Value frequencies per slot from a canonical ``states`` table (§11.2).

    Args:
        states: columns ``dialogue_id``, ``turn``, ``domain``, ``slot``, ``value``,
            ``alternatives`` (one row per filled slot of the cumulative state after user turn
            ``turn``).
        unit: ``turn`` (one count per user turn, the reference) or ``dialogue`` (one count per
            dialogue).

    Returns:
        columns ``domain``, ``slot``, ``value``, ``count`` for the 31 slots of
        :data:`BIAS_SLOTS`, sorted by slot, decreasing count, value.

    Raises:
        ConfigError: unknown ``unit``.
    """
    if unit not in ("turn", "dialogue"):
        raise ConfigError(f"bias.bias_count_unit must be 'turn' or 'dialogue', not {unit!r}")
    wanted = set(BIAS_SLOTS)
    rows = []
    for did, dom, slot, value, alts in zip(states["dialogue_id"], states["domain"],
                                           states["slot"], states["value"],
                                           states["alternatives"]):
        if (dom, slot) not in wanted:
            continue
        v = canonical_bias_value(value, alts)
        if v is not None:
            rows.append((did, dom, slot, v))
    df = pd.DataFrame(rows, columns=["dialogue_id", "domain", "slot", "value"])
    if unit == "dialogue":
        df = df.drop_duplicates()
    out = df.groupby(["domain", "slot", "value"], sort=False).size().rename("count").reset_index()
    out["count"] = out["count"].astype("int64")
    return out.sort_values(["domain", "slot", "count", "value"],
                           ascending=[True, True, False, True], kind="mergesort"
                           ).reset_index(drop=True)


def bias_table(counts: pd.DataFrame) -> pd.DataFrame:
    """H1/H0 and H∞/H0 per slot in Table 2 shape (§11.2, §13 item 13).

    Args:
        counts: :func:`value_counts` output.

    Returns:
        one row per slot of :data:`BIAS_SLOTS`, sorted by H1/H0 ascending (NA last, then by
        slot): ``rank`` (1-based), ``slot`` (canonical "domain-slot"), ``table2_slot``, ``r``
        (distinct values), ``n`` (counts), ``top_value`` (None when no value), ``top_share``
        (fraction), ``h1_h0``, ``hinf_h0`` (fractions; NaN when R < 2), ``paper_h1_h0``,
        ``paper_hinf_h0`` (Table 2, training split).
    """
    paper = {name: (h1, hi) for name, h1, hi in TABLE2}
    rows = []
    for dom, slot in BIAS_SLOTS:
        sub = counts[(counts["domain"] == dom) & (counts["slot"] == slot)]
        sub = sub.sort_values(["count", "value"], ascending=[False, True], kind="mergesort")
        c = sub["count"].tolist()
        h1, hinf = normalised_entropies(c)
        name = f"{dom}-{slot}"
        total = int(sum(c))
        rows.append({
            "slot": name, "table2_slot": TABLE2_NAME[name], "r": len(c), "n": total,
            "top_value": sub["value"].iloc[0] if c else None,
            "top_share": c[0] / total if c else float("nan"),
            "h1_h0": h1, "hinf_h0": hinf,
            "paper_h1_h0": paper[TABLE2_NAME[name]][0],
            "paper_hinf_h0": paper[TABLE2_NAME[name]][1],
        })
    df = pd.DataFrame(rows)
    df["_na"] = df["h1_h0"].isna()
    df = df.sort_values(["_na", "h1_h0", "slot"], kind="mergesort").drop(columns="_na")
    df.insert(0, "rank", range(1, len(df) + 1))
    return df.reset_index(drop=True)


def spearman(a: Sequence[float], b: Sequence[float]) -> float:
    """Spearman's ρ of two equally long sequences (average ranks for ties); NaN pairs are
    dropped; NaN when fewer than 2 pairs remain or when either side is constant.

    Pearson's r of the ranks is summed with :func:`math.fsum` (exactly rounded), not with
    ``numpy.corrcoef``, whose BLAS dot products round differently on different processors:
    the same table gives the same ρ, bit for bit, on every machine.

    >>> spearman([1, 2, 3, 4], [10, 30, 20, 40])
    0.8
    """
    df = pd.DataFrame({"a": list(a), "b": list(b)}).dropna()
    if len(df) < 2:
        return float("nan")
    ra, rb = df["a"].rank().tolist(), df["b"].rank().tolist()
    ma, mb = math.fsum(ra) / len(ra), math.fsum(rb) / len(rb)
    da, db = [x - ma for x in ra], [y - mb for y in rb]
    den = math.sqrt(math.fsum(x * x for x in da) * math.fsum(y * y for y in db))
    if den == 0:
        return float("nan")
    return math.fsum(x * y for x, y in zip(da, db)) / den


def table2_comparison(table: pd.DataFrame) -> dict[str, float]:
    """How a bias table compares with paper Table 2 (§13 item 14, meaningful only for the
    training split): Spearman ρ of H1/H0 over the slots other than hotel-internet, and the
    absolute differences for train-destination and train-departure."""
    keep = table[table["table2_slot"] != "hotel-internet"]
    out = {"spearman_h1_h0_excluding_hotel_internet": spearman(keep["h1_h0"],
                                                               keep["paper_h1_h0"])}
    for name in ("train-destination", "train-departure"):
        row = table[table["table2_slot"] == name].iloc[0]
        out[f"{name}_abs_diff_h1_h0"] = float(abs(row["h1_h0"] - row["paper_h1_h0"]))
        out[f"{name}_abs_diff_hinf_h0"] = float(abs(row["hinf_h0"] - row["paper_hinf_h0"]))
    return out


def bias_signature(version: str, split: str, unit: str) -> str:
    """Signature of one (version, split)'s entity-bias numbers.

    >>> bias_signature("mwz21", "test", "turn")
    'ENTITY-BIAS|ver:mwz21|split:test|unit:turn|v:0.1.0'
    """
    return Signature("ENTITY-BIAS", {"ver": version, "split": split, "unit": unit}).format()


def measure_bias(states: pd.DataFrame, version: str, split: str, unit: str = "turn"
                 ) -> tuple[pd.DataFrame, pd.DataFrame, dict[str, str]]:
    """Entity bias of one (version, split) from its canonical ``states`` (§11).

    Returns:
        ``(entity_bias, entity_bias_values, metadata)``: :func:`bias_table` with leading
        ``version`` and ``split`` columns; the value distribution (``version``, ``split``,
        ``slot`` "domain-slot", ``value``, ``count``); the Parquet metadata of both
        (``signature``, ``count_unit``).

    Raises:
        ConfigError: unknown ``unit``.
    """
    counts = value_counts(states, unit)
    table = bias_table(counts)
    table.insert(0, "split", split)
    table.insert(0, "version", version)
    values = counts.assign(slot=counts["domain"] + "-" + counts["slot"])[["slot", "value",
                                                                          "count"]]
    values.insert(0, "split", split)
    values.insert(0, "version", version)
    return table, values, {"signature": bias_signature(version, split, unit),
                           "count_unit": unit}
