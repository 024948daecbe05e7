"""One metric family of one version resampled on its own.

The headline figures come from three scorers (:attr:`MetricSpec.source
<mwzrepro.stats.catalog.MetricSpec>`): BLEU (``bleu``), Inform/Success in both settings
(``success``) and JGA/FGA(λ) (``dst``). Each family's per-dialogue statistics are loaded from
that scorer's files only (:func:`load_family`) and resampled on the version's shared resamples
(:class:`~mwzrepro.stats.bootstrap.Resampler`: the draw depends on the test dialogues, ``B`` and
the seed, not on the family). ``stats-resample`` writes the result as a ``stats_replicates``
table (:func:`write_replicates`); ``stats-bootstrap`` reads every family's table
(:func:`read_replicates`) and assembles the tables, heat maps and metrics. A change that
touches one scorer's files (``inform.fuzzy_threshold``: Inform/Success only) reruns that
family's resampling and the assembly, not the other families'.
One ``stats-resample`` process resamples its family on every version (each version with its
own resamples and files): the versions share its start-up and its workers.

The figures on each resample are stored as float64 (NaN where a resample misses the system)
and the full-sample figure and signatures in the file's metadata (JSON, ``repr`` floats), so
the assembled outputs are byte-identical to resampling every family in one process.

Addendum to ``stats-bootstrap`` (:mod:`mwzrepro.stats.bootstrap`): rule, split by
``source``; why, an Inform/Success change must not resample BLEU, JGA and FGA; signature
fields: unchanged (the intervals' signatures are built from the same upstream signatures and
``stats`` params).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from mwzrepro.core.errors import InputError
from mwzrepro.core.io import read_metadata, read_table, write_table
from mwzrepro.stats.bootstrap import Replicates, Resampler, percentile_interval
from mwzrepro.stats.catalog import METRICS
from mwzrepro.stats.params import StatsParams
from mwzrepro.stats.units import DialogueStats, dst_stats, success_stats

__all__ = ["FAMILIES", "load_family", "family_replicates", "write_replicates",
           "read_replicates"]

#: The metric families, in :data:`~mwzrepro.stats.catalog.METRICS` order of first figure.
FAMILIES: tuple[str, ...] = tuple(dict.fromkeys(m.source for m in METRICS))

Stats = dict[str, list[DialogueStats]]
Sigs = dict[str, list[str]]


def _bleu(references: pd.DataFrame, predictions_dir: Path, bleu_dir: Path,
          systems: Sequence[str], log: logging.Logger) -> tuple[Stats, Sigs]:
    from mwzrepro.stats.bleu_stats import BleuReferences

    bleu_refs = BleuReferences(references)
    stats: Stats = {"bleu": []}
    sigs: Sigs = {"bleu": []}
    for system in systems:
        score_file = bleu_dir / f"{system}.parquet"
        scores = read_table(score_file, "scores")
        row = scores[scores["metric"] == "bleu"].iloc[0]
        b = bleu_refs.stats(read_table(predictions_dir / f"{system}.parquet", "predictions"),
                            system, str(row["signature"]))
        if b.point != float(row["value"]):
            raise InputError(f"{score_file}: BLEU {row['value']!r} differs from the "
                             f"predictions' {b.point!r}; rescore (stale input?)")
        stats["bleu"].append(b)
        sigs["bleu"].append(b.signature)
        log.info("stats %s: BLEU %.2f", system, b.point)
    return stats, sigs


def _success(success_dir: Path, systems: Sequence[str]) -> tuple[Stats, Sigs]:
    keys = [m for m in METRICS if m.source == "success"]
    stats: Stats = {m.key: [] for m in keys}
    sigs: Sigs = {m.key: [] for m in keys}
    for system in systems:
        dial_file = success_dir / f"{system}.dialogues.parquet"
        table = read_table(dial_file, "success_dialogues")
        meta = read_metadata(dial_file).get("signatures", {})
        totals = table[table["domain"] == "total"]  # the rows success_stats reads
        for m in keys:
            sig = meta.get(f"{m.metric}/{m.setting}", "")
            stats[m.key].append(success_stats(totals, m.setting, m.metric, system, sig))
            sigs[m.key].append(sig)
    return stats, sigs


def _dst(dst_dir: Path, systems: Sequence[str], params: StatsParams,
         log: logging.Logger) -> tuple[Stats, Sigs]:
    stats: Stats = {"jga": [], "fga": []}
    sigs: Sigs = {"jga": [], "fga": []}
    for system in systems:
        dst_file = dst_dir / f"{system}.parquet"
        turns = read_table(dst_file, "dst_turns")
        if turns.empty:
            continue
        info = read_metadata(dst_file).get("dst", {})
        for key in ("jga", "fga"):
            s = dst_stats(turns, key, system, params.fga_lambda, info.get("signature", ""))
            expected = info.get("scores", {}).get("jga") if key == "jga" else \
                info.get("scores", {}).get("fga", {}).get(repr(float(params.fga_lambda)))
            if expected is not None and s.point != 100 * expected:
                raise InputError(f"{dst_file}: {key} {expected!r} differs from the turns' "
                                 f"{s.point / 100!r}")
            stats[key].append(s)
            sigs[key].append(s.signature)
        log.info("stats %s: %d DST turns", system, len(turns))
    return stats, sigs


def load_family(family: str, systems: Sequence[str], params: StatsParams, *,
                references: pd.DataFrame, predictions_dir: Path | None = None,
                bleu_dir: Path | None = None, success_dir: Path | None = None,
                dst_dir: Path | None = None,
                log: logging.Logger | None = None) -> tuple[Stats, Sigs]:
    """Per-dialogue statistics of one family's figures for every system (in the given order):
    ``({figure key: [DialogueStats]}, {figure key: [upstream signature]})``.

    ``bleu`` reads ``<predictions_dir>/<system>.parquet`` and ``<bleu_dir>/<system>.parquet``
    (and checks the corpus BLEU against the scorer's), ``success`` reads
    ``<success_dir>/<system>.dialogues.parquet``, ``dst`` reads ``<dst_dir>/<system>.parquet``
    (a system without predicted states is left out; JGA/FGA checked against the scorer's).

    Raises:
        InputError: unknown family, a directory the family needs is missing, or a figure
            differs from the scorer's own (a stale input).
    """
    log = log or logging.getLogger("mwzrepro")
    need = {"bleu": (predictions_dir, bleu_dir), "success": (success_dir,),
            "dst": (dst_dir,)}
    if family not in need:
        raise InputError(f"unknown metric family {family!r}; known: {', '.join(FAMILIES)}")
    if any(d is None for d in need[family]):
        raise InputError(f"family {family}: its score directories are required")
    if family == "bleu":
        return _bleu(references, predictions_dir, bleu_dir, systems, log)  # type: ignore[arg-type]
    if family == "success":
        return _success(success_dir, systems)  # type: ignore[arg-type]
    return _dst(dst_dir, systems, params, log)  # type: ignore[arg-type]


def family_replicates(stats: Mapping[str, Sequence[DialogueStats]], resampler: Resampler,
                      confidence: float) -> dict[str, dict[str, Replicates]]:
    """``{figure key: {system: Replicates}}`` of every figure with at least one system."""
    return {key: resampler.replicate_all(items, confidence)
            for key, items in stats.items() if items}


def write_replicates(path: Path, version: str, family: str,
                     results: Mapping[str, Mapping[str, Replicates]], sigs: Sigs,
                     dialogues: int) -> None:
    """Write one family's replicates as a ``stats_replicates`` table: one row per (figure,
    system, resample); full-sample figures, signatures and the number of test dialogues in
    the metadata."""
    rows = []
    meta: dict[str, dict] = {}
    for key, reps in results.items():
        meta[key] = {"signatures": list(sigs.get(key, [])), "systems": {}}
        for system, rep in reps.items():
            meta[key]["systems"][system] = rep.interval.point
            rows.append(pd.DataFrame({"figure": key, "system": system,
                                      "resample": np.arange(len(rep.values), dtype=np.int32),
                                      "value": np.asarray(rep.values, dtype=np.float64)}))
    frame = pd.concat(rows, ignore_index=True) if rows else pd.DataFrame(
        {"figure": [], "system": [], "resample": np.array([], dtype=np.int32),
         "value": np.array([], dtype=np.float64)})
    write_table(frame, path, "stats_replicates",
                {"version": version, "family": family, "dialogues": dialogues,
                 "figures": meta})


def read_replicates(paths: Sequence[Path], version: str, confidence: float
                    ) -> tuple[dict[str, dict[str, Replicates]], Sigs, int]:
    """Every family's replicates of ``version``: ``({figure key: {system: Replicates}},
    {figure key: [upstream signature]}, test dialogues)``, figures in
    :data:`~mwzrepro.stats.catalog.METRICS` order, systems in the order written.

    Raises:
        InputError: a file of another version, two files for one figure, or files that
            disagree on the test set.
    """
    results: dict[str, dict[str, Replicates]] = {}
    sigs: Sigs = {}
    dialogues: set[int] = set()
    for path in paths:
        meta = read_metadata(path)
        if meta.get("version") != version:
            raise InputError(f"{path}: replicates of {meta.get('version')!r}, not {version}")
        dialogues.add(int(meta["dialogues"]))
        table = read_table(path, "stats_replicates")
        groups = {k: g["value"].to_numpy(dtype=np.float64)
                  for k, g in table.groupby(["figure", "system"], sort=False)}
        for key, fig in meta["figures"].items():
            if key in results:
                raise InputError(f"{path}: figure {key} given twice")
            sigs[key] = list(fig["signatures"])
            results[key] = {}
            for system, point in fig["systems"].items():
                values = groups[(key, system)]
                results[key][system] = Replicates(
                    None, values, percentile_interval(values, point, confidence))
    if len(dialogues) > 1:
        raise InputError(f"replicates of {version} over different test sets: {sorted(dialogues)}")
    order = [m.key for m in METRICS if m.key in results]
    return {k: results[k] for k in order}, sigs, dialogues.pop() if dialogues else 0
