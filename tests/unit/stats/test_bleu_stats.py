"""BLEU from per-dialogue sufficient statistics equals sacrebleu's corpus BLEU."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sacrebleu.metrics import BLEU

from mwzrepro.bleu.score import corpus_bleu
from mwzrepro.core.errors import InputError
from mwzrepro.stats.bleu_stats import BleuReferences, bleu_from_statistics, bleu_stats
from mwzrepro.stats.bootstrap import Resampler

REFS = pd.DataFrame({
    "dialogue_id": ["a", "a", "b", "b", "c"],
    "turn": [0, 1, 0, 1, 0],
    "text": ["x"] * 5,
    "delex": ["x"] * 5,
    "reference": [
        "i have found [value_name] for you .",
        "the phone number is [value_phone] .",
        "what time would you like to leave ?",
        "your booking is confirmed , reference [value_reference] .",
        "thank you , goodbye .",
    ],
})

PREDS = pd.DataFrame({
    "dialogue_id": ["a", "a", "b", "b", "c"],
    "turn": [0, 1, 0, 1, 0],
    "response": ["-"] * 5,
    "response_norm": [
        "i found [value_name] for you .",
        "the phone number is [value_phone] .",
        "when would you like to leave ?",
        "booked , reference [value_reference] .",
        "goodbye .",
    ],
    "state_json": [None] * 5,
    "active_domains": [None] * 5,
})


def test_full_sample_equals_pipeline_bleu_exactly():
    stats = bleu_stats(PREDS, REFS, "sys")
    assert stats.point == corpus_bleu(PREDS, REFS, "mwz21", "sys").score
    assert stats.dialogue_ids == ("a", "b", "c")
    assert stats.counts.shape == (3, 10)


def test_dialogue_counts_sum_to_sacrebleu_corpus_statistics():
    stats = bleu_stats(PREDS, REFS, "sys")
    bleu = BLEU(references=[REFS["reference"].tolist()])
    seg = bleu._extract_corpus_statistics(PREDS["response_norm"].tolist(), None)
    assert stats.counts.sum(axis=0).tolist() == np.sum(seg, axis=0).tolist()
    # dialogue a = its two turns
    assert stats.counts[0].tolist() == (np.array(seg[0]) + np.array(seg[1])).tolist()


def test_subset_of_turns_matches_pipeline():
    preds = PREDS.iloc[[0, 2, 4]]
    assert bleu_stats(preds, REFS, "sys").point == corpus_bleu(preds, REFS, "v", "sys").score


def test_vectorized_bleu_matches_sacrebleu_on_edge_cases():
    rows = np.array([
        [10, 12, 8, 5, 3, 1, 10, 9, 8, 7],   # brevity penalty
        [12, 10, 8, 5, 0, 0, 12, 11, 10, 9],  # two zero orders: exp smoothing twice
        [3, 5, 2, 0, 0, 0, 3, 2, 1, 0],      # total_4 = 0: sacrebleu stops, log floor
        [0, 5, 0, 0, 0, 0, 0, 0, 0, 0],      # empty hypothesis
        [5, 5, 0, 0, 0, 0, 5, 4, 3, 2],      # no match at all
        [7, 7, 7, 6, 5, 4, 7, 6, 5, 4],      # perfect
    ])
    bleu = BLEU()
    ours = bleu_from_statistics(rows)
    for row, value in zip(rows, ours):
        assert value == pytest.approx(bleu._compute_score_from_stats(row.tolist()).score,
                                      rel=1e-12, abs=1e-12)


def test_resampled_bleu_matches_sacrebleu_per_resample():
    stats = bleu_stats(PREDS, REFS, "sys")
    r = Resampler(stats.dialogue_ids, 30, 0)
    bleu = BLEU()
    for counts, value in zip(r.counts, r.values(stats)):
        summed = (counts @ stats.counts).tolist()
        assert value == pytest.approx(bleu._compute_score_from_stats(summed).score, rel=1e-12)


def test_references_are_tokenized_once_for_many_systems():
    refs = BleuReferences(REFS)
    a = refs.stats(PREDS, "a")
    b = refs.stats(PREDS.iloc[[1, 3]], "b")
    assert a.point == corpus_bleu(PREDS, REFS, "v", "a").score
    assert b.point == corpus_bleu(PREDS.iloc[[1, 3]], REFS, "v", "b").score


def test_turn_without_reference_is_an_error():
    preds = PREDS.copy()
    preds.loc[4, "turn"] = 7
    with pytest.raises(InputError, match="dialogue c turn 7"):
        bleu_stats(preds, REFS, "sys")

