"""Matching primitives of spec-annotation-consistency §4."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mwzrepro.consistency.text import (
    Mapped,
    lower,
    negated,
    normalize_entity,
    normalize_value,
    nword_matches,
    partial_ratio,
    polarity,
    tokdist,
    word_matches,
)


@pytest.mark.parametrize(
    ("raw", "norm"),
    [
        ("Christ 's College", " christs college "),  # tokenised possessive (§4.2 step 3)
        ("christ's college", " christs college "),
        ("Rosa\u2019s Bed and Breakfast", " rosas bed and breakfast "),  # typographic apostrophe
        ("Alexander B & B", " alexander bed and breakfast "),  # & and b and b (steps 4, 7)
        ("city centre north b and b", " city centre north bed and breakfast "),
        ("Arbury Lodge Guesthouse", " arbury lodge guest house "),  # step 6
        ("alpha-milton  guest house .", " alpha milton guest house "),  # steps 5, 8
        ("queens' college", " queens college "),
        ("", " "),
    ],
)
def test_normalize_entity_examples(raw: str, norm: str) -> None:
    assert normalize_entity(raw).text == norm


def test_nword_maps_matches_back_to_source_offsets() -> None:
    text = "I recommend Christ 's College on Saint Andrew 's Street ."
    spans = list(nword_matches(normalize_entity(text), normalize_value("christ's college")))
    assert [text[a:b] for a, b in spans] == ["Christ 's College"]
    b_and_b = "Try the Alexander B & B ."
    spans = list(nword_matches(normalize_entity(b_and_b), "alexander bed and breakfast"))
    assert [b_and_b[a:b] for a, b in spans] == ["Alexander B & B"]


def test_nword_is_word_bounded() -> None:
    norm = normalize_entity("the warkworth house is nice")
    assert list(nword_matches(norm, "worth house")) == []
    assert list(nword_matches(norm, "warkworth house")) == [(4, 19)]


@given(st.text(alphabet="abAB 's&-.\u2019guesthou", max_size=40))
def test_normalize_entity_map_is_consistent(text: str) -> None:
    m = normalize_entity(text)
    assert len(m.spans) == len(m.text)
    assert m.text.startswith(" ") and m.text.endswith(" ")
    assert "  " not in m.text
    for a, b in m.spans:
        assert 0 <= a <= b <= len(text)


def test_mapped_sub_rejects_empty_matches() -> None:
    with pytest.raises(ValueError):
        Mapped.of("abc").sub("x*", "y")


def test_lower_keeps_length() -> None:
    # "İ".lower() has two characters: it is kept, so offsets into lower(X) index X
    assert lower("İstanbul ABC") == "İstanbul abc"
    assert lower("Hotel ABC") == "hotel abc"


@pytest.mark.parametrize(
    ("text", "value", "hit"),
    [
        ("i want thai food", "thai", True),
        ("i want thailand food", "thai", False),  # letters on the right
        ("thai please", "thai", True),  # padded start (D8)
        ("food: thai", "thai", True),  # padded end
        ("4thai", "thai", True),  # digits count as non-letters
        ("modern european food", "european", True),
    ],
)
def test_word_matches(text: str, value: str, hit: bool) -> None:
    assert bool(word_matches(text, value)) is hit


def test_tokdist_and_polarity() -> None:
    # §4.3: n't becomes not; punctuation splits tokens
    assert tokdist("it does n't have parking .", "not", "parking") == 1
    assert tokdist("no idea", "not", "parking") == 3  # missing token: len(tokens) + 1
    assert polarity("it does n't have free parking", "parking", 5) == "no"
    assert polarity("i need free parking", "parking", 5) == "yes"
    assert polarity("there is no parking", "parking", 5) == "no"  # "no " + w
    far = "i do not think that we will really need to care about parking"
    assert tokdist(far, "not", "parking") == 9 and polarity(far, "parking", 5) == "yes"
    # IN-Sa uses the tighter distance 2
    assert negated("it does not offer free wifi", "wifi", 5)
    assert not negated("it does not offer free wifi", "wifi", 2)


def test_partial_ratio() -> None:
    assert partial_ratio("golden curry", "i booked the golden curry for you") == 100
    # best window 'golden cury ' (12 characters): Indel distance 2, 22 / 24 = 0.917 -> 92
    assert partial_ratio("golden curry", "the golden cury is nice") == 92
    assert partial_ratio("loch fyne", "there is a nice pub") == 33
    assert partial_ratio("", "abc") == 0
