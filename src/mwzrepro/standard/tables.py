"""Assembly of the standard evaluation's tables from ``scores`` rows (the paper's Table 5 and
Table 6 shapes), with the ``results/metrics/standard.json`` summary
(:mod:`mwzrepro.standard.metrics_summary`) and the plot data of Inform/Success.

Every column is checked with :func:`mwzrepro.core.signature.check_compatible`: numbers with
different settings never share a column. Allowed to vary within a column: the system, and for
Inform/Success the state source and active-domain source, which are shown as columns of their
own (``states``, ``domains``).

Published numbers come from ``workflow/resources/published/leaderboard.yaml`` (structure:
``{"reference_corpus": {...}, "systems": {system: {"model", "type", "inform", "success",
"inform_optimistic", "success_optimistic", "av_len", "cbe", "uniq_words", "uniq_trigrams",
...}}}``; spec-standard-evaluation §17.1 and §17.4).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

from mwzrepro.core.signature import check_compatible, table_signature
from mwzrepro.core.tables import TableSpec
from mwzrepro.standard.combined_score import COMBINED_FORMULA, combined_score
from mwzrepro.standard.metrics_summary import metrics_summary
from mwzrepro.standard.score_lookup import score_signature, score_value, signature_field

__all__ = [
    "StandardTables",
    "standard_tables",
    "inform_success_table",
    "richness_table",
    "state_match_table",
    "RICHNESS_ROWS",
]

#: Table 6 rows: (label, richness key, published key or None).
RICHNESS_ROWS = (
    ("Av. len.", "avg_lengths", "av_len"),
    ("CBE", "cond_entropy", "cbe"),
    ("Entropy", "entropy", None),
    ("MSTTR-50", "msttr", None),
    ("#uniq. words", "num_unigrams", "uniq_words"),
    ("#uniq. bigrams", "num_bigrams", None),
    ("#uniq. 3-grams", "num_trigrams", "uniq_trigrams"),
)

_ORACLE = "oracle"


def inform_success_table(
    scores: Mapping[str, Mapping[str, pd.DataFrame]], published: Mapping[str, Any],
    bleu: Mapping[str, Mapping[str, float]] | None = None,
) -> tuple[pd.DataFrame, list[str]]:
    """Table 5 shape: one block of rows per dataset version.

    Args:
        scores: ``{version: {system: scores rows of score-success}}``; the system ``oracle``
            (the reference corpus) becomes the last row of its version's block.
        published: the parsed leaderboard file (module docstring).
        bleu: ``{version: {system: BLEU}}`` (the ``score-bleu`` figures): adds the column
            Combined after Success (:mod:`mwzrepro.standard.combined_score`; None for a
            system without BLEU, the oracle).

    Returns:
        ``(table, notes)``: columns version, system, model, type, states, domains, Inform,
        Success, [Combined,] Inform opt., Success opt. (ours, percent), Inform/Success published (2.2)
        (leaderboard, standard setting on MultiWOZ 2.2), Inform/Success opt. paper (2.2)
        (paper Table 5), dialogues scored; notes carry one signature per (version, setting).

    Raises:
        mwzrepro.core.signature.SignatureMismatch: numbers with different settings in one
            column of a version's block (only system, state source and domain source may
            differ; they are shown as columns).
    """
    pub_sys = published.get("systems", {})
    rows = []
    notes = []
    for version, per_system in scores.items():
        sig_cols: dict[str, list[str]] = {"standard": [], "optimistic": []}
        ordered = [s for s in per_system if s != _ORACLE] + (
            [_ORACLE] if _ORACLE in per_system else [])
        for system in ordered:
            sc = per_system[system]
            oracle = system == _ORACLE
            p = published.get("reference_corpus", {}) if oracle else pub_sys.get(system, {})
            std = score_signature(sc, "inform", "standard")
            opt = score_signature(sc, "inform", "optimistic")
            for setting, sig in (("standard", std), ("optimistic", opt)):
                if sig:
                    sig_cols[setting].append(sig)
            dialogues = score_value(sc, "dialogues", "", "scored")
            rows.append({
                "version": version,
                "system": "reference corpus (oracle)" if oracle else system,
                "model": p.get("model", "gold responses" if oracle else "–"),
                "type": p.get("type", "corpus" if oracle else "–"),
                "states": signature_field(std, "state"),
                "domains": signature_field(std, "dom"),
                "Inform": score_value(sc, "inform", "standard"),
                "Success": score_value(sc, "success", "standard"),
                **({} if bleu is None else {"Combined": combined_score(
                    score_value(sc, "inform", "standard"), score_value(sc, "success", "standard"),
                    bleu.get(version, {}).get(system))}),
                "Inform opt.": score_value(sc, "inform", "optimistic"),
                "Success opt.": score_value(sc, "success", "optimistic"),
                "Inform published (2.2)": _num(p.get("inform")),
                "Success published (2.2)": _num(p.get("success")),
                "Inform opt. paper (2.2)": _num(p.get("inform_optimistic")),
                "Success opt. paper (2.2)": _num(p.get("success_optimistic")),
                "dialogues": None if dialogues is None else int(dialogues),
            })
        for setting, sigs in sig_cols.items():
            if sigs:
                check_compatible(sigs, vary=("system", "state", "dom"),
                                 where=f"Inform/Success {setting} column ({version})")
                notes.append(f"{version} {setting}: "
                             f"{table_signature(sigs, per_row=('state', 'dom'))}")
    notes += [
        "Ours: each version's test goals, booked domains and (for systems without states) "
        "gold states; responses normalized as the reference evaluator does. 'states': "
        "predicted (the system's own) or gold; 'domains': active-domain source of the "
        "standard setting (the optimistic one always uses ground-truth turn domains).",
        "Optimistic (paper Section 5.1): offered and goal venues intersect, search by name/"
        "train id alone when given, ground-truth turn domains (DAMD heuristic).",
        "'published (2.2)': MultiWOZ leaderboard (reference evaluator on MultiWOZ 2.2 "
        "references and gold states); 'paper (2.2)': optimistic values of the paper's Table 5.",
    ]
    if bleu is not None:
        notes.append(f"{COMBINED_FORMULA} (Mehri et al. 2019; the MultiWOZ leaderboard's "
                     "combined score): standard-setting Inform and Success above, BLEU of the "
                     "same version (span references, results/scores/bleu).")
    return pd.DataFrame(rows), notes


def state_match_table(
    scores: Mapping[str, Mapping[str, pd.DataFrame]],
) -> tuple[pd.DataFrame, list[str]]:
    """The reference evaluator's state metrics (spec §13) of every system scored with its own
    states: rows (version, system); joint accuracy and slot F1 in percent, slot precision and
    recall as fractions (as the evaluator reports them).

    Raises:
        mwzrepro.core.signature.SignatureMismatch: different settings within a version.
    """
    rows, notes = [], []
    for version, per_system in scores.items():
        sigs = []
        for system, sc in per_system.items():
            sig = score_signature(sc, "joint_accuracy", "")
            if not sig:
                continue
            sigs.append(sig)
            rows.append({"version": version, "system": system,
                         "joint accuracy": score_value(sc, "joint_accuracy", ""),
                         "slot F1": score_value(sc, "slot_f1", ""),
                         "slot precision": score_value(sc, "slot_precision", ""),
                         "slot recall": score_value(sc, "slot_recall", "")})
        if sigs:
            check_compatible(sigs, vary=("system",), where=f"state metrics ({version})")
            notes.append(f"{version}: {table_signature(sigs)}")
    notes.append("Gold states: the version's test annotation, dontcare slots dropped; a value "
                 "matches when partial_ratio(predicted, gold) > 95. Precision and recall are "
                 "fractions, F1 and joint accuracy percentages (as in the reference evaluator).")
    return pd.DataFrame(rows, columns=["version", "system", "joint accuracy", "slot F1",
                                       "slot precision", "slot recall"]), notes


def _num(x: Any) -> float | None:
    return None if x is None else float(x)


def richness_table(
    systems: Mapping[str, pd.DataFrame], references: Mapping[str, pd.DataFrame],
    published: Mapping[str, Any],
) -> tuple[pd.DataFrame, list[str]]:
    """Table 6 shape: one row per richness metric (plus the published leaderboard values of
    the four reported ones), one column per system (system outputs do not depend on the
    dataset version) and one per version's reference corpus.

    Args:
        systems: ``{system: scores rows of score-richness}``.
        references: ``{version: scores rows of score-richness --references}``.
        published: the parsed leaderboard file.

    Raises:
        mwzrepro.core.signature.SignatureMismatch: different settings across systems, or
            across the reference columns (other than the version).
    """
    sigs = [sc["signature"].iloc[0] for sc in systems.values()]
    check_compatible(sigs, vary=("system",), where="richness columns")
    ref_sigs = [sc["signature"].iloc[0] for sc in references.values()]
    check_compatible(ref_sigs, vary=("ver",), where="reference-corpus richness columns")
    ref_cols = {v: f"reference corpus ({v})" for v in references}
    pub_sys = published.get("systems", {})
    pub_ref = published.get("reference_corpus", {})
    rows: list[dict[str, Any]] = []

    def cell(sc: pd.DataFrame, key: str) -> Any:
        v = float(sc.loc[sc["key"] == key, "value"].iloc[0])
        return int(v) if key.startswith("num_") else v

    for label, key, _ in RICHNESS_ROWS:
        row: dict[str, Any] = {"metric": label}
        for system, sc in systems.items():
            row[system] = cell(sc, key)
        for v, sc in references.items():
            row[ref_cols[v]] = cell(sc, key)
        rows.append(row)
    for label, _, pkey in RICHNESS_ROWS:
        if pkey is None:
            continue
        row = {"metric": f"{label} published"}
        for system in systems:
            row[system] = _pub(pub_sys.get(system, {}).get(pkey), pkey)
        for v in references:
            row[ref_cols[v]] = _pub(pub_ref.get(pkey), pkey)
        rows.append(row)
    notes = [f"systems: {table_signature(sigs)}"] + [
        f"reference corpus: {table_signature([s])}" for s in ref_sigs] + [
        "Tokenizer of lexical-diversity 0.1.1 on normalized responses; MSTTR over 50-token "
        "segments in the prediction file's dialogue order; CBE = conditional bigram entropy "
        "(bits).",
        "'published': MultiWOZ leaderboard (its reference corpus: MultiWOZ 2.2 references).",
    ]
    return pd.DataFrame(rows, dtype=object), notes


def _pub(x: Any, key: str) -> Any:
    if x is None:
        return None
    return int(x) if key.startswith("uniq") else float(x)


def inform_success_plot(success: Mapping[str, Mapping[str, pd.DataFrame]]) -> pd.DataFrame:
    """Plot data of Inform/Success by setting: one row per (system, version) with columns
    system, version, row (``system@version``), inform_standard, success_standard,
    inform_optimistic, success_optimistic (percentages, one decimal as published)."""
    rows = []
    for version, per_sys in sorted(success.items()):
        for system, sc in sorted(per_sys.items()):
            row: dict[str, Any] = {"system": system, "version": version,
                                   "row": f"{system}@{version}"}
            for setting in ("standard", "optimistic"):
                for metric in ("inform", "success"):
                    row[f"{metric}_{setting}"] = (score_value(sc, metric, setting)
                                                  if score_signature(sc, metric, setting) else None)
            rows.append(row)
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class StandardTables:
    """Output of :func:`standard_tables`.

    Attributes:
        tables: ``{file stem: TableSpec}`` for ``inform_success``, ``richness`` and
            ``state_match``.
        metrics: the ``standard.json`` payload
            (:func:`~mwzrepro.standard.metrics_summary.metrics_summary`).
        plot: :func:`inform_success_plot` rows.
    """

    tables: dict[str, TableSpec]
    metrics: dict[str, Any]
    plot: pd.DataFrame


def standard_tables(
    success: Mapping[str, Mapping[str, pd.DataFrame]],
    richness: Mapping[str, pd.DataFrame],
    reference_richness: Mapping[str, pd.DataFrame],
    published: Mapping[str, Any],
    bleu: Mapping[str, Mapping[str, float]] | None = None,
) -> StandardTables:
    """Every output of the ``tables-standard`` phase, built before anything is written.

    Args:
        success: ``{version: {system: scores}}`` (``oracle`` included).
        richness: ``{system: richness scores}``.
        reference_richness: ``{version: richness scores of the reference corpus}``.
        published: the parsed ``leaderboard.yaml``.
        bleu: ``{version: {system: BLEU}}``: the Combined column and figures.

    Raises:
        SignatureMismatch: numbers with different settings would share a column.
    """
    df, notes = inform_success_table(success, published, bleu)
    tables = {"inform_success": TableSpec(
        df, "Inform and Success per test set version (Table 5 shape)", 1, notes)}
    df, notes = richness_table(richness, reference_richness, published)
    tables["richness"] = TableSpec(
        df, "Lexical richness of system outputs and of the reference corpora (Table 6 shape)",
        2, notes)
    df, notes = state_match_table(success)
    tables["state_match"] = TableSpec(
        df, "State metrics of the reference evaluator for systems with predicted states",
        {"joint accuracy": 2, "slot F1": 2, "slot precision": 4, "slot recall": 4}, notes)
    return StandardTables(tables, metrics_summary(success, richness, reference_richness,
                                                  bleu), inform_success_plot(success))
