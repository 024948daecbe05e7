"""The entity-bias tables in paper Table 2 shape, the ``bias.json`` metrics and the plot data
(spec-unseen-entity-test-set §11, §13 items 13–14).

Input: one ``entity_bias`` table per (version, split) with its signature and, optionally, its
``entity_bias_values`` table. The reference split of Table 2 (``bias_split``, the training
split) is shown for every version of ``bias.versions``; when it was not computed its row says
so (:data:`TRAIN_UNAVAILABLE`) and no other split is put in its place (§11.2).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

from mwzrepro.core.tables import TableSpec
from mwzrepro.unseen.bias import TABLE2, table2_comparison
from mwzrepro.unseen.bias_plot import plot_data
from mwzrepro.unseen.params import BiasParams

__all__ = ["TRAIN_UNAVAILABLE", "BiasTables", "bias_tables"]

#: Cell and status of a reference-split column that could not be computed.
TRAIN_UNAVAILABLE = "not computed: training split unavailable"


@dataclass(frozen=True)
class BiasTables:
    """Output of :func:`bias_tables`.

    Attributes:
        tables: ``{file-stem suffix: TableSpec}``: ``""`` the wide Table 2 shaped table,
            ``_<version>_<split>`` one table per computed (version, split), ``_splits`` the
            summary of every (version, split) with its agreement with Table 2.
        metrics: the ``bias.json`` payload ``{"reference_split", "splits": {key: {...}}}``.
        plot: value shares of the most biased slots (:func:`~mwzrepro.unseen.bias_plot.plot_data`).
        plot_source: the ``version/split`` plotted; plot_title: the figure's title.
        missing: the reference-split keys not computed.
    """

    tables: dict[str, TableSpec]
    metrics: dict[str, Any]
    plot: pd.DataFrame
    plot_source: str
    plot_title: str
    missing: list[str]

    def plot_csv(self) -> str:
        """:attr:`plot` as CSV text (floats at full precision, ``\\n`` line ends)."""
        return self.plot.to_csv(index=False, lineterminator="\n",
                                float_format=lambda x: repr(float(x)))


def _num(x: float) -> float | None:
    return None if x != x else round(float(x), 6)


def bias_tables(tables: Mapping[str, pd.DataFrame], signatures: Mapping[str, str],
                values: Mapping[str, pd.DataFrame], params: BiasParams) -> BiasTables:
    """Every output of the ``tables-bias`` phase.

    Args:
        tables: ``{"<version>/<split>": entity_bias table sorted by rank}``.
        signatures: ``{"<version>/<split>": signature}``.
        values: ``{"<version>/<split>": entity_bias_values table}`` (may lack keys).
        params: the ``bias`` block (``bias_split``, ``versions``, ``plot_*``).

    Raises:
        InputError: no tables.
    """
    from mwzrepro.core.errors import InputError

    if not tables:
        raise InputError("no entity-bias tables to assemble")
    bias_split = params.bias_split
    wanted = [f"{v}/{bias_split}" for v in params.version_list]
    columns = sorted(tables) + [k for k in wanted if k not in tables]
    # wide table: paper order, paper values, then every (version, split)
    rows = []
    for name, h1, hinf in TABLE2:
        row: dict[str, Any] = {"slot": name, "paper H1/H0": h1, "paper H∞/H0": hinf}
        for key in columns:
            if key not in tables:
                row[key] = TRAIN_UNAVAILABLE
                continue
            t = tables[key].set_index("table2_slot")
            row[f"{key} H1/H0"] = float(t.loc[name, "h1_h0"])
            row[f"{key} H∞/H0"] = float(t.loc[name, "hinf_h0"])
        rows.append(row)
    notes = [
        "Paper columns: Qian et al. 2021 Table 2, MultiWOZ training split (per-turn counts).",
        f"Columns '{TRAIN_UNAVAILABLE}': the {bias_split} split is not in the data mirror; no "
        "other split is put in its place (§11.2).",
        "Non-training splits are not comparable with Table 2 (§11.4); NaN = R < 2 (NA).",
    ] + [f"{k}: {signatures[k]}" for k in sorted(signatures)]
    out = {"": TableSpec(pd.DataFrame(rows), "Entity bias H1/H0 and H∞/H0 per slot (paper "
                         "Table 2 order)", 3, notes)}
    # one Table 2 shaped table per split (own ascending order)
    split_rows = []
    for key in columns:
        if key not in tables:
            split_rows.append({"source": key, "status": TRAIN_UNAVAILABLE})
            continue
        t = tables[key]
        shaped = t[["rank", "table2_slot", "r", "top_value", "top_share", "h1_h0", "hinf_h0"]]
        shaped = shaped.rename(columns={"table2_slot": "slot", "r": "R", "h1_h0": "H1/H0",
                                        "hinf_h0": "H∞/H0", "top_value": "top value",
                                        "top_share": "top share"})
        out[f"_{key.replace('/', '_')}"] = TableSpec(
            shaped, f"Entity bias, {key} (ascending H1/H0, Table 2 shape)", 3,
            [signatures.get(key, ""), "Not comparable with Table 2 unless the split is the "
             "training split (§11.4)."])
        split_rows.append({"source": key, "status": "computed", **table2_comparison(t)})
    out["_splits"] = TableSpec(
        pd.DataFrame(split_rows), "Entity-bias tables computed, per (version, split), with "
        "their agreement with paper Table 2", 3,
        ["Only the training split is comparable with Table 2 (§11.4, §13 item 14); the other "
         "rows show how far other splits are from it."])
    metrics: dict[str, Any] = {"reference_split": bias_split, "splits": {}}
    for key in columns:
        if key not in tables:
            metrics["splits"][key] = {"status": TRAIN_UNAVAILABLE}
            continue
        t = tables[key]
        metrics["splits"][key] = {
            "status": "computed", "signature": signatures.get(key, ""),
            "comparable_with_table2": key.endswith(f"/{bias_split}"),
            "slots": {r.table2_slot: {"h1_h0": _num(r.h1_h0), "hinf_h0": _num(r.hinf_h0),
                                      "r": int(r.r)} for r in t.itertuples()},
            "table2_comparison": table2_comparison(t),
        }
    src = params.plot_source if params.plot_source in tables else next(
        (k for k in wanted if k in tables), sorted(tables)[0])
    data = plot_data(tables[src], values.get(src), params.plot_slots, params.plot_values)
    title = f"Value distribution of the {params.plot_slots} most biased slots ({src})"
    return BiasTables(out, metrics, data, src, title, [k for k in wanted if k not in tables])
