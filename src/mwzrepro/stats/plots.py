"""Figures of the stats area, deterministic SVG (:mod:`mwzrepro.core.plots`): the pairwise
significance heat map of one figure and the bump chart of one metric's rankings.

Both are drawn with vector primitives only (``pcolormesh``, lines, text), so the SVG holds
no embedded raster and the same data and matplotlib version give the same bytes.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence

import numpy as np

from mwzrepro.stats.ranking import ranks
from mwzrepro.stats.significance import PairTest

__all__ = ["plot_significance", "plot_bump", "CAP"]

#: −log10 p beyond which the heat map's colour saturates.
CAP = 4.0


def _strength(tests: Sequence[PairTest], order: Sequence[str]) -> tuple[np.ndarray, dict]:
    pos = {s: i for i, s in enumerate(order)}
    n = len(order)
    grid = np.full((n, n), np.nan)
    text: dict[tuple[int, int], str] = {}
    for t in tests:
        i, j = pos[t.a], pos[t.b]
        level = min(CAP, -math.log10(t.p_adjusted)) if t.p_adjusted > 0 else CAP
        sign = 1.0 if t.diff > 0 else -1.0 if t.diff < 0 else 0.0
        grid[i, j], grid[j, i] = sign * level, -sign * level
        mark = "*" if t.significant else ""
        text[(i, j)] = f"{t.diff:+.1f}{mark}"
        text[(j, i)] = f"{-t.diff:+.1f}{mark}"
    return grid, text


def plot_significance(tests: Sequence[PairTest], order: Sequence[str],
                      path: str | os.PathLike[str], title: str = "") -> None:
    """Heat map of pairwise tests: cell (row A, column B) is coloured by the corrected
    p-value as ±min(4, −log10 p) (blue: A above B, red: A below B; white: p = 1) and shows
    A − B, starred when significant. Writes an SVG to ``path``."""
    from mwzrepro.core.plots import pyplot, save_svg, svg_style

    plt = pyplot()
    grid, text = _strength(tests, order)
    n = len(order)
    size = max(3.0, 0.42 * n + 1.6)
    with svg_style("mwzrepro-stats-significance"):
        fig, ax = plt.subplots(figsize=(size + 1.0, size))
        if n == 0:
            ax.axis("off")
            ax.text(0.5, 0.5, "no system has this figure", ha="center", va="center")
            save_svg(fig, path)
            return
        mesh = ax.pcolormesh(np.arange(n + 1), np.arange(n + 1), np.ma.masked_invalid(grid),
                             cmap="RdBu", vmin=-CAP, vmax=CAP, edgecolors="white",
                             linewidth=0.5)
        # the cell labels lie inside their cells, so the layout (tight_layout and the
        # tight bounding box) skips their extents: the same bytes, a quarter less time
        for (i, j), label in sorted(text.items()):
            ax.text(j + 0.5, i + 0.5, label, ha="center", va="center", fontsize=5.5,
                    color="black" if abs(grid[i, j]) < 0.7 * CAP else "white",
                    in_layout=False)
        ax.set_xticks(np.arange(n) + 0.5)
        ax.set_xticklabels(order, rotation=90, fontsize=7)
        ax.set_yticks(np.arange(n) + 0.5)
        ax.set_yticklabels(order, fontsize=7)
        ax.set_xlim(0, n)
        ax.set_ylim(n, 0)
        ax.set_aspect("equal")
        bar = fig.colorbar(mesh, ax=ax, fraction=0.04, pad=0.02)
        bar.solids.set_rasterized(False)  # matplotlib rasterizes long colour bars
        bar.set_label("±−log10 corrected p (row − column)", fontsize=7)
        bar.ax.tick_params(labelsize=6)
        if title:
            ax.set_title(title, fontsize=9)
        fig.tight_layout()
        save_svg(fig, path)


def plot_bump(conditions: Mapping[str, Mapping[str, float]], path: str | os.PathLike[str],
              title: str = "") -> None:
    """Bump chart: one column per condition (in mapping order), one line per system through
    its rank under each condition (1 at the top; ranks among the systems the condition
    scores, ties averaged), labelled at both ends. Writes an SVG to ``path``."""
    from mwzrepro.core.plots import pyplot, save_svg, svg_style

    plt = pyplot()
    names = list(conditions)
    systems = sorted({s for v in conditions.values() for s in v})
    rank_of = {c: ranks(conditions[c]) for c in names}
    depth = max((len(v) for v in conditions.values()), default=1)
    colours = plt.get_cmap("tab20")
    with svg_style("mwzrepro-stats-bump"):
        fig, ax = plt.subplots(figsize=(2.0 + 1.6 * max(1, len(names)), 0.3 * depth + 1.4))
        if not names:
            ax.axis("off")
            ax.text(0.5, 0.5, "no condition scores this metric", ha="center", va="center")
            save_svg(fig, path)
            return
        for k, system in enumerate(systems):
            ys = [rank_of[c].get(system, math.nan) for c in names]
            colour = colours(k % 20)
            ax.plot(range(len(names)), ys, marker="o", markersize=3.5, linewidth=1.4,
                    color=colour)
            seen = [i for i, y in enumerate(ys) if not math.isnan(y)]
            if seen:
                ax.text(seen[0] - 0.08, ys[seen[0]], system, ha="right", va="center",
                        fontsize=6.5, color=colour)
                ax.text(seen[-1] + 0.08, ys[seen[-1]], system, ha="left", va="center",
                        fontsize=6.5, color=colour)
        ax.set_xticks(range(len(names)))
        ax.set_xticklabels(names, fontsize=7)
        ax.set_xlim(-0.9, len(names) - 0.1)
        ax.set_ylim(depth + 0.5, 0.5)
        ax.set_yticks(range(1, depth + 1))
        ax.tick_params(axis="y", labelsize=6.5)
        ax.set_ylabel("rank (1 = best)", fontsize=7)
        ax.grid(True, axis="x", linewidth=0.3)
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)
        if title:
            ax.set_title(title, fontsize=9)
        fig.tight_layout()
        save_svg(fig, path)
