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

__all__ = ["combined_score", "COMBINED_FORMULA"]

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
