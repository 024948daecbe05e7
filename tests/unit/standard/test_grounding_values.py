"""Entity precision and recall on an asymmetric turn, and the booking-total rule of train
prices with its negative cases, all by hand."""

from __future__ import annotations

import pytest

from mwzrepro.standard.grounded_values import same_value
from mwzrepro.standard.grounding_metrics import f1_counts, f1_percent


def test_entity_precision_and_recall_are_not_swapped():
    system = {("area", "centre"), ("food", "thai"), ("phone", "01223354382")}
    reference = {("area", "centre"), ("name", "restaurant:1")}
    # one shared value; two the system adds; one it misses
    assert f1_counts(system, reference) == (1, 2, 1)
    out = f1_percent({"tp": 1, "fp": 2, "fn": 1})
    assert out["precision"] == pytest.approx(100 / 3)        # 1 / (1 + 2)
    assert out["recall"] == pytest.approx(50.0)              # 1 / (1 + 1)
    assert out["f1"] == pytest.approx(40.0)                  # 2 / (2 + 2 + 1)
    # nothing given, nothing expected: 100; something expected, nothing given: P 100, R 0
    assert f1_percent({"tp": 0, "fp": 0, "fn": 0})["f1"] == 100.0
    none_given = f1_percent({"tp": 0, "fp": 0, "fn": 2})
    assert (none_given["precision"], none_given["recall"], none_given["f1"]) == (100.0, 0.0, 0.0)


@pytest.mark.parametrize("given, ok", [
    ("23.60 pounds", True),    # the ticket price
    ("70.80 GBP", True),       # three tickets
    ("70.84", True),           # three tickets, 4 pence off (within 5)
    ("70.90", False),          # 10 pence off three tickets
    ("35.40", False),          # 1.5 tickets
    ("23.65", False),          # one ticket 5 pence off: not a total, not the price
    ("2360.00", False),        # 100 tickets: beyond 99
    ("free", False),
])
def test_a_train_price_is_the_ticket_price_or_a_booking_total(given, ok):
    assert same_value("price", given, "23.60 pounds") is ok


@pytest.mark.parametrize("counts, p, r, f1", [
    ((2, 2, 0), 50.0, 100.0, 100 * 4 / 6),     # half the given values right, none missed
    ((1, 1, 2), 50.0, 100 / 3, 40.0),          # 2 / (2 + 1 + 2)
    ((0, 2, 0), 0.0, 100.0, 0.0),              # nothing to find, two wrong values given
])
def test_entity_f1_block(counts, p, r, f1):
    tp, fp, fn = counts
    assert f1_percent({"tp": tp, "fp": fp, "fn": fn}) == pytest.approx(
        {"f1": f1, "precision": p, "recall": r, "tp": tp, "fp": fp, "fn": fn})


def test_attribute_accuracy_block():
    from mwzrepro.standard.grounding_metrics import accuracy_of

    checks = [{"slot": "phone", "correct": True}, {"slot": "phone", "correct": False},
              {"slot": "area", "correct": True}, {"slot": "area", "correct": True},
              {"slot": "area", "correct": False}]
    assert accuracy_of(checks) == {
        "total": 60.0, "correct": 3, "count": 5,
        "per_slot": {"area": {"accuracy": pytest.approx(200 / 3), "correct": 2, "count": 3},
                     "phone": {"accuracy": 50.0, "correct": 1, "count": 2}}}
    assert accuracy_of([]) == {"total": None, "correct": 0, "count": 0, "per_slot": {}}
