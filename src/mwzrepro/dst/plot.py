"""The FGA-versus-λ figure (spec-dst-metrics §6.4: λ = 0 is JGA; FGA grows with λ towards the
share of EXACT and TYPE2 turns) as a deterministic SVG."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

import pandas as pd

from mwzrepro.core.plots import pyplot, save_svg, svg_style

__all__ = ["fga_lambda_svg"]


def fga_lambda_svg(df: pd.DataFrame, labels: Mapping[str, str], path: str | os.PathLike[str],
                   marks: Sequence[float]) -> None:
    """Draw FGA-versus-λ curves to ``path`` (same data and matplotlib give the same bytes).

    Args:
        df: column ``lambda``, then one column of FGA percentages per run, named
            ``system@version`` (:func:`mwzrepro.dst.tables.fga_curves`).
        labels: ``{column: legend label}``.
        path: the SVG to write.
        marks: λ values marked by vertical lines (the table's λ values).

    One colour per system, one line style per gold version.
    """
    plt = pyplot()

    cols = list(df.columns[1:])
    systems = list(dict.fromkeys(c.split("@")[0] for c in cols))
    versions = sorted({c.split("@")[-1] for c in cols})
    styles = ["-", "--", ":", "-."]
    cmap = plt.get_cmap("tab20")
    with svg_style("mwzrepro-dst"):
        fig, ax = plt.subplots(figsize=(9, 5.5))
        for col in cols:
            system, version = col.split("@")[0], col.split("@")[-1]
            ax.plot(df["lambda"], df[col], label=labels.get(col, col), linewidth=1.2,
                    color=cmap(systems.index(system) % 20),
                    linestyle=styles[versions.index(version) % len(styles)])
        for lam in marks:
            ax.axvline(lam, color="0.8", linewidth=0.6, zorder=0)
        ax.set_xlabel("λ")
        ax.set_ylabel("FGA (%)")
        ax.set_title("Flexible Goal Accuracy versus λ (λ = 0 is JGA)")
        ax.legend(fontsize=6, loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)
        ax.grid(True, linewidth=0.3)
        fig.tight_layout()
        save_svg(fig, path)
