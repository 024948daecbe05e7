"""Effect of the annotation-consistency correction on DST scores (the analogue of Qian et al.
2021, Table 4): one system's predicted states scored against the original and the corrected
gold states with the project's DST metrics (:mod:`mwzrepro.dst.metrics`; JGA, FGA, fuzzy JGA).

No metric is implemented here; this module only pairs inputs and calls the DST API.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import pandas as pd

__all__ = ["gold_views", "score_system"]

_STATE_COLUMNS = ["dialogue_id", "turn", "domain", "slot", "value", "alternatives", "position"]


def gold_views(
    original: pd.DataFrame,
    corrected: pd.DataFrame,
    dialogues: pd.DataFrame,
    corrected_alternatives: bool = True,
    where: str = "",
) -> dict[str, Any]:
    """Gold states for scoring: ``{"original": gold, "corrected": gold}`` as returned by
    :func:`mwzrepro.dst.inputs.gold_from_tables` (``{dialogue id: GoldDialogue}``).

    Args:
        original: the ``states`` table; corrected: the ``states_corrected`` table of the same
            (version, split); dialogues: its ``dialogues`` table.
        corrected_alternatives: accept any value of a multi-valued addition (the 2.2+ release
            writes the list, §6.4); ``False`` keeps only the primary value (the 2.0/2.1 export).
    """
    from mwzrepro.dst.inputs import gold_from_tables

    cor = corrected[_STATE_COLUMNS].copy()
    if not corrected_alternatives:
        cor["alternatives"] = [[v] for v in cor["value"]]
    return {
        "original": gold_from_tables(original[_STATE_COLUMNS], dialogues, where + " (original)"),
        "corrected": gold_from_tables(cor, dialogues, where + " (corrected)"),
    }


def score_system(
    predictions: pd.DataFrame,
    golds: dict[str, Any],
    lambdas: Sequence[float],
    fuzzy_threshold: float | str,
    excluded: Iterable[str] = (),
    missing: str = "skip",
    source: str = "",
) -> dict[str, Any] | None:
    """Score one system's predicted states against each gold view.

    Args:
        predictions: the system's ``predictions`` table (``state_json`` per system turn i =
            the state after user turn i).
        golds: from :func:`gold_views`.
        lambdas: FGA λ values. fuzzy_threshold: θ of the Levenshtein matcher (spec-dst-metrics
            §8.2, inclusive). excluded, missing: as :func:`mwzrepro.dst.inputs.align_states`.
        source: label for messages.

    Returns:
        ``None`` if the system releases no states; else ``{gold view: {"jga", "fga": {λ: v},
        "fuzzy_jga", "turns", "dialogues", "coverage"}}`` with fractions in [0, 1], plus
        ``"dropped_pred_slots"``.

    Raises:
        mwzrepro.dst.metrics.DSTError: malformed predictions (names file, dialogue and turn).
    """
    from mwzrepro.dst.inputs import align_states, predictions_from_table
    from mwzrepro.dst.metrics import make_matcher, score_corpus

    dropped: Counter = Counter()
    pred = predictions_from_table(predictions, source, dropped)
    if pred is None:
        return None
    exact = make_matcher("exact")
    fuzzy = make_matcher("fuzzy-levenshtein", fuzzy_threshold)
    out: dict[str, Any] = {"dropped_pred_slots": dict(sorted(dropped.items()))}
    for view, gold in golds.items():
        dialogues, cov = align_states(gold, pred, excluded, missing, source)
        scores, _ = score_corpus(dialogues, lambdas, exact)
        fscores, _ = score_corpus(dialogues, lambdas, fuzzy)
        out[view] = {
            "jga": scores.jga,
            "fga": {repr(float(k)): v for k, v in scores.fga.items()},
            "fuzzy_jga": fscores.jga,
            "turns": scores.turns,
            "dialogues": scores.dialogues,
            "coverage": cov.as_dict(),
        }
    return out
