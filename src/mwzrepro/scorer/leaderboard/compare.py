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

Files that cover different dialogues are compared on the dialogues both cover,
paired, each figure recomputed on those dialogues, with a loud warning (an error under
``strict``): setting a 200-dialogue score against a 1000-dialogue one compares different test
sets. Addendum: rule as stated; signature fields unchanged (the output states the dialogues
compared).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mwzrepro.scorer.context import ScoringContext
    from mwzrepro.stats.bleu_stats import BleuReferences
    from mwzrepro.stats.compare import MetricComparison

__all__ = ["compare_predictions", "compare_shared", "SharedComparison", "prediction_stats"]


def prediction_stats(evaluator: ScoringContext, data: Mapping[str, Any], name: str,
                     fga_lambda: float, references: BleuReferences,
                     drops: list[str] | None = None) -> dict[str, Any]:
    """``{metric: DialogueStats}`` of one prediction mapping: Inform and Success of the
    evaluator's first setting, BLEU and, with ``dst`` and a state on every turn, JGA and
    FGA(``fga_lambda``) (module docstring); ``references`` tokenized once for every system.
    ``drops``, when given, receives the lines of :mod:`mwzrepro.scorer.input_drops` (deleted
    placeholders, removed predicted slots) under the file label ``name``.

    Raises:
        InputError: invalid input (see :meth:`Evaluator.evaluate`).
    """
    import pandas as pd  # the bootstrap's statistics read DataFrames

    from mwzrepro.standard.inform_success import DIALOGUE_COLUMNS, dialogue_rows
    from mwzrepro.stats.units import success_stats

    from mwzrepro.scorer.input_drops import placeholder_line

    preds, prep, _, unknown, _ = evaluator._prepare(data, name)
    if drops is not None:
        drops += filter(None, [placeholder_line(name, unknown)])
    ev = evaluator.resources.eval
    setting = evaluator.settings[0]
    prep = prep.for_setting(setting, ev.turn_domains)
    rows = pd.DataFrame(dialogue_rows(prep.dialogues, ev.goals, ev.booked,
                                      evaluator._database(), setting, where=name),
                        columns=DIALOGUE_COLUMNS)
    out = {m: success_stats(rows, setting, m, name) for m in ("inform", "success")}
    out["bleu"] = references.stats(pd.DataFrame(preds), name)
    if evaluator.metrics["dst"] and prep.state_source == "predicted":
        out.update(_dst_stats(evaluator, preds, name, fga_lambda, drops))
    return out


def _dst_stats(evaluator: ScoringContext, preds: Any, name: str, fga_lambda: float,
               drops: list[str] | None = None) -> dict[str, Any]:
    """JGA and FGA(λ) as per-dialogue turn counts, scored as ``Evaluator.evaluate`` scores
    them (the evaluator's ``dst`` parameters); the removed-slot line goes to ``drops``."""
    from mwzrepro.dst.corpus import outcomes_frame
    from mwzrepro.scorer.blocks import score_states
    from mwzrepro.scorer.input_drops import dropped_slots_line
    from mwzrepro.stats.units import dst_stats

    _run, result = score_states(preds, evaluator.resources.dst_gold, evaluator._dst_params,
                                name)
    if result.scores is None:
        return {}
    if drops is not None:
        drops += filter(None, [dropped_slots_line(name, result.coverage.dropped_pred_slots)])
    turns = outcomes_frame(result.outcomes)
    return {"jga": dst_stats(turns, "jga", name),
            "fga": dst_stats(turns, "fga", name, fga_lambda)}


@dataclass(frozen=True)
class SharedComparison:
    """A comparison and the dialogues it was made on.

    Attributes:
        rows: one :class:`~mwzrepro.stats.compare.MetricComparison` per metric.
        dialogues: the dialogues resampled (both files' shared dialogues; the full test set
            when both cover it).
        covered: ``(dialogues A covers, dialogues B covers)``.
        test_dialogues: dialogues of the test set.
        drops: what the scoring left out of either file, one line per kind with counts
            (:mod:`mwzrepro.scorer.input_drops`), A's lines first.
    """

    rows: list[MetricComparison]
    dialogues: int
    covered: tuple[int, int]
    test_dialogues: int
    drops: tuple[str, ...] = ()

    @property
    def shared_only(self) -> bool:
        """Whether the files cover different dialogues (compared on the shared ones)."""
        return self.covered[0] != self.covered[1] or self.dialogues != self.test_dialogues

    def warning(self, names: tuple[str, str]) -> str:
        """The loud line shown when :attr:`shared_only` ("" otherwise)."""
        if not self.shared_only:
            return ""
        return (f"DIFFERENT COVERAGE: {names[0]} covers {self.covered[0]} and {names[1]} "
                f"{self.covered[1]} of the {self.test_dialogues} test dialogues; compared on "
                f"the {self.dialogues} dialogues both cover (paired); every figure below is on "
                "those dialogues only, not the files' own scores")


def compare_shared(evaluators: tuple[ScoringContext, ScoringContext], a: Mapping[str, Any],
                   b: Mapping[str, Any], params: Any = None,
                   names: tuple[str, str] = ("A", "B"), strict: bool = False
                   ) -> SharedComparison:
    """Compare ``a`` (scored by ``evaluators[0]``) with ``b`` (``evaluators[1]``; the two may
    differ in a file's form, :mod:`mwzrepro.scorer.lexicalized.file_form`) on the dialogues both
    cover:
    the full test set when both cover it (then the figures equal the pipeline's pairwise
    tables), else only the shared dialogues, each figure recomputed on them.

    Raises:
        InputError: either input is invalid; the files cover different dialogues and
            ``strict``; they share no dialogue.
    """
    from mwzrepro.core.errors import InputError
    from mwzrepro.stats.bleu_stats import BleuReferences
    from mwzrepro.stats.compare import compare
    from mwzrepro.stats.params import StatsParams

    params = params or StatsParams()
    first = evaluators[0]
    refs = BleuReferences(first.resources.references)  # tokenized once for both systems
    drops: list[str] = []
    sa = prediction_stats(evaluators[0], a, names[0], params.fga_lambda, refs, drops)
    sb = prediction_stats(evaluators[1], b, names[1], params.fga_lambda, refs, drops)
    test = frozenset(first.resources.expected)
    cov = (len(sa["inform"].dialogue_ids), len(sb["inform"].dialogue_ids))
    shared = test & set(sa["inform"].dialogue_ids) & set(sb["inform"].dialogue_ids)
    if shared == test:
        rows = compare(sa, sb, params, first.resources.expected)
        return SharedComparison(rows, len(test), cov, len(test), tuple(drops))
    if strict:
        raise InputError(f"{names[0]} covers {cov[0]} and {names[1]} {cov[1]} of the "
                         f"{len(test)} test dialogues and --strict (strict=True) requires "
                         "both to cover every test dialogue")
    if not shared:
        raise InputError(f"{names[0]} and {names[1]} share no test dialogue: nothing to "
                         "compare")
    rows = compare({m: s.restricted(shared) for m, s in sa.items()},
                   {m: s.restricted(shared) for m, s in sb.items()}, params, shared)
    return SharedComparison(rows, len(shared), cov, len(test), tuple(drops))


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
    import logging

    done = compare_shared((evaluator, evaluator), a, b, params, names)
    for line in done.drops:
        logging.getLogger("mwzrepro").warning("%s", line)
    if done.shared_only:
        logging.getLogger("mwzrepro").warning("%s", done.warning(names))
    return done.rows
