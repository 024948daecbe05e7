"""Intervals and paired tests of a multi-system table (``mwzrepro score A B ... --ci
--paired-bs``), sacrebleu-style: every system's figure with its percentile interval, and each
system tested against the first (the baseline).

The resampling is the pipeline's and ``mwzrepro compare``'s: one
:class:`~mwzrepro.stats.bootstrap.Resampler` over the version's full test set (``B``
resamples, seed), every system re-scored on the same resamples from its per-dialogue
statistics (:func:`mwzrepro.scorer.leaderboard.compare.prediction_stats`), intervals by
:meth:`Resampler.replicate`, differences and p-values by
:func:`mwzrepro.stats.significance.test_pair`. With the same test set, ``B`` and seed the
intervals equal the pipeline's ``stats_ci_<version>`` table and the uncorrected p-values its
``stats_pairs_<version>.csv`` rows of the same pairs.

The family of a paired test here is one metric's tests of every comparable system against the
baseline (k − 1 tests), corrected with ``params.correction`` (Holm by default); the pipeline's
pairwise tables correct over all k(k − 1)/2 pairs, so only the uncorrected p-values are
comparable between the two.

Combined ((Inform + Success) / 2 + BLEU, :mod:`mwzrepro.standard.combined_score`) gets an
interval and a test too: on each resample it is computed from that resample's Inform, Success
and BLEU; its full-sample figure is the table's (from the rounded Inform and Success).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from mwzrepro.stats.bootstrap import Replicates, Resampler, percentile_interval
from mwzrepro.stats.params import StatsParams
from mwzrepro.stats.significance import PairTest, adjust_pvalues, test_pair
from mwzrepro.stats.units import DialogueStats

__all__ = ["replicate_rows", "paired_tests"]


def replicate_rows(stats: Mapping[str, Mapping[str, DialogueStats]],
                   combined: Mapping[str, float | None], dialogue_ids: Iterable[str],
                   params: StatsParams) -> dict[str, dict[str, Replicates]]:
    """``{row: {metric: Replicates}}`` of every row on one shared set of resamples of
    ``dialogue_ids`` (``params.resamples``, ``params.seed``), at ``params.confidence``;
    ``combined`` (the rows' full-sample Combined) adds a ``combined`` entry where Inform,
    Success and BLEU are all resampled."""
    resampler = Resampler.from_params(dialogue_ids, params)
    out: dict[str, dict[str, Replicates]] = {}
    for row, by_metric in stats.items():
        reps = {m: resampler.replicate(s, params.confidence) for m, s in by_metric.items()}
        point = combined.get(row)
        if point is not None and all(m in reps for m in ("inform", "success", "bleu")):
            values = 0.5 * (reps["inform"].values + reps["success"].values) \
                + reps["bleu"].values
            reps["combined"] = Replicates(None, values,
                                          percentile_interval(values, point, params.confidence))
        out[row] = reps
    return out


def paired_tests(reps: Mapping[str, Mapping[str, Replicates]], baseline: str,
                 rows: Sequence[str], metrics: Sequence[str],
                 params: StatsParams) -> dict[str, dict[str, PairTest]]:
    """``{row: {metric: PairTest}}`` of each of ``rows`` (the baseline left out) against
    ``baseline`` (:class:`~mwzrepro.stats.significance.PairTest` with ``a`` the row, ``b``
    the baseline: ``diff`` = row − baseline, in the metric's unit), one family per metric
    (rows that have the metric; a metric the baseline lacks is skipped), corrected with
    ``params.correction``."""
    out: dict[str, dict[str, PairTest]] = {r: {} for r in rows if r != baseline}
    for m in metrics:
        if m not in reps.get(baseline, {}):
            continue
        tested = [r for r in rows if r != baseline and m in reps[r]]
        raw = [test_pair(reps[r][m], reps[baseline][m], params) for r in tested]
        adjusted = adjust_pvalues([t[3] for t in raw], params.correction)
        for r, (diff, lo, hi, p), pa in zip(tested, raw, adjusted):
            out[r][m] = PairTest(m, r, baseline, diff, lo, hi, p, pa, pa < params.alpha)
    return out
