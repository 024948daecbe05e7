"""The conversation setting on the real data mirror:

* AutoTOD's ``results/0613.jsonl`` (100 simulated conversations of a GPT-3.5 agent, 862 agent
  turns), fetched and verified through its ``sources.yaml`` pin, scores without error: our
  Inform/Success and attribute accuracy, and the agreement with AutoTOD's own judgement per
  judgement and domain (percent, Cohen's κ) with the disagreements classified;
* the corpus's 1,000 test dialogues written as conversations score exactly as the last step
  of :func:`~mwzrepro.scorer.lexicalized.conversation_probes.alignment_steps`, and every
  difference from turn-aligned grounded scoring of the same text is explained by one input
  of the conversation setting (active domains, booked domains, no state);
* the probes: every venue name swapped for another of its domain drops Inform by ≥ 40 points;
  every phone number and postcode made wrong drops Success by ≥ 25 points.
"""

from __future__ import annotations

from collections import Counter

import pytest

from mwzrepro import Evaluator
from mwzrepro.scorer.lexicalized.conversation_probes import (
    ALIGNMENT_STEPS,
    alignment_steps,
    corpus_conversations,
    probed_conversations,
)
from mwzrepro.scorer.lexicalized.judge_agreement import agreement_rows, classify, judge_pairs
from mwzrepro.scorer.resources.fetch import fetch_sources, registry_sources

pytestmark = pytest.mark.mirror

#: ``(judgement, domain) -> (pairs, percent agreement, Cohen's kappa)`` against AutoTOD.
AGREEMENT = {
    ("inform", "attraction"): (33, 81.8, 0.404), ("inform", "hotel"): (37, 83.8, 0.665),
    ("inform", "restaurant"): (53, 92.5, 0.709), ("inform", "taxi"): (22, 36.4, 0.0),
    ("inform", "train"): (39, 84.6, 0.694), ("inform", "all"): (184, 80.4, 0.54),
    ("success", "attraction"): (33, 63.6, 0.178), ("success", "hotel"): (13, 100.0, 1.0),
    ("success", "restaurant"): (21, 66.7, 0.316), ("success", "taxi"): (22, 45.5, 0.07),
    ("success", "train"): (21, 85.7, 0.69), ("success", "all"): (110, 69.1, 0.364),
    ("book", "hotel"): (24, 58.3, 0.25), ("book", "restaurant"): (32, 87.5, 0.634),
    ("book", "train"): (18, 72.2, 0.471), ("book", "all"): (74, 74.3, 0.481),
    ("all", "all"): (368, 75.8, 0.475)}


@pytest.fixture(scope="module")
def evaluator(mirror, scorer_cache):
    return Evaluator(bleu=False, richness=False, lexicalized=True, mirror=mirror,
                     cache_dir=scorer_cache)


@pytest.fixture(scope="module")
def autotod(evaluator, mirror, tmp_path_factory):
    sources = registry_sources(["autotod-0613-conversations"])
    path = fetch_sources(sources, tmp_path_factory.mktemp("raw"), str(mirror),
                         progress=False)["autotod-0613-conversations"]
    traces: dict = {}
    scores = evaluator.evaluate_conversations(path, conversation_format="autotod",
                                              traces=traces)
    return scores, traces


def test_autotod_scores(autotod):
    scores, _ = autotod
    assert scores.turns == {"conversations": 100, "total": 862, "mean": 8.62, "min": 3,
                            "max": 15}
    assert scores.inform == {"attraction": 87.9, "hotel": 70.3, "restaurant": 88.7,
                             "taxi": 100.0, "train": 59.0, "total": 68.0}
    assert scores.success == {"attraction": 72.7, "hotel": 45.9, "restaurant": 60.4,
                              "taxi": 54.5, "train": 51.3, "total": 55.0}
    acc = scores.attribute_accuracy
    assert (acc["correct"], acc["count"], round(acc["total"], 1)) == (1608, 1762, 91.3)
    assert scores.unknown_venues["count"] == 0
    assert all(c["goal"] == "given" for c in scores.conversations)


def test_agreement_with_autotod(autotod):
    _, traces = autotod
    pairs = judge_pairs(traces)
    got = {(r["judgement"], r["domain"]): (r["n"], round(r["percent"], 1),
                                           None if r["kappa"] is None else round(r["kappa"], 3))
           for r in agreement_rows(pairs)}
    assert got == AGREEMENT
    classes = Counter((p["judgement"], classify(p, traces[p["dialogue_id"]]).split(":")[0])
                      for p in pairs if p["ours"] != p["theirs"])
    assert classes == {
        ("success", "AutoTOD asks requestables the evaluator does not (area, type, price, "
                    "...)"): 25,
        ("book", "booking details (day, time, people) differ from the goal"): 16,
        ("inform", "taxi"): 14, ("inform", "name goal"): 8,
        ("inform", "AutoTOD's reader took another venue than the one named last"): 7,
        ("success", "AutoTOD's reader missed a value the text gives"): 5,
        ("inform", "AutoTOD's reader found no venue"): 4,
        ("book", "no reference-shaped value in a turn about the domain"): 3,
        ("inform", "the agent's last offer holds venues outside the goal (subset rule)"): 2,
        ("success", "a requestable not given, or given WRONG, for the venue in focus"): 2,
        ("success", "follows our Inform failure"): 2,
        ("inform", "no train named, train goal without a TRAINID request"): 1}


@pytest.fixture(scope="module")
def corpus(evaluator):
    records = corpus_conversations(evaluator.resources)
    return records, evaluator.evaluate_conversations(records)


def test_corpus_as_conversations_explained(evaluator, corpus):
    _, scores = corpus
    assert scores.turns["conversations"] == 1000 and scores.turns["total"] == 7372
    assert (scores.inform["total"], scores.success["total"]) == (96.8, 91.8)
    steps = alignment_steps(evaluator)
    ours = {(c["dialogue_id"], d): (c["inform"][d], c["success"][d])
            for c in scores.conversations for d in c["inform"] if d != "total"}
    assert {k: v[-1] for k, v in steps.items()} == ours        # the last step is the setting
    # turn-aligned grounded scoring of the same text (the first step): 95.7 / 90.9
    dialogues = {did for did, _ in steps}
    first_inform = sum(all(steps[(did, d)][0][0] for (x, d) in steps if x == did)
                       for did in dialogues)
    assert round(100 * first_inform / 1000, 1) == 95.7
    why = Counter(" + ".join(ALIGNMENT_STEPS[i] for i in range(1, len(v)) if v[i] != v[i - 1])
                  for v in steps.values() if v[0] != v[-1])
    assert why == {"active domains from the text": 55, "no state": 2,
                   "booked domains from the text": 1,
                   "active domains from the text + booked domains from the text": 1}
    assert sum(why.values()) == 59 and len(steps) == 1917


def test_probes_on_the_corpus_as_conversations(evaluator, corpus):
    records, scores = corpus
    swapped, changed = probed_conversations(records, evaluator.resources, "venue_name")
    assert changed == 1499
    assert scores.inform["total"] - evaluator.evaluate_conversations(
        swapped).inform["total"] >= 40                                   # 96.8 → 21.0
    wrong, changed = probed_conversations(records, evaluator.resources, "contact_value")
    assert changed == 848
    assert scores.success["total"] - evaluator.evaluate_conversations(
        wrong).success["total"] >= 25                                    # 91.8 → 52.1
