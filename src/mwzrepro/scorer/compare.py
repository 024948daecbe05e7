"""Two systems' predictions compared metric by metric with a paired bootstrap over the test
dialogues: :meth:`mwzrepro.scorer.evaluator.Evaluator.compare`, on top of
:func:`mwzrepro.stats.compare.compare` (the library call behind ``stats-compare``).

Metrics: Inform and Success of the evaluator's first setting (per-dialogue hits,
spec-standard-evaluation §9.3) and BLEU (sacrebleu's per-turn sufficient statistics summed
per dialogue), A − B with a percentile interval and a p-value, in percent (BLEU on its 0–100
scale). The test set resampled is the full test set of the evaluator's version, so with the
same parameters the figures equal the pipeline's ``stats-compare``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mwzrepro.scorer.evaluator import Evaluator
    from mwzrepro.stats.compare import MetricComparison

__all__ = ["compare_predictions"]


def _stats(evaluator: Evaluator, data: Mapping[str, Any], name: str) -> dict[str, Any]:
    from mwzrepro.standard.inform_success import score_dialogues
    from mwzrepro.stats.bleu_stats import bleu_stats
    from mwzrepro.stats.units import success_stats

    preds, prep, _, _ = evaluator._prepare(data, name)
    ev = evaluator.resources.eval
    setting = evaluator.settings[0]
    if setting == "optimistic":
        prep = prep.with_domains("ground-truth", ev.turn_domains)
    rows = score_dialogues(prep.dialogues, ev.goals, ev.booked, evaluator._database(),
                           setting, where=name)
    out = {m: success_stats(rows, setting, m, name) for m in ("inform", "success")}
    out["bleu"] = bleu_stats(preds, evaluator.resources.references, name)
    return out


def compare_predictions(evaluator: Evaluator, a: Mapping[str, Any], b: Mapping[str, Any],
                        params: Any = None,
                        names: tuple[str, str] = ("A", "B")) -> list[MetricComparison]:
    """Compare prediction mappings ``a`` and ``b`` (A − B) on Inform, Success and BLEU.

    Args:
        evaluator: supplies the version's resources and settings.
        a, b: prediction mappings (reference evaluator format).
        params: :class:`mwzrepro.stats.params.StatsParams` (default: its defaults).
        names: labels of A and B in messages.

    Returns:
        One :class:`mwzrepro.stats.compare.MetricComparison` per metric.

    Raises:
        InputError: either input is invalid (see :meth:`Evaluator.evaluate`).
    """
    from mwzrepro.stats.compare import compare
    from mwzrepro.stats.params import StatsParams

    sa, sb = _stats(evaluator, a, names[0]), _stats(evaluator, b, names[1])
    return compare(sa, sb, params or StatsParams(), evaluator.resources.expected)
