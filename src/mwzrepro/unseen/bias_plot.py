"""Plot data and figure of the value distribution of the most biased slots
(spec-unseen-entity-test-set §11; paper Table 2 discussion).

:func:`plot_data` gives a long table (one row per slot and value, the tail summed as
``other``) that DVC declares as plot data; :func:`plot_value_distribution` draws it as a
deterministic SVG (fixed hash salt, no date or creator metadata).
"""

from __future__ import annotations

import os

import pandas as pd

__all__ = ["plot_data", "plot_value_distribution"]


def plot_data(table: pd.DataFrame, values: pd.DataFrame | None, n_slots: int = 4,
              n_values: int = 10) -> pd.DataFrame:
    """Value shares of the ``n_slots`` slots with the lowest H1/H0.

    Args:
        table: an ``entity_bias`` table (sorted by rank).
        values: the matching ``entity_bias_values`` table; None gives only the top values.
        n_slots: slots shown (most biased first; slots with R < 2 are skipped).
        n_values: values per slot; the remaining ones are summed into ``other``.

    Returns:
        columns ``version``, ``split``, ``slot_rank``, ``slot`` (Table 2 name), ``h1_h0``,
        ``value_rank`` (1 = most frequent; ``other`` last), ``value``, ``count``, ``share``
        (fraction of the slot's counts).
    """
    rows = []
    top = table[table["h1_h0"].notna()].sort_values("rank").head(n_slots)
    for k, r in enumerate(top.itertuples(), start=1):
        if values is not None:
            v = values[values["slot"] == r.slot].sort_values(["count", "value"],
                                                               ascending=[False, True])
            counts = list(zip(v["value"], v["count"]))
        else:
            counts = [(r.top_value, int(round(r.top_share * r.n)))]
        total = sum(c for _, c in counts) or 1
        shown = counts[:n_values]
        rest = sum(c for _, c in counts[n_values:])
        for j, (val, c) in enumerate(shown, start=1):
            rows.append({"slot_rank": k, "slot": r.table2_slot, "h1_h0": r.h1_h0,
                         "value_rank": j, "value": val, "count": int(c), "share": c / total})
        if rest:
            rows.append({"slot_rank": k, "slot": r.table2_slot, "h1_h0": r.h1_h0,
                         "value_rank": len(shown) + 1, "value": "other", "count": int(rest),
                         "share": rest / total})
    df = pd.DataFrame(rows, columns=["slot_rank", "slot", "h1_h0", "value_rank", "value",
                                     "count", "share"])
    df.insert(0, "split", table["split"].iloc[0] if len(table) else "")
    df.insert(0, "version", table["version"].iloc[0] if len(table) else "")
    return df


def plot_value_distribution(data: pd.DataFrame, path: str | os.PathLike[str],
                            title: str = "") -> None:
    """Draw :func:`plot_data` as horizontal bar panels (one per slot) into an SVG file,
    deterministically (same data and matplotlib version → same bytes)."""
    from mwzrepro.core.plots import pyplot, save_svg, svg_style

    plt = pyplot()

    slots = list(dict.fromkeys(data["slot"]))
    n = max(1, len(slots))
    with svg_style("mwzrepro-entity-bias"):
        fig, axes = plt.subplots(1, n, figsize=(3.2 * n, 3.6), squeeze=False)
        for ax, slot in zip(axes[0], slots):
            sub = data[data["slot"] == slot].sort_values("value_rank", ascending=False)
            ax.barh(range(len(sub)), sub["share"] * 100, color="0.35")
            ax.set_yticks(range(len(sub)))
            ax.set_yticklabels(sub["value"], fontsize=7)
            h1 = sub["h1_h0"].iloc[0]
            ax.set_title(f"{slot}\nH1/H0 = {h1:.3f}", fontsize=8)
            ax.set_xlabel("share of user turns (%)", fontsize=7)
            ax.tick_params(axis="x", labelsize=7)
            ax.grid(True, axis="x", linewidth=0.3)
        if title:
            fig.suptitle(title, fontsize=9)
        fig.tight_layout()
        save_svg(fig, path)
