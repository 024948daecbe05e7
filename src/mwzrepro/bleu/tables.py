"""The BLEU table in the paper's Table 4 shape: systems × reference versions, with each
column's signature, the metrics JSON and the plot data (spec-standard-evaluation §11).

Input: the ``scores`` rows of every (version, system) BLEU file (:func:`mwzrepro.bleu.score.
bleu_scores`), concatenated. A column may only hold numbers whose signatures agree on every
field but ``system`` (:func:`mwzrepro.core.signature.check_compatible`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from mwzrepro.core.errors import InputError
from mwzrepro.core.signature import Signature, check_compatible

__all__ = ["BleuTable", "bleu_table"]

#: Note under the table.
BLEU_NOTE = ("BLEU: sacrebleu corpus BLEU (0-100) of normalized responses against span-based "
             "delexicalized references of each version's test set.")
TITLE = "BLEU against span-based references, by reference version"


@dataclass(frozen=True)
class BleuTable:
    """Output of :func:`bleu_table`.

    Attributes:
        table: one row per system (sorted): ``system``, ``BLEU (<version> refs)`` per version
            (0–100), ``dialogues`` (``covered/expected``).
        notes: the column signatures (``<version>: <signature without system>``) and
            :data:`BLEU_NOTE`.
        metrics: ``{"bleu": {version: {system: BLEU rounded to 4 places}}, "signatures":
            {version: column signature}}``.
        plot: long rows ``system, version, bleu`` sorted by system and version.
        n_systems, n_versions: the table's shape.
    """

    table: pd.DataFrame
    notes: list[str]
    metrics: dict[str, Any]
    plot: pd.DataFrame
    n_systems: int
    n_versions: int

    def plot_csv(self) -> str:
        """:attr:`plot` as CSV text (4 decimals, ``\\n`` line ends)."""
        return self.plot.to_csv(index=False, lineterminator="\n", float_format="%.4f")


def bleu_table(scores: pd.DataFrame) -> BleuTable:
    """Assemble BLEU of every system against every reference version.

    Args:
        scores: concatenated ``scores`` rows of the BLEU files (metric ``bleu`` and the
            ``dialogues``/``turns`` coverage rows).

    Raises:
        InputError: no BLEU rows.
        SignatureMismatch: two numbers of one version column differ in a setting other than
            the system.
    """
    bleu = scores[scores["metric"] == "bleu"]
    if bleu.empty:
        raise InputError("no BLEU scores to assemble")
    versions = sorted(bleu["version"].unique())
    notes = []
    column_sig = {}
    for v in versions:
        sigs = bleu.loc[bleu["version"] == v, "signature"]
        check_compatible(sigs, vary=("system",), where=f"BLEU column {v}")
        column_sig[v] = Signature.parse(sigs.iloc[0]).without(["system"]).format()
        notes.append(f"{v}: {column_sig[v]}")
    wide = bleu.pivot(index="system", columns="version", values="value")[versions]
    cov = scores[(scores["metric"] == "dialogues")].pivot_table(
        index="system", columns="key", values="value", aggfunc="first")
    wide["dialogues"] = [
        f"{int(cov.loc[s, 'covered'])}/{int(cov.loc[s, 'expected'])}" for s in wide.index
    ]
    out = wide.reset_index()
    out.columns = ["system"] + [f"BLEU ({v} refs)" for v in versions] + ["dialogues"]
    notes.append(BLEU_NOTE)
    metrics = {
        "bleu": {v: {s: round(float(wide.loc[s, v]), 4) for s in wide.index} for v in versions},
        "signatures": column_sig,
    }
    long = bleu[["system", "version", "value"]].rename(columns={"value": "bleu"})
    long = long.sort_values(["system", "version"])
    return BleuTable(out, notes, metrics, long, len(wide), len(versions))
