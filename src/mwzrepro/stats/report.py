"""Assemble the stats area's outputs from per-dialogue statistics or earlier stats outputs:
:func:`version_report` (intervals, pairwise and adjacent significance of one version) and
:func:`ranking_report` (ranking stability across conditions). The CLI only writes what these
return.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import pandas as pd

from mwzrepro.core.signature import Signature, check_compatible
from mwzrepro.stats.bootstrap import Replicates, interval_signature
from mwzrepro.stats.catalog import METRICS, RANKED_METRICS, spec
from mwzrepro.stats.params import StatsParams
from mwzrepro.stats.ranking import RankComparison, compare_rankings, rank_spread
from mwzrepro.stats.significance import (
    PairTest,
    adjacent_tests,
    pairwise_tests,
    ranking_order,
)
from mwzrepro.stats.tables import (
    adjacent_counts,
    adjacent_table,
    ci_table,
    pairs_frame,
    ranks_frame,
    significance_matrix,
    significance_notes,
    tau_table,
)

__all__ = ["Sheet", "VersionReport", "version_report", "significance_sheets", "RankingReport",
           "ranking_report", "test_signature"]


@dataclass(frozen=True)
class Sheet:
    """One figure's pairwise significance: matrix table, its title and notes, the tests and
    the system order (best first) for the heat map."""

    table: pd.DataFrame
    title: str
    notes: list[str]
    tests: list[PairTest]
    order: list[str]


@dataclass(frozen=True)
class VersionReport:
    """Everything ``stats-bootstrap`` writes for one version."""

    ci: pd.DataFrame
    ci_title: str
    ci_notes: list[str]
    adjacent: pd.DataFrame
    adjacent_title: str
    adjacent_notes: list[str]
    adjacent_counts: dict[str, tuple[int, int]]
    pairs: pd.DataFrame
    metrics: dict


def test_signature(label: str, upstream: str, params: StatsParams,
                   vary: Sequence[str] = ("system",)) -> str:
    """Signature of significance tests: the scorer's signature without ``vary``, named
    ``<label>-sig``, plus :meth:`StatsParams.test_fields`."""
    fields: dict[str, object] = {}
    if upstream:
        fields.update(Signature.parse(upstream).without(vary).fields)
    fields.update(params.test_fields())
    return Signature(f"{label}-sig", fields).format()


def _figure_meta(version: str, results: Mapping[str, Mapping[str, Replicates]],
                 signatures: Mapping[str, Sequence[str]], params: StatsParams) -> dict[str, dict]:
    """Metric, condition, title and interval/test signatures of every figure of ``results``
    (raises SignatureMismatch when its systems were scored with different settings)."""
    meta: dict[str, dict] = {}
    for m in METRICS:
        if m.key not in results:
            continue
        sigs = [s for s in signatures.get(m.key, []) if s]
        if sigs:
            check_compatible(sigs, vary=m.vary, where=f"{version} {m.key}")
        upstream = sigs[0] if sigs else ""
        label = m.title(params.fga_lambda)
        name = f"FGA({params.fga_lambda:g})" if m.metric == "fga" else RANKED_METRICS[m.metric]
        meta[m.key] = {"metric": m.metric, "condition": m.condition(version), "title": label,
                       "signature": interval_signature(name, upstream, params, m.vary),
                       "test_signature": test_signature(name, upstream, params, m.vary)}
    return meta


def significance_sheets(version: str, results: Mapping[str, Mapping[str, Replicates]],
                        signatures: Mapping[str, Sequence[str]], params: StatsParams,
                        keys: Sequence[str]) -> dict[str, Sheet]:
    """The pairwise significance sheet of each figure of ``keys`` (what ``stats-resample``
    writes for its metric family), in :data:`~mwzrepro.stats.catalog.METRICS` order; an
    empty sheet where no system has the figure, so the set of files written never depends
    on the data. Other arguments as :func:`version_report`.

    Raises:
        mwzrepro.core.signature.SignatureMismatch: systems scored with different settings.
    """
    results = {k: results[k] for k in keys if results.get(k)}
    meta = _figure_meta(version, results, signatures, params)
    sheets = {}
    for m in METRICS:
        k = m.key
        if k not in keys:
            continue
        if k not in results:
            title = f"Pairwise significance of {m.title(params.fga_lambda)} on {version}"
            sheets[k] = Sheet(pd.DataFrame({"system": []}), title,
                              ["No system has this figure."], [], [])
            continue
        tests = pairwise_tests(k, results[k], params)
        order = ranking_order(results[k])
        title = f"Pairwise significance of {meta[k]['title']} on {version} (row − column)"
        notes = significance_notes(params, f"the {len(tests)} pairs") + [
            f"signature: {meta[k]['test_signature']}"]
        sheets[k] = Sheet(significance_matrix(tests, order, spec(k).decimals), title, notes,
                          tests, order)
    return sheets


def version_report(version: str, results: Mapping[str, Mapping[str, Replicates]],
                   signatures: Mapping[str, Sequence[str]], dialogues: int,
                   params: StatsParams) -> VersionReport:
    """Intervals and significance of every figure of one version (the pairwise significance
    sheets are :func:`significance_sheets`', written by ``stats-resample``).

    Args:
        version: dataset version (``mwz21``).
        results: ``{figure key: {system: Replicates}}`` on the version's shared resamples
            (same B and seed as ``params``; :func:`mwzrepro.stats.family.family_replicates`),
            keys of :data:`mwzrepro.stats.catalog.METRICS` (a key with no system left out).
        signatures: the scorers' signatures, ``{figure key: [signature of each system]}``;
            they must agree except on the figure's ``vary`` fields.
        dialogues: number of test dialogues (the resampling unit).
        params: the ``stats`` block.

    Raises:
        mwzrepro.core.signature.SignatureMismatch: systems scored with different settings.
    """
    results = {m.key: results[m.key] for m in METRICS if results.get(m.key)}
    meta = _figure_meta(version, results, signatures, params)
    tests = {k: pairwise_tests(k, reps, params) for k, reps in results.items()}
    steps = {k: adjacent_tests(k, reps, params) for k, reps in results.items()}
    counts = adjacent_counts(steps)
    figures = {}
    for k, reps in results.items():
        sig_pairs = sum(t.significant for t in tests[k])
        figures[k] = {**meta[k],
                      "systems": {s: reps[s].interval.as_dict() for s in sorted(reps)},
                      "pairs": {"tests": len(tests[k]), "significant": sig_pairs},
                      "adjacent": {"tests": counts[k][1], "significant": counts[k][0],
                                   "steps": [t.as_dict() for t in steps[k]]}}
    metrics = {"version": version, "dialogues": dialogues,
               "params": params.model_dump(), "figures": figures}
    ci_notes = [f"{params.confidence:.0%} percentile intervals, paired bootstrap over the "
                f"{dialogues} test dialogues ({params.resamples} resamples, "
                f"seed {params.seed}); ± is half the interval width; bounds in the metrics "
                "JSON. Dialogues a system does not cover are drawn but count for nothing."]
    ci_notes += [f"{meta[k]['title']}: {meta[k]['signature']}" for k in results]
    adj_notes = significance_notes(params, "the adjacent steps of each ranking")
    adj_notes += [f"{meta[k]['title']}: {counts[k][0]} of {counts[k][1]} adjacent steps "
                  "significant" for k in results]
    return VersionReport(
        ci=ci_table(results, params), ci_title=f"Scores with {params.confidence:.0%} "
        f"bootstrap confidence intervals ({version} test)", ci_notes=ci_notes,
        adjacent=adjacent_table(steps, results, params),
        adjacent_title=f"Which steps of each ranking are significant ({version} test)",
        adjacent_notes=adj_notes, adjacent_counts=counts, pairs=pairs_frame(tests),
        metrics=metrics)


@dataclass(frozen=True)
class RankingReport:
    """Everything ``stats-ranking`` writes."""

    conditions: dict[str, dict[str, dict[str, float]]]
    bump: dict[str, dict[str, dict[str, float]]]
    comparisons: list[RankComparison]
    tau: pd.DataFrame
    tau_title: str
    tau_notes: list[str]
    ranks: pd.DataFrame
    ranks_title: str
    ranks_notes: list[str]
    bump_titles: dict[str, str]
    metrics: dict = field(default_factory=dict)


#: Metric → which pairs of its conditions τ compares (``<version> <preset>``: one version).
SAME_VERSION = {"dst-presets": lambda a, b: a.split()[0] == b.split()[0]}


def _published(board: Mapping, key: str) -> dict[str, float]:
    return {s: float(v[key]) for s, v in board.get("systems", {}).items()
            if v.get(key) is not None}


def ranking_conditions(versions: Sequence[Mapping], corrected: Mapping | None,
                       board: Mapping | None, params: StatsParams,
                       styles: Mapping | None = None, presets: Mapping | None = None
                       ) -> dict[str, dict[str, dict[str, float]]]:
    """``{metric: {condition: {system: figure}}}`` from stats-bootstrap metrics JSON of each
    version (in order), the DST scores against corrected gold states (consistency_dst.json:
    ``systems.<s>.corrected.{jga, fga}``, fractions), the published leaderboard
    (``systems.<s>.{bleu, inform, success, inform_optimistic, success_optimistic}``) and
    the BLEU of every reference style (bleu_styles.json: ``bleu_styles.<style>.<system>``,
    0-100; metric ``bleu-styles``, condition ``ref:<style>``) and the JGA of every DST
    scoring preset (dst_conventions.json: ``presets.<version>.<preset>.<system>.jga``, a
    fraction; metric ``dst-presets``, condition ``<version> <preset>``, spec-dst-metrics §12.9).

    >>> conds = ranking_conditions([], None, None, StatsParams(),
    ...     {"bleu_styles": {"span": {"a": 17.1, "b": 16.0}, "hdsa": {"a": 15.0, "b": 15.5}}})
    >>> conds
    {'bleu-styles': {'ref:span': {'a': 17.1, 'b': 16.0}, 'ref:hdsa': {'a': 15.0, 'b': 15.5}}}
    """
    out: dict[str, dict[str, dict[str, float]]] = {m: {} for m in RANKED_METRICS}
    for doc in versions:
        for key, fig in doc.get("figures", {}).items():
            out[fig["metric"]][fig["condition"]] = {
                s: float(v["point"]) for s, v in fig["systems"].items()}
    if corrected:
        cond = f"{corrected.get('version', '')} corrected".strip()
        lam = repr(float(params.fga_lambda))
        jga, fga = {}, {}
        for s, v in corrected.get("systems", {}).items():
            c = v.get("corrected") or {}
            if c.get("jga") is not None:
                jga[s] = 100 * float(c["jga"])
            if (c.get("fga") or {}).get(lam) is not None:
                fga[s] = 100 * float(c["fga"][lam])
        if jga:
            out["jga"][cond] = jga
        if fga:
            out["fga"][cond] = fga
    if board:
        for metric in ("bleu", "inform", "success"):
            vals = _published(board, metric)
            if vals:
                out[metric]["leaderboard 2.2"] = vals
            opt = _published(board, f"{metric}_optimistic")
            if opt:
                out[metric]["paper 2.2 optimistic"] = opt
    for style, values in ((styles or {}).get("bleu_styles") or {}).items():
        out["bleu-styles"][f"ref:{style}"] = {s: float(v) for s, v in values.items()}
    for version, by_preset in ((presets or {}).get("presets") or {}).items():
        for name, values in by_preset.items():
            out["dst-presets"][f"{version} {name}"] = {
                s: 100 * float(v["jga"]) for s, v in values.items()}
    return {m: c for m, c in out.items() if c}


def _json_safe(record: dict) -> dict:
    """NaN (an undefined τ) as null, so the metrics JSON stays valid JSON."""
    return {k: None if isinstance(v, float) and v != v else v for k, v in record.items()}


def ranking_report(versions: Sequence[Mapping], corrected: Mapping | None,
                   board: Mapping | None, params: StatsParams,
                   styles: Mapping | None = None, presets: Mapping | None = None
                   ) -> RankingReport:
    """Kendall's τ-b between every pair of conditions of every metric, ranks, bump charts'
    data and titles, and the metrics JSON (see :func:`ranking_conditions` for the inputs).

    Bump charts and the rank-range summary use only the conditions that score all of the
    metric's systems (ranks among fewer systems are not comparable); τ-b uses every pair on
    its common systems (the DST presets only within one version). ``bump`` has an entry for
    every metric of :data:`~mwzrepro.stats.catalog.RANKED_METRICS` (empty where no condition
    scores it)."""
    conditions = ranking_conditions(versions, corrected, board, params, styles, presets)
    comparisons = [c for metric, conds in conditions.items()
                   for c in compare_rankings(metric, conds, SAME_VERSION.get(metric))]
    spread, bump = {}, {}
    for metric, conds in conditions.items():
        full = max(len(v) for v in conds.values())
        same = {c: v for c, v in conds.items() if len(v) == full}
        bump[metric] = same
        s = rank_spread(same)
        top = max(s.values(), default=0.0)
        spread[metric] = {"conditions": list(same), "max_spread": top,
                          "systems": sorted(k for k, v in s.items() if v == top and top > 0)}
    notes = ["Kendall's tau-b between the figures of the systems both conditions score "
             "(ties averaged); largest move = the largest rank change among those systems."]
    notes += [f"{RANKED_METRICS[m]}: widest rank range over {', '.join(v['conditions'])}: "
              f"{v['max_spread']:g} ({', '.join(v['systems']) or 'none'})"
              for m, v in spread.items()]
    for metric in RANKED_METRICS:
        bump.setdefault(metric, {})
    titles = {m: f"Rank of each system under each condition: {RANKED_METRICS[m]}"
              for m in RANKED_METRICS}
    if "fga" in titles:
        titles["fga"] = f"Rank of each system under each condition: FGA({params.fga_lambda:g})"
    tau = {m: {f"{c.a} vs {c.b}": None if c.tau != c.tau else c.tau
               for c in comparisons if c.metric == m}
           for m in conditions}  # a DVC metric each (a list is not diffed)
    metrics = {"params": {"fga_lambda": params.fga_lambda}, "tau": tau,
               "conditions": {m: list(c) for m, c in conditions.items()},
               "comparisons": [_json_safe(c.as_dict()) for c in comparisons], "spread": spread}
    return RankingReport(
        conditions=conditions, bump=bump, comparisons=comparisons, tau=tau_table(comparisons),
        tau_title="Ranking stability: Kendall's tau-b between conditions", tau_notes=notes,
        ranks=ranks_frame(conditions), ranks_title="Rank of each system under each condition",
        ranks_notes=["1 = highest figure; ties share the average rank; – = not scored."],
        bump_titles=titles, metrics=metrics)
