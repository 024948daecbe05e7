"""Many systems scored in one call: :meth:`Evaluator.evaluate_many
<mwzrepro.scorer.evaluator.Evaluator.evaluate_many>` and ``mwzrepro score A.json B.json ...``.

The resources are loaded once (by the evaluator); the files are scored in forked workers on
every core the process may use (:func:`mwzrepro.core.workers.fork_map`), each by the same
:meth:`Evaluator.evaluate` as one file alone, so every row equals the one-file result. With
intervals or paired tests, each worker also computes the file's per-dialogue statistics
(:func:`mwzrepro.scorer.leaderboard.compare.prediction_stats`) and the parent resamples them
(:mod:`mwzrepro.scorer.leaderboard.stats`). Rows are compared by
:mod:`mwzrepro.scorer.leaderboard.comparability`: ranks and paired tests only among comparable rows.

The table (:attr:`Leaderboard.table`, a pandas DataFrame, one row per system in the given
order; the first row is the baseline of the paired tests):

========================== ==============================================================
column                     meaning (unit)
========================== ==============================================================
system, file               row name; file name (``<predictions>`` for a mapping)
inform, success            Inform, Success of the main setting (percent, one decimal)
bleu                       BLEU (sacrebleu's 0–100 scale)
combined                   (Inform + Success) / 2 + BLEU (:mod:`...standard.combined_score`)
jga, fga                   JGA and FGA(λ = ``params.fga_lambda``) of the FGA paper (percent;
                           NaN for a file without a state on every turn)
dialogues, turns           dialogues and turns scored (of the test set's)
comparable, differs        comparability with the reference signature; the differing
                           fields (``cov:944/1000 lex:1-pred``; "" when comparable)
rank                       1 = best Combined among comparable rows (ties share the smaller
                           rank); <NA> for rows not comparable
<m>_lower, <m>_upper       with ``ci``: the percentile interval (``params.confidence``) of
                           each metric ``m`` above (same unit)
<m>_diff, <m>_p,           with ``paired_bs``: row − baseline, uncorrected and corrected
<m>_p_adjusted,            (``params.correction`` over the comparable rows) two-sided
<m>_significant            p-values, corrected p < ``params.alpha``; NaN for the baseline and
                           rows not comparable
========================== ==============================================================
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from mwzrepro.core.errors import InputError, MwzreproError
from mwzrepro.scorer.prediction_file import read_predictions

if TYPE_CHECKING:
    import pandas as pd

    from mwzrepro.scorer.leaderboard.comparability import Comparability
    from mwzrepro.scorer.results import EvaluationResult
    from mwzrepro.stats.params import StatsParams

__all__ = ["Leaderboard", "evaluate_many", "combined_ranks", "METRIC_COLUMNS"]

log = logging.getLogger("mwzrepro")

#: The figure columns of the table, in order.
METRIC_COLUMNS = ("inform", "success", "bleu", "combined", "jga", "fga")


@dataclass(frozen=True)
class Leaderboard:
    """What :func:`evaluate_many` returns.

    Attributes:
        table: the DataFrame of the module docstring.
        results: ``{row: EvaluationResult}`` of every scored row (each equal to the row's
            one-file :meth:`Evaluator.evaluate`).
        comparability: :class:`~mwzrepro.scorer.leaderboard.comparability.Comparability` of the
        rows.
        failures: ``{row: one-line error}`` of the files that could not be scored (only with
            ``keep_going``).
        params: the :class:`~mwzrepro.stats.params.StatsParams` of intervals and tests.
        ci, paired_bs: whether intervals / paired tests were computed.
        version: dataset version; dialogues: test dialogues resampled.
        shared: with ``shared``, what the rows gave and what they all gave
            (:class:`~mwzrepro.scorer.leaderboard.shared_coverage.SharedCoverage`), else None.
    """

    table: pd.DataFrame
    results: dict[str, EvaluationResult]
    comparability: Comparability
    failures: dict[str, str] = field(default_factory=dict)
    params: Any = None
    ci: bool = False
    paired_bs: bool = False
    version: str = ""
    dialogues: int = 0
    shared: Any = None


def _figures(result: EvaluationResult, fga_lambda: float) -> dict[str, float | None]:
    main = next(iter(result.success.values()), None)
    fga = result.dst_fga.fga.get(str(float(fga_lambda))) if result.dst_fga else None
    return {"inform": main.inform["total"] if main else None,
            "success": main.success["total"] if main else None,
            "bleu": result.bleu.score if result.bleu else None,
            "combined": result.combined,
            "jga": result.dst_fga.jga if result.dst_fga else None, "fga": fga}


class _Scored(NamedTuple):
    """One row as a worker returns it: its result, the notes to show before its warnings and
    its per-dialogue statistics (None without intervals or tests); ``error`` (one line) and
    nothing else when it could not be scored."""

    result: EvaluationResult | None = None
    notes: tuple[str, ...] = ()
    stats: dict[str, Any] | None = None
    error: str | None = None


def _label(source: Any) -> str:
    return Path(source).name if isinstance(source, str | Path) else "<predictions>"


def _shared_rows(systems: Mapping[str, Any]) -> tuple[dict[str, Any], Any]:
    """``(systems with every readable file cut to what all give, SharedCoverage)``
    (:mod:`mwzrepro.scorer.leaderboard.shared_coverage`); a file that cannot be read stays
    as it is, for its row to fail as without ``shared``."""
    from mwzrepro.scorer.inputs import read_shape
    from mwzrepro.scorer.leaderboard.shared_coverage import shared_subset

    read: dict[str, Any] = {}
    for name, source in systems.items():
        try:
            data = read_predictions(source) if isinstance(source, str | Path) else source
            read[name] = read_shape(data, _label(source))[0]
        except MwzreproError:
            continue
    cut, shared = shared_subset(read)
    return {name: cut.get(name, source) for name, source in systems.items()}, shared


def _score_item(evaluator: Any, item: tuple[str, Any, dict | None, str], with_stats: bool,
                fga_lambda: float, references: Any, per_dialogue: bool) -> _Scored:
    """The :class:`_Scored` of one row (in a worker)."""
    from mwzrepro.scorer.leaderboard.compare import prediction_stats
    from mwzrepro.scorer.lexicalized.file_form import lexicalized_form, with_form
    from mwzrepro.scorer.inputs import read_shape

    name, source, form, label = item
    level = log.level
    log.setLevel(logging.ERROR)  # the parent repeats each result's warnings, in row order
    try:
        data = read_predictions(source) if isinstance(source, str | Path) else source
        read_shape(data, label)
        form, line = lexicalized_form(evaluator, form, data, label)
        notes = [line] if line else []
        ev = with_form(evaluator, form)
        result = ev.evaluate(data, name, label, per_dialogue=per_dialogue)
        stats = prediction_stats(ev, data, name, fga_lambda, references) if with_stats \
            else None
        return _Scored(result, tuple(notes), stats)
    except MwzreproError as exc:
        return _Scored(error=str(exc))
    finally:
        log.setLevel(level)


def _table(results: Mapping[str, EvaluationResult], comp: Comparability,
           params: StatsParams, reps: Mapping[str, Any] | None,
           tests: Mapping[str, Any] | None) -> pd.DataFrame:
    import pandas as pd

    rows = []
    for name, r in results.items():
        row: dict[str, Any] = {"system": name, "file": r.source,
                               **_figures(r, params.fga_lambda),
                               "dialogues": r.coverage.dialogues, "turns": r.coverage.turns,
                               "comparable": comp.comparable[name],
                               "differs": comp.marks[name]}
        for m in METRIC_COLUMNS:
            if reps is not None:
                iv = reps[name].get(m)
                row[f"{m}_lower"] = iv.interval.lower if iv else None
                row[f"{m}_upper"] = iv.interval.upper if iv else None
            if tests is not None:
                t = tests.get(name, {}).get(m)
                row.update({f"{m}_diff": t.diff if t else None, f"{m}_p": t.p if t else None,
                            f"{m}_p_adjusted": t.p_adjusted if t else None,
                            f"{m}_significant": t.significant if t else None})
        rows.append(row)
    table = pd.DataFrame(rows)
    for m in METRIC_COLUMNS:
        table[m] = table[m].astype("float64")
        if tests is not None:
            table[f"{m}_significant"] = table[f"{m}_significant"].astype("boolean")
    table.insert(table.columns.get_loc("differs") + 1, "rank",
                 combined_ranks(table["combined"], table["comparable"]))
    return table


def combined_ranks(combined: pd.Series, comparable: pd.Series) -> pd.Series:
    """The ``rank`` column: 1 = the highest Combined among the comparable rows, rows tied on
    Combined share the smaller rank and the next row's rank counts every row above it
    (competition ranking: 1, 1, 3); ``<NA>`` for rows not comparable or without Combined.

    >>> import pandas as pd
    >>> combined_ranks(pd.Series([95.0, 99.0, 95.0]), pd.Series([True] * 3)).tolist()
    [2, 1, 2]
    """
    ranked = combined.where(comparable)
    return ranked.rank(
        ascending=False,  # pragma: no mutate (equivalent: pandas reads ascending=None as False)
        method="min").astype("Int64")


def evaluate_many(evaluator: Any, systems: Mapping[str, Any], *, ci: bool = False,
                  paired_bs: bool = False, params: StatsParams | None = None,
                  forms: Mapping[str, Mapping[str, Any]] | None = None, strict: bool = False,
                  keep_going: bool = False, jobs: int | None = None,
                  per_dialogue: bool = False, shared: bool = False) -> Leaderboard:
    """Score every system of ``systems`` (``{row name: predictions mapping or file path}``,
    in table order; the first is the baseline) with ``evaluator``.

    Args:
        evaluator: the :class:`~mwzrepro.scorer.evaluator.Evaluator` (resources loaded once);
            a file path is read by :func:`~mwzrepro.scorer.prediction_file.read_predictions`.
        ci: intervals for every figure; paired_bs: tests against the baseline.
        params: resamples, seed, confidence, alpha, correction, p-value method, FGA λ
            (default: :class:`~mwzrepro.stats.params.StatsParams`'s defaults).
        forms: per-row file form (:func:`mwzrepro.scorer.lexicalized.file_form.parse_forms`).
        strict: rows that are not comparable are an error (and the evaluator's own
            ``strict`` makes partial coverage one).
        keep_going: a file that fails is listed in ``failures`` instead of stopping the call.
        jobs: worker processes (default: every core the process may use, or MWZREPRO_JOBS).
        per_dialogue: fill each result's per-dialogue rows.
        shared: score every file on the dialogues and turns all files give, with a loud
            warning (:mod:`mwzrepro.scorer.leaderboard.shared_coverage`), so that rows that
            differ only in coverage are comparable.

    Returns:
        :class:`Leaderboard`.

    Raises:
        InputError: no systems; a file that cannot be scored (one line naming it) unless
            ``keep_going``; every file failed; rows not comparable under ``strict``.
    """
    from mwzrepro.core.workers import fork_map
    from mwzrepro.scorer.leaderboard.comparability import comparability
    from mwzrepro.stats.params import StatsParams

    if not systems:
        raise InputError("no prediction files to score")
    params = params or StatsParams()
    with_stats = ci or paired_bs
    refs = None
    if with_stats:
        from mwzrepro.stats.bleu_stats import BleuReferences

        refs = BleuReferences(evaluator.resources.references)  # once, inherited by workers
    labels = {name: _label(source) for name, source in systems.items()}
    cover = None
    if shared:
        systems, cover = _shared_rows(systems)
        if cover.changed:
            log.warning("%s", cover.warning())
    items = [(name, source, (forms or {}).get(name), labels[name])
             for name, source in systems.items()]
    done = fork_map(lambda item: _score_item(evaluator, item, with_stats, params.fga_lambda,
                                             refs, per_dialogue),
                    items, jobs=jobs)
    failures = {name: out.error for (name, *_), out in zip(items, done)
                if out.error is not None}
    if failures and not keep_going:
        raise InputError(next(iter(failures.values())))
    ok = [(name, out) for (name, *_), out in zip(items, done) if out.error is None]
    if not ok:
        raise InputError(f"no file could be scored ({len(failures)} failed)")
    results = {name: out.result for name, out in ok}
    for name, out in ok:
        for w in [*out.notes, *out.result.warnings]:
            log.warning("%s", w)
    comp = comparability({n: r.signatures() for n, r in results.items()})
    if strict:
        comp.check_strict()
    reps = tests = None
    if with_stats:
        from mwzrepro.scorer.leaderboard.stats import paired_tests, replicate_rows

        reps = replicate_rows({name: out.stats for name, out in ok},
                              {n: r.combined for n, r in results.items()},
                              evaluator.resources.expected, params)
        if paired_bs:
            baseline = next(iter(results))
            rows = [n for n in results if comp.comparable[n]]
            tests = paired_tests(reps, baseline, rows, METRIC_COLUMNS, params) \
                if comp.comparable[baseline] else {}
    return Leaderboard(_table(results, comp, params, reps if ci else None, tests), results,
                       comp, failures, params, ci, paired_bs, evaluator.version,
                       len(evaluator.resources.expected), cover)
