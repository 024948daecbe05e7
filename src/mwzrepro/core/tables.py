"""Table rendering: one DataFrame → ``.md``, ``.csv`` and ``.tex`` files with the same stem.

Numbers are formatted once, here, so every rendering shows the same digits. Each table carries
its signatures in a footer (Markdown and LaTeX) or in the CSV's ``signature`` rows, so a
reader can see which settings produced the numbers.
"""

from __future__ import annotations

import os
from collections.abc import Container, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

import pandas as pd

from mwzrepro.core.io import write_text

__all__ = ["render_table", "format_cell", "grid_lines", "TableSpec"]


class TableSpec(NamedTuple):
    """One table as the library builds it, for :func:`render_table`: rows, caption, decimal
    places (global or per column) and notes."""

    df: pd.DataFrame
    title: str
    decimals: int | Mapping[str, int] = 2
    notes: list[str] = []

    def render(self, stem: str | os.PathLike[str]) -> None:
        """Write the table as ``<stem>.md``, ``.csv`` and ``.tex``."""
        render_table(self.df, stem, self.title, decimals=self.decimals, notes=self.notes)


def format_cell(value: object, decimals: int) -> str:
    """Render one cell: floats with ``decimals`` places (round-half-even on the binary value,
    Python's ``format``), ints as ints, missing values as ``–``.

    >>> format_cell(0.125, 2), format_cell(3, 2), format_cell(float("nan"), 1), format_cell(True, 0)
    ('0.12', '3', '–', 'yes')
    """
    if value is None or (isinstance(value, float) and value != value):
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return f"{value:.{decimals}f}"
    try:
        import numpy as np

        if isinstance(value, np.integer):
            return str(int(value))
        if isinstance(value, np.floating):
            return f"{float(value):.{decimals}f}"
    except ImportError:  # pragma: no cover
        pass
    return str(value)


def grid_lines(head: Sequence[str], body: Sequence[Sequence[str]], fmt: str,
               left: Container[int] = (0,)) -> list[str]:
    r"""Rows of text cells under a header row as the lines of a Markdown table (``|`` escaped
    in the body cells) or, for ``text``, as aligned columns two spaces apart: the columns
    whose index is in ``left`` left-aligned, the others right-aligned, no trailing spaces.

    >>> print(*grid_lines(["name", "n"], [["a|b", "10"]], "markdown"), sep="\n")
    | name | n |
    |---|---|
    | a\|b | 10 |
    >>> grid_lines(["name", "n"], [["a", "10"]], "text")
    ['name   n', 'a     10']

    Raises:
        ValueError: ``fmt`` is neither ``markdown`` nor ``text``.
    """
    if fmt == "markdown":
        return ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)] + [
            "| " + " | ".join(c.replace("|", "\\|") for c in r) + " |" for r in body]
    if fmt == "text":
        widths = [max(len(r[i]) for r in [head, *body]) for i in range(len(head))]
        return ["  ".join(c.ljust(w) if i in left else c.rjust(w)
                          for i, (c, w) in enumerate(zip(r, widths))).rstrip()
                for r in [head, *body]]
    raise ValueError(f"unknown format {fmt!r}")


def _tex_escape(text: str) -> str:
    for a, b in (("\\", r"\textbackslash{}"), ("&", r"\&"), ("%", r"\%"), ("_", r"\_"),
                 ("#", r"\#"), ("$", r"\$"), ("{", r"\{"), ("}", r"\}")):
        text = text.replace(a, b)
    return text.replace(r"\textbackslash\{\}", r"\textbackslash{}")


def render_table(
    df: pd.DataFrame,
    stem: str | os.PathLike[str],
    title: str,
    decimals: int | Mapping[str, int] = 2,
    notes: list[str] | None = None,
) -> None:
    """Write ``df`` as ``<stem>.md``, ``<stem>.csv`` and ``<stem>.tex`` (atomically).

    Args:
        df: the table; its index is ignored, columns are rendered in order.
        stem: path without extension, e.g. ``results/tables/bleu``.
        title: a one-line caption (Markdown heading, LaTeX caption).
        decimals: decimal places for float cells, globally or per column.
        notes: lines printed under the table (signatures, sources, caveats).

    The CSV keeps full precision (``repr`` of floats) for machine use; Markdown and LaTeX show
    the rounded values.
    """
    stem = Path(stem)
    notes = notes or []
    cols = [str(c) for c in df.columns]

    def dec(col: str) -> int:
        return decimals.get(col, 2) if isinstance(decimals, Mapping) else decimals

    cells = [[format_cell(v, dec(c)) for c, v in zip(cols, row)] for row in df.itertuples(False)]
    md = [f"# {title}", "", *grid_lines(cols, cells, "markdown")]
    if notes:
        md += [""] + [f"- {n}" for n in notes]
    write_text("\n".join(md) + "\n", stem.with_suffix(".md"))

    csv = df.copy()
    csv.columns = cols
    write_text(csv.to_csv(index=False, lineterminator="\n", float_format=lambda x: repr(float(x))), stem.with_suffix(".csv"))

    tex = [r"\begin{table}[t]", r"\centering", r"\small",
           r"\begin{tabular}{l" + "r" * (len(cols) - 1) + "}", r"\toprule",
           " & ".join(_tex_escape(c) for c in cols) + r" \\", r"\midrule"]
    tex += [" & ".join(_tex_escape(c) for c in r) + r" \\" for r in cells]
    tex += [r"\bottomrule", r"\end{tabular}", rf"\caption{{{_tex_escape(title)}}}"]
    tex += [f"% {n}" for n in notes]
    tex += [r"\end{table}"]
    write_text("\n".join(tex) + "\n", stem.with_suffix(".tex"))
