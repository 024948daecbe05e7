"""The ``results/metrics/standard.json`` summary of the standard evaluation
(:func:`metrics_summary`): the numbers of its tables (:mod:`mwzrepro.standard.tables`) as one
JSON payload, with one signature per column.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from mwzrepro.core.signature import table_signature
from mwzrepro.standard.combined_score import combined_score
from mwzrepro.standard.score_lookup import score_signature, score_value, signature_field

__all__ = ["metrics_summary"]


def metrics_summary(
    success: Mapping[str, Mapping[str, pd.DataFrame]],
    richness: Mapping[str, pd.DataFrame],
    reference_richness: Mapping[str, pd.DataFrame],
    bleu: Mapping[str, Mapping[str, float]] | None = None,
) -> dict[str, Any]:
    """The ``results/metrics/standard.json`` payload: total Inform/Success per (version,
    system, setting) and, with ``bleu``, the standard setting's ``combined``, §13 state
    metrics, richness per system and per reference corpus, and the signatures (one per
    column, as its table note gives it: no system; a field that differs between the systems,
    state or dom, reads ``<row>``, each system's own value being under ``states`` and
    ``domains``)."""
    out: dict[str, Any] = {"inform_success": {}, "state_match": {}, "richness": {},
                           "reference_richness": {}, "signatures": {}}
    for version, per_sys in success.items():
        out["inform_success"][version] = {}
        sm: dict[str, Any] = {}
        for system, sc in per_sys.items():
            entry: dict[str, Any] = {
                "states": signature_field(score_signature(sc, "inform", "standard"), "state"),
                "domains": signature_field(score_signature(sc, "inform", "standard"), "dom"),
            }
            for setting in ("standard", "optimistic"):
                if score_signature(sc, "inform", setting):
                    entry[setting] = {"inform": score_value(sc, "inform", setting),
                                      "success": score_value(sc, "success", setting)}
                    b = (bleu or {}).get(version, {}).get(system)
                    if setting == "standard" and b is not None:
                        entry[setting]["combined"] = combined_score(
                            entry[setting]["inform"], entry[setting]["success"], b)
                    out["signatures"].setdefault(f"inform_success/{version}/{setting}",
                                                 []).append(score_signature(sc, "inform", setting))
            out["inform_success"][version][system] = entry
            if score_signature(sc, "joint_accuracy", ""):
                sm[system] = {k: score_value(sc, k, "") for k in
                              ("joint_accuracy", "slot_f1", "slot_precision", "slot_recall")}
                out["signatures"].setdefault(f"state_match/{version}",
                                             []).append(score_signature(sc, "joint_accuracy", ""))
        out["state_match"][version] = sm
    for system, sc in richness.items():
        out["richness"][system] = _richness_dict(sc)
        out["signatures"].setdefault("richness", []).append(sc["signature"].iloc[0])
    for version, sc in reference_richness.items():
        out["reference_richness"][version] = _richness_dict(sc)
        out["signatures"][f"reference_richness/{version}"] = [sc["signature"].iloc[0]]
    out["signatures"] = {k: table_signature(v, per_row=("state", "dom"))
                         for k, v in out["signatures"].items()}
    return out


def _richness_dict(sc: pd.DataFrame) -> dict[str, Any]:
    return {k: (int(v) if k.startswith("num_") else float(v))
            for k, v in zip(sc["key"], sc["value"])}
