"""Agreement of two binary judges on the same items: percent agreement and Cohen's κ
(Cohen 1960, "A coefficient of agreement for nominal scales", eq. 1: κ = (p_o − p_e) /
(1 − p_e), p_o the observed agreement, p_e the agreement expected from the two judges'
marginal rates), computed from the 2×2 confusion table.

>>> a = agreement([True, True, False, False, True], [True, False, False, False, True])
>>> a["percent"], round(a["kappa"], 4), a["table"]
(80.0, 0.6154, {'both_true': 2, 'first_only': 1, 'second_only': 0, 'both_false': 2})
>>> agreement([True, True], [True, True])["kappa"] is None     # p_e = 1: undefined
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["agreement"]


def agreement(first: Sequence[bool], second: Sequence[bool]) -> dict[str, Any]:
    """Percent agreement and Cohen's κ of two paired sequences of binary judgements.

    Returns:
        ``{"n", "percent" (percent agreement), "kappa" (None when the expected agreement is
        1: both judges constant and equal), "table": {"both_true", "first_only",
        "second_only", "both_false"}}``.

    Raises:
        ValueError: sequences of different lengths or empty.
    """
    if len(first) != len(second) or not first:
        raise ValueError("agreement(): two non-empty sequences of the same length")
    n = len(first)
    tt = sum(bool(a) and bool(b) for a, b in zip(first, second))
    tf = sum(bool(a) and not b for a, b in zip(first, second))
    ft = sum(not a and bool(b) for a, b in zip(first, second))
    ff = n - tt - tf - ft
    observed = (tt + ff) / n
    expected = ((tt + tf) * (tt + ft) + (ff + ft) * (ff + tf)) / (n * n)
    kappa = None if expected == 1 else (observed - expected) / (1 - expected)
    return {"n": n, "percent": 100 * observed, "kappa": kappa,
            "table": {"both_true": tt, "first_only": tf, "second_only": ft, "both_false": ff}}
