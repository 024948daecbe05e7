"""The preparation of a ``tables-grounded`` row kept dialogue by dialogue
(:mod:`mwzrepro.scorer.lexicalized.prepared_memo`), on the two-dialogue mwz21 fixture: on
random mappings, a preparation from an empty memo and one from the memo of an earlier mapping
are ``prepare_input``'s own, to the order of every column and count; what the rule does not
cover goes to ``prepare_input`` whole; the row's file is read back only under its key."""

from __future__ import annotations

import logging

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mwzrepro.core.errors import InputError
from mwzrepro.scorer.lexicalized.prepared_memo import (
    PreparedMemo,
    load_prepared,
    save_prepared,
)
from tests.unit.scorer.test_lexicalized_scoring import LEXICAL, evaluator


@pytest.fixture(scope="module")
def lexical(mini):
    return evaluator(mini, lexicalized=True, setting="all", bleu=False, richness=False)


def same(a, b) -> None:
    """Two PreparedInputs are equal, the placeholder counts in their order too."""
    assert a.preds == b.preds
    assert a.prep == b.prep
    assert a.coverage == b.coverage
    assert list(a.unknown.items()) == list(b.unknown.items())
    assert a.links == b.links


STATES = [{"restaurant": {"food": "chinese", "area": "centre"}},
          {"restaurant": {"name": "dojo noodle bar"}}, {"taxi": {"destination": "ballare"}}, {}]
TEXTS = ["[Dojo Noodle Bar] is at a2 .", "the postcode is CB1 2DP .", "call 07712 345678 .",
         "charlie chan is in the [value_area] , [value_foo] .", "[restaurant_name] , [bar_x] .",
         "thank you , goodbye .", ""]


def turn(with_state: bool, with_domains: bool):
    fields = {"response": st.sampled_from(TEXTS)}
    if with_state:
        fields["state"] = st.sampled_from(STATES)
    if with_domains:
        fields["active_domains"] = st.sampled_from([["restaurant"], ["taxi"], []])
    return st.fixed_dictionaries(fields)


@st.composite
def mappings(draw):
    """A mapping of the fixture's dialogues (2 and 1 system turns; the second's raw id in
    another spelling), sometimes shorter, with states and active domains on every turn, on
    none, or (mixed, one in five) differing between the dialogues, with empty ones."""
    mixed = draw(st.integers(0, 4)) == 0
    flags = (draw(st.booleans()), draw(st.booleans()))
    out = {}
    for did, n in (("sng9001", 2), ("SNG9002.json", 1)):
        if out and not draw(st.booleans()):
            continue
        if mixed:
            flags = (draw(st.booleans()), draw(st.booleans()))
        k = draw(st.integers(0 if mixed else 1, n))
        out[did] = draw(st.lists(turn(*flags), min_size=k, max_size=k))
    return out


def agree(memo: PreparedMemo, evaluator, data) -> None:
    """The memo prepares ``data`` as ``prepare_input`` does, or fails with its message."""
    try:
        plain = evaluator._prepare(data, "x.json")
    except InputError as e:
        with pytest.raises(InputError) as raised:
            memo.prepare(evaluator, data, "x.json")
        assert str(raised.value) == str(e)
        return
    same(memo.prepare(evaluator, data, "x.json"), plain)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mappings(), mappings())
def test_a_preparation_from_the_memo_is_prepare_input_s(lexical, first, second):
    memo = PreparedMemo()
    agree(memo, lexical, first)
    again = PreparedMemo(memo.used)
    agree(again, lexical, second)
    agree(again, lexical, first)


def test_unchanged_dialogues_are_read_and_a_changed_one_prepared_again(lexical):
    memo = PreparedMemo()
    memo.prepare(lexical, LEXICAL, "x.json")
    assert memo.anew == 2 and len(memo.used) == 2
    changed = {**LEXICAL, "sng9002": [{**LEXICAL["sng9002"][0], "response": "bye ."}]}
    again = PreparedMemo(memo.used)
    same(again.prepare(lexical, changed, "x.json"), lexical._prepare(changed, "x.json"))
    assert again.anew == 1


def test_what_the_rule_does_not_cover_is_prepared_whole(lexical, mini):
    memo = PreparedMemo()
    legacy = {"sng9001.json": ["[Dojo Noodle Bar] is at a2 .", "bye ."]}
    same(memo.prepare(lexical, legacy, "x.json"), lexical._prepare(legacy, "x.json"))
    strict = evaluator(mini, lexicalized=True, setting="all", bleu=False, richness=False,
                       strict=True)
    with pytest.raises(InputError, match="coverage") as raised:
        memo.prepare(strict, {"sng9001": LEXICAL["sng9001"]}, "x.json")
    with pytest.raises(InputError) as plain:
        strict._prepare({"sng9001": LEXICAL["sng9001"]}, "x.json")
    assert str(raised.value) == str(plain.value)
    assert memo.used == {} and memo.anew == 0


@pytest.mark.parametrize("bad", [
    {"sng9001": [{"response": "hi", "state": {"restaurant": "cheap"}}]},
    {"sng9001": [{"response": "hi", "state": {}}] * 3},
    {"sng9001": [{"response": "hi", "state": {}}], "SNG9001.json": []},
    {"nope": [{"response": "hi", "state": {}}]},
])
def test_bad_input_gets_prepare_input_s_message(lexical, bad):
    with pytest.raises(InputError) as plain:
        lexical._prepare(bad, "x.json")
    with pytest.raises(InputError) as memo:
        PreparedMemo().prepare(lexical, bad, "x.json")
    assert str(memo.value) == str(plain.value)


def test_the_file_is_read_back_only_under_its_key(lexical, mini, tmp_path, caplog):
    memo = PreparedMemo()
    memo.prepare(lexical, LEXICAL, "x.json")
    save_prepared(memo, tmp_path, "oracle, lexicalized", "k1", lexical)
    assert [p.name for p in (tmp_path / "prepared").iterdir()] == ["oracle_lexicalized.pickle"]
    back = load_prepared(tmp_path, "oracle, lexicalized", "k1", lexical)
    assert back.entries.keys() == memo.used.keys()
    assert load_prepared(tmp_path, "oracle, lexicalized", "k2", lexical).entries == {}
    extended = evaluator(mini, lexicalized=True, setting="all", bleu=False, richness=False,
                         placeholders="extended")
    assert load_prepared(tmp_path, "oracle, lexicalized", "k1", extended).entries == {}
    assert load_prepared(tmp_path, "other", "k1", lexical).entries == {}
    (tmp_path / "prepared" / "oracle_lexicalized.pickle").write_bytes(b"damaged")
    with caplog.at_level(logging.WARNING):
        assert load_prepared(tmp_path, "oracle, lexicalized", "k1", lexical).entries == {}
    assert "unreadable" in caplog.text
