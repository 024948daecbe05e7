"""The combined score of end-to-end MultiWOZ response generation: one number per system.

Formula: ``Combined = (Inform + Success) / 2 + BLEU``, Inform and Success in percent (the
reference evaluator's figures, rounded to one decimal, spec-standard-evaluation §9.3) and BLEU
on sacrebleu's 0–100 scale, so Combined has no unit of its own (it lies in 0–200).

Source: Mehri, Srinivasan & Eskenazi (2019), "Structured Fusion Networks for Dialog",
SIGDIAL, §5 ("combined score ... (Inform + Success) × 0.5 + BLEU"); the MultiWOZ leaderboard
(budzianowski/multiwoz README, "Combined Score") ranks by it; the reference evaluator
(Tomiinek/MultiWOZ_Evaluation) does not print it. Inform and Success are those of the main
(standard) setting; BLEU is that of the same test-set version.

>>> combined_score(76.6, 60.5, 16.380622807566454)
84.93062280756645
>>> combined_score(76.6, None, 16.4) is None
True
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["combined_score", "COMBINED_FORMULA", "bleu_figures", "bleu_by_version"]

#: The formula as printed under tables.
COMBINED_FORMULA = "Combined = (Inform + Success) / 2 + BLEU"


def combined_score(inform: float | None, success: float | None,
                   bleu: float | None) -> float | None:
    """``(inform + success) / 2 + bleu`` (module docstring: units and source); None when any
    of the three is missing (not computed, or NaN)."""
    if inform is None or success is None or bleu is None:
        return None
    if inform != inform or success != success or bleu != bleu:  # NaN
        return None
    return 0.5 * (inform + success) + bleu


def bleu_figures(bleu_dir: Path, systems: list[str]) -> dict[str, float]:
    """``{system: BLEU}`` from one version's ``score-bleu`` files
    (``<bleu_dir>/<system>.parquet``, metric ``bleu``), their signatures checked to agree in
    everything but the system: the BLEU of the pipeline's Combined column.

    Raises:
        InputError: a system without a BLEU score file.
        SignatureMismatch: two BLEU settings.
    """
    from mwzrepro.core.errors import InputError
    from mwzrepro.core.io import read_table
    from mwzrepro.core.signature import check_compatible

    out: dict[str, float] = {}
    sigs: list[str] = []
    for system in systems:
        path = Path(bleu_dir) / f"{system}.parquet"
        if not path.is_file():
            raise InputError(f"{path}: no BLEU score (the Combined column needs it)")
        scores = read_table(path, "scores")
        row = scores[scores["metric"] == "bleu"].iloc[0]
        out[system] = float(row["value"])
        sigs.append(str(row["signature"]))
    check_compatible(sigs, where=f"BLEU of the Combined column ({Path(bleu_dir).name})")
    return out


def bleu_by_version(bleu_root: Path, versions: list[str], systems: list[str]
                    ) -> dict[str, dict[str, float]] | None:
    """``{version: {system: BLEU}}`` from ``<bleu_root>/<version>/<system>.parquet``
    (:func:`bleu_figures`), or None when ``bleu_root`` does not exist (a scores directory
    without BLEU: the tables have no Combined column).

    Raises:
        InputError, SignatureMismatch: as :func:`bleu_figures`.
    """
    if not Path(bleu_root).is_dir():
        return None
    return {v: bleu_figures(Path(bleu_root) / v, systems) for v in versions}
