"""Unit tests of mwzrepro.dst.state against spec-dst-metrics §2.2–2.3: the 30 slots, slot
aliases, value canonicalisation, one value per slot."""

from __future__ import annotations

import pytest

from mwzrepro.dst.state import (
    DONTCARE,
    N_SLOTS,
    SLOT_INDEX,
    SLOTS,
    DSTError,
    canonical_slot,
    canonical_value,
    make_state,
)


# ------------------------------------------------------------------------------------------
# §2.2 slots and §2.3 values


def test_thirty_slots_per_domain_counts():
    assert N_SLOTS == 30 and len(set(SLOTS)) == 30
    counts = {}
    for d, _ in SLOTS:
        counts[d] = counts.get(d, 0) + 1
    assert counts == {"taxi": 4, "restaurant": 7, "hotel": 10, "attraction": 3, "train": 6}
    assert SLOTS[15] == ("hotel", "area") and SLOTS[18] == ("hotel", "stars")
    assert SLOTS[22] == ("attraction", "name") and SLOTS[27] == ("train", "day")


@pytest.mark.parametrize(
    "domain, name, expected",
    [
        ("hotel", "people", ("hotel", "book people")),
        ("hotel", "book people", ("hotel", "book people")),
        ("hotel", "bookpeople", ("hotel", "book people")),
        ("hotel", "book_people", ("hotel", "book people")),
        ("restaurant", "time", ("restaurant", "book time")),
        ("restaurant", "day", ("restaurant", "book day")),
        ("hotel", "stay", ("hotel", "book stay")),
        ("train", "day", ("train", "day")),
        ("train", "people", ("train", "book people")),
        ("Train", "leaveAt", ("train", "leaveat")),
        ("taxi", "arrive by", ("taxi", "arriveby")),
        ("taxi", "arrive", ("taxi", "arriveby")),
        ("train", "leave", ("train", "leaveat")),
        ("hotel", "price range", ("hotel", "pricerange")),
        ("taxi", "day", None),
        ("hotel", "arrive", None),
        ("train", "book ticket", None),
        ("hospital", "department", None),
        ("restaurant", "stay", None),
    ],
)
def test_canonical_slot_aliases(domain, name, expected):
    assert canonical_slot(domain, name) == expected


def test_dropping_book_prefix_never_collides():
    short = {(d, s.removeprefix("book ")) for d, s in SLOTS}
    assert len(short) == 30
    assert all(canonical_slot(d, s) in SLOT_INDEX for d, s in short)


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("", None), ("not mentioned", None), ("none", None), (" None ", None),
        ("dontcare", DONTCARE), ("dont care", DONTCARE), ("don't care", DONTCARE),
        ("do n't care", DONTCARE), ("ABC Theatre", "abc theatre"),
        (" tandoori Palace ", "tandoori palace"), ("guesthouse", "guesthouse"),
    ],
)
def test_canonical_value(raw, expected):
    assert canonical_value(raw) == expected


def test_canonical_value_rejects_non_strings():
    with pytest.raises(DSTError, match="f.json: dialogue d, turn 3"):
        canonical_value(3, "f.json: dialogue d, turn 3")


def test_make_state_rejects_two_values_for_one_slot():
    with pytest.raises(DSTError, match=r"f: dialogue d, turn 1.*two values for hotel-book people"):
        make_state([("hotel", "people", "2"), ("hotel", "book people", "3")],
                   "f: dialogue d, turn 1")
    # the same value twice is one triple
    assert make_state([("hotel", "people", "2"), ("hotel", "bookpeople", "2")]) == {
        ("hotel", "book people"): "2"}


def test_unknown_slot_is_an_error_or_a_reported_filter():
    triples = [("taxi", "day", "monday"), ("taxi", "leave", "10:00"), ("hotel", "arrive", "")]
    with pytest.raises(DSTError, match="taxi-day is not one of the 30"):
        make_state(triples, "f: dialogue d, turn 0")
    from collections import Counter

    dropped = Counter()
    assert make_state(triples, dropped=dropped) == {("taxi", "leaveat"): "10:00"}
    assert dropped == Counter({"taxi-day": 1})  # empty values are absent, not dropped
