"""Corpus BLEU as per-dialogue sufficient statistics, and BLEU of many resamples at once.

sacrebleu scores a corpus from the sum of per-segment statistics ``[hyp_len, ref_len,
correct_1..4, total_1..4]`` (``BLEU._extract_corpus_statistics`` and
``BLEU._compute_score_from_stats``; its own paired bootstrap resamples segments the same way).
We sum them per dialogue, so a bootstrap over dialogues re-weights ten integers per
dialogue; :func:`~mwzrepro.stats.bleu_formula.bleu_from_statistics` is sacrebleu's
``compute_bleu`` vectorized over resamples (:mod:`mwzrepro.stats.bleu_formula`).

The full-sample figure is computed by sacrebleu itself from the summed integers, so it is the
pipeline's BLEU exactly.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mwzrepro.core.errors import InputError
from mwzrepro.stats.bleu_formula import MAX_ORDER, bleu_from_statistics
from mwzrepro.stats.units import DialogueStats

__all__ = ["BleuReferences", "bleu_stats", "bleu_from_statistics", "MAX_ORDER"]

class BleuReferences:
    """One version's references, tokenized once by sacrebleu (its reference cache, shared with
    :func:`mwzrepro.bleu.score.reference_statistics`), scoring any number of systems' turns.

    Args:
        references: a ``references`` table (``reference`` is the BLEU reference of a turn).
    """

    def __init__(self, references: pd.DataFrame) -> None:
        from mwzrepro.bleu.score import reference_statistics

        self._refs = reference_statistics(references)

    def stats(self, predictions: pd.DataFrame, system: str, signature: str = "") -> DialogueStats:
        """Per-dialogue BLEU statistics of one system's predicted turns.

        Turns are matched as :func:`mwzrepro.bleu.score.corpus_bleu` matches them (predicted
        turns only, ``response_norm`` against the turn's ``reference``); each turn's statistics
        are sacrebleu's for that (hypothesis, reference) pair, so their sum is the statistics
        of the pipeline's corpus BLEU.

        Args:
            predictions: a ``predictions`` table.
            system: system name.
            signature: the pipeline's BLEU signature.

        Returns:
            :class:`DialogueStats` of kind ``bleu``: counts (dialogues × 10), ``point`` =
            corpus BLEU (0–100, unrounded) computed by sacrebleu from the summed statistics.

        Raises:
            InputError: a predicted turn has no reference; no predicted turn.
        """
        if predictions.empty:
            raise InputError(f"{system}: no predicted turns to score")
        index, positions = self._refs.row, []
        for did, turn in zip(predictions["dialogue_id"], predictions["turn"]):
            pos = index.get((str(did), int(turn)))
            if pos is None:
                n = sum((str(d), int(t)) not in index
                        for d, t in zip(predictions["dialogue_id"], predictions["turn"]))
                raise InputError(f"{system}: {n} predicted turn(s) have no reference, first "
                                 f"dialogue {did} turn {turn}")
            positions.append(pos)
        rows = self._refs.statistics(positions, predictions["response_norm"].tolist())
        seg = np.asarray(rows, dtype=np.int64)
        point = float(self._refs.bleu._compute_score_from_stats(
            [int(v) for v in seg.sum(axis=0)]).score)
        ids, inverse = np.unique(predictions["dialogue_id"].astype(str).to_numpy(),
                                 return_inverse=True)
        counts = np.zeros((len(ids), seg.shape[1]), dtype=np.int64)
        np.add.at(counts, inverse, seg)
        return DialogueStats("bleu", system, "bleu", tuple(str(i) for i in ids), counts, None,
                             point, signature)


def bleu_stats(predictions: pd.DataFrame, references: pd.DataFrame, system: str,
               signature: str = "") -> DialogueStats:
    """:meth:`BleuReferences.stats` of one system (tokenizes the references for this call;
    build one :class:`BleuReferences` to score many systems)."""
    return BleuReferences(references).stats(predictions, system, signature)
