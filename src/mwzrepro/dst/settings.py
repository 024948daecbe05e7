"""The derived values of the ``dst`` settings (spec-dst-metrics §6.4, §2.6), computed from the
block's plain values: :class:`mwzrepro.dst.params.DSTParams` (validation, pydantic) and a
scoring run (:class:`mwzrepro.dst.runs.DSTRun`, which the scorer builds from the validated
defaults without importing pydantic) both call them.

>>> [round(x, 4) for x in lambda_values("0.25,0.5", "0.95,6")]
[0.25, 0.5, 0.4993]
>>> excluded_ids("PMUL1455, sng0001.json,pmul1455")
('pmul1455', 'sng0001')
>>> numbers("1,x") is None
True
"""

from __future__ import annotations

from mwzrepro.core.params import parse_list
from mwzrepro.dst.metrics import lambda_from_forgetting
from mwzrepro.dst.state import canonical_dialogue_id

__all__ = ["numbers", "lambda_values", "excluded_ids"]


def numbers(text: str) -> tuple[float, ...] | None:
    """The comma-separated numbers of ``text``, or ``None`` if one is not a number."""
    try:
        return tuple(float(x) for x in parse_list(text, ","))
    except ValueError:
        return None


def lambda_values(lambdas: str, forget: str) -> list[float]:
    """The λ values of FGA: ``lambdas``, then the rule-of-thumb λ of ``forget`` (``"p,t_f"``,
    §6.4; ``""`` for none)."""
    out = list(numbers(lambdas) or ())
    if forget.strip():
        p, t_f = numbers(forget) or (0.0, 0.0)
        out.append(lambda_from_forgetting(p, t_f))
    return out


def excluded_ids(text: str) -> tuple[str, ...]:
    """Comma-separated dialogue ids as canonical ids (lowercase, no ``.json``), sorted,
    unique."""
    return tuple(sorted({canonical_dialogue_id(x) for x in parse_list(text, ",")}))
