"""One measure of a file's form (scorer.lexicalized.form_measure): the three decisions read it
at their documented thresholds, on hand-checkable responses."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mwzrepro.scorer.lexicalized.file_form import looks_delexicalized
from mwzrepro.scorer.lexicalized.form_measure import (
    carries_placeholders,
    may_be_lexicalized,
    measure_form,
    names_values,
    too_few_values_for_grounding,
)


def test_placeholder_shapes() -> None:
    texts = ["[value_name] is nice", "leaves at [leave at]", "[train_arriveBy] it is",
             "[Dojo Noodle Bar] is nice", "see [1]", "plain text"]
    m = measure_form(texts)
    assert (m.responses, m.with_placeholder) == (6, 3)
    assert m.without_placeholder_share == 0.5


def test_rule_1_threshold_is_one_response_in_ten() -> None:
    nine = ["Curry Garden is in the centre."] * 9
    assert carries_placeholders(measure_form(nine + ["[value_name] ."]))        # 1 in 10
    assert not carries_placeholders(measure_form(nine + ["Nandos ."] + ["[value_name] ."]))
    assert not carries_placeholders(measure_form([]))
    assert looks_delexicalized({"a": [{"response": "[value_area] ."}], "b": ["ok"] * 9})
    assert not looks_delexicalized({"a": [{"response": "[Nandos] ."}]})


def test_rule_2_both_steps() -> None:
    four = ["Nandos is cheap.", "Bye.", "Yes.", "[value_name] ."]
    assert not may_be_lexicalized(measure_form(four))                           # rule 1 keeps it
    assert may_be_lexicalized(measure_form(four[:3] + ["Ok."]))
    given_, written = ["Nandos, 01223 327908.", "Bye."] * 3 + ["a"] * 34, \
        ["[name], [phone].", "Bye."] * 3 + ["a"] * 34
    m = measure_form(given_, written)
    assert m.naming_share == 3 / 40 and not names_values(m)
    m = measure_form(given_[:6] + ["a"] * 14, written[:6] + ["a"] * 14)
    assert m.naming_share == 0.15 and names_values(m)
    # a response that already had [name] does not count as named by lex:1
    assert measure_form(["[Name] here"], ["[name] here"]).naming == 0
    with pytest.raises(ValueError):
        names_values(measure_form(given_))
    with pytest.raises(ValueError):
        measure_form(["a"], ["a", "b"])


def _link(placeholders: int, *slots: str) -> SimpleNamespace:
    return SimpleNamespace(placeholders=placeholders,
                           spans=tuple(SimpleNamespace(slot=s) for s in slots))


def test_rule_3_counts_values_without_counts() -> None:
    m = measure_form((), links=[_link(2, "name", "choice"), _link(0, "phone")])
    assert (m.placeholders, m.linked_values, m.with_linked_value) == (2, 2, 2)
    assert not too_few_values_for_grounding(m)
    m = measure_form((), links=[_link(3, "name", "choice"), _link(0, "choice")])
    assert too_few_values_for_grounding(m)
    with pytest.raises(ValueError):
        too_few_values_for_grounding(measure_form(["x"]))


@given(st.lists(st.text(max_size=30), max_size=20))
def test_shares_are_fractions_that_add_up(texts: list[str]) -> None:
    m = measure_form(texts)
    assert 0 <= m.placeholder_share <= 1 and 0 <= m.without_placeholder_share <= 1
    if texts:
        assert m.placeholder_share + m.without_placeholder_share == pytest.approx(1)
    assert carries_placeholders(m) == (bool(texts) and m.with_placeholder >= 0.1 * len(texts))
