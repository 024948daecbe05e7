"""Two systems' predictions compared metric by metric with a paired bootstrap over the test
dialogues: :meth:`mwzrepro.scorer.evaluator.Evaluator.compare`, on top of
:func:`mwzrepro.stats.compare.compare` (the library call behind ``stats-compare``).

Metrics: Inform and Success of the evaluator's first setting (per-dialogue hits,
spec-standard-evaluation §9.3), BLEU (sacrebleu's per-turn sufficient statistics summed
per dialogue) and, when the evaluator computes DST (``dst=True``; ``mwzrepro compare`` does)
and both files carry a predicted state on every turn, JGA and FGA(λ)
(spec-dst-metrics §3, §6; per-dialogue turn counts). Each is A − B with a percentile interval
and a p-value, in percent (BLEU on its 0–100 scale). The test set resampled is the full test
set of the evaluator's version, so with the same parameters the figures equal the pipeline's
``stats-compare``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mwzrepro.scorer.context import ScoringContext
    from mwzrepro.stats.bleu_stats import BleuReferences
    from mwzrepro.stats.compare import MetricComparison

__all__ = ["compare_predictions"]


def _stats(evaluator: ScoringContext, data: Mapping[str, Any], name: str, fga_lambda: float,
           references: BleuReferences) -> dict[str, Any]:
    import pandas as pd  # the bootstrap's statistics read DataFrames

    from mwzrepro.standard.inform_success import DIALOGUE_COLUMNS, dialogue_rows
    from mwzrepro.stats.units import success_stats

    preds, prep, _, _ = evaluator._prepare(data, name)
    ev = evaluator.resources.eval
    setting = evaluator.settings[0]
    if setting == "optimistic":
        prep = prep.with_domains("ground-truth", ev.turn_domains)
    rows = pd.DataFrame(dialogue_rows(prep.dialogues, ev.goals, ev.booked,
                                      evaluator._database(), setting, where=name),
                        columns=DIALOGUE_COLUMNS)
    out = {m: success_stats(rows, setting, m, name) for m in ("inform", "success")}
    out["bleu"] = references.stats(pd.DataFrame(preds), name)
    if evaluator.metrics["dst"] and prep.state_source == "predicted":
        out.update(_dst_stats(evaluator, preds, name, fga_lambda))
    return out


def _dst_stats(evaluator: ScoringContext, preds: Any, name: str,
               fga_lambda: float) -> dict[str, Any]:
    """JGA and FGA(λ) as per-dialogue turn counts, scored as ``Evaluator.evaluate`` scores
    them (the evaluator's ``dst`` parameters)."""
    from mwzrepro.dst.corpus import outcomes_frame
    from mwzrepro.scorer.blocks import score_states
    from mwzrepro.stats.units import dst_stats

    _run, result = score_states(preds, evaluator.resources.dst_gold, evaluator._dst_params,
                                name)
    if result.scores is None:
        return {}
    turns = outcomes_frame(result.outcomes)
    return {"jga": dst_stats(turns, "jga", name),
            "fga": dst_stats(turns, "fga", name, fga_lambda)}


def compare_predictions(evaluator: ScoringContext, a: Mapping[str, Any], b: Mapping[str, Any],
                        params: Any = None,
                        names: tuple[str, str] = ("A", "B")) -> list[MetricComparison]:
    """Compare prediction mappings ``a`` and ``b`` (A − B) on Inform, Success, BLEU and, when
    both carry states, JGA and FGA(λ) (``params.fga_lambda``).

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
    from mwzrepro.stats.bleu_stats import BleuReferences
    from mwzrepro.stats.compare import compare
    from mwzrepro.stats.params import StatsParams

    params = params or StatsParams()
    refs = BleuReferences(evaluator.resources.references)  # tokenized once for both systems
    sa = _stats(evaluator, a, names[0], params.fga_lambda, refs)
    sb = _stats(evaluator, b, names[1], params.fga_lambda, refs)
    return compare(sa, sb, params, evaluator.resources.expected)
