"""Deterministic SVG figures: the same data and matplotlib version give the same bytes.

:func:`svg_style` fixes the SVG id salt and keeps text as text; :func:`save_svg` writes a
figure atomically without the date and creator metadata matplotlib would embed.
"""

from __future__ import annotations

import os
from contextlib import AbstractContextManager
from typing import Any

__all__ = ["pyplot", "svg_style", "save_svg"]


def pyplot() -> Any:
    """``matplotlib.pyplot`` on the non-interactive Agg backend (no display needed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def svg_style(salt: str) -> AbstractContextManager[Any]:
    """A matplotlib ``rc_context`` for reproducible SVG (fixed ``svg.hashsalt`` = ``salt``,
    fonts as text, no path simplification)."""
    import matplotlib

    return matplotlib.rc_context({"svg.hashsalt": salt, "svg.fonttype": "none",
                                  "path.simplify": False})


def save_svg(fig: Any, path: str | os.PathLike[str]) -> None:
    """Write the matplotlib figure ``fig`` to ``path`` as SVG, atomically, without date or
    creator metadata, then close it."""
    import matplotlib.pyplot as plt

    from mwzrepro.core.io import atomic_path

    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="svg", bbox_inches="tight",
                    metadata={"Date": None, "Creator": None})
    plt.close(fig)
