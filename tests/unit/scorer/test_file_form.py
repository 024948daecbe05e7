"""Per-file forms (``--form NAME=...``): each form given is the one the file is scored with,
a placeholder vocabulary alone included."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from mwzrepro.core.errors import ConfigError
from mwzrepro.scorer.lexicalized.file_form import (
    lexicalized_form,
    looks_delexicalized,
    parse_forms,
    with_form,
)


def _evaluator(lexicalized=False, placeholders="reference"):
    return SimpleNamespace(lexicalized=lexicalized, standard=SimpleNamespace(
        state_match_threshold=95, placeholders=placeholders))


def test_a_placeholder_vocabulary_alone_is_obeyed():
    forms = parse_forms(["b=placeholders=extended"], ["a", "b"])
    assert forms == {"b": {"placeholders": "extended"}}
    base = _evaluator()
    ev = with_form(base, forms["b"])
    assert ev is not base
    assert (ev.lexicalized, ev.standard.placeholders) == (False, "extended")
    assert ev.standard.state_match_threshold == 95
    assert base.standard.placeholders == "reference"          # the shared one untouched


def test_each_form_sets_only_its_own_key():
    assert parse_forms(["a=delexicalized", "b=lexicalized"], ["a", "b"]) == {
        "a": {"lexicalized": False}, "b": {"lexicalized": True}}
    ev = with_form(_evaluator(placeholders="extended"), {"lexicalized": True})
    assert (ev.lexicalized, ev.standard.placeholders) == (True, "extended")
    same = _evaluator()
    assert with_form(same, {"placeholders": "reference"}) is same
    assert with_form(same, {"lexicalized": False}) is same


@pytest.mark.parametrize("value", ["a", "a=", "c=lexicalized", "a=placeholders=ext"])
def test_a_bad_form_is_an_error(value):
    with pytest.raises(ConfigError, match="--form"):
        parse_forms([value], ["a", "b"])


def test_the_errors_name_the_expected_forms_and_the_rows():
    forms = "lexicalized, delexicalized, placeholders=reference, placeholders=extended"
    for value, message in [
        ("a=", f"--form 'a=': expected NAME=FORM[,FORM] with FORM one of {forms}"),
        ("c=lexicalized", "--form 'c=lexicalized': no row named 'c' (rows: a, b)"),
        ("a=lex", f"--form 'a=lex': unknown form 'lex'; expected {forms}"),
    ]:
        with pytest.raises(ConfigError) as err:
            parse_forms([value], ["a", "b"])
        assert str(err.value) == message


def test_a_bad_placeholder_vocabulary_is_named_as_a_standard_setting():
    with pytest.raises(ConfigError, match=r"^standard\.placeholders: "):
        with_form(_evaluator(), {"placeholders": "bogus"})


def test_the_delexicalized_share_is_the_one_given():
    # 1 of 4 responses carries a placeholder: at least the default 10 %, not 50 %
    data = {"d": [{"response": "[hotel_name] is nice"}, {"response": "ok"},
                  {"response": "bye"}, {"response": "yes"}]}
    assert looks_delexicalized(data) is True
    assert looks_delexicalized(data, share=0.5) is False


DELEXICALIZED = {"d": [{"response": "[value_name] is in the [value_area] ."}]}


def test_the_lexicalized_check_runs_only_for_a_lexicalized_evaluator_without_a_form():
    # not lexicalized: nothing to decide, whatever the file
    assert lexicalized_form(_evaluator(), None, DELEXICALIZED, "a.json") == (None, None)
    # a form that says lexicalized or not is obeyed as it is, without a line
    lex = _evaluator(lexicalized=True)
    assert lexicalized_form(lex, {"lexicalized": True}, DELEXICALIZED, "a.json") == (
        {"lexicalized": True}, None)
    # a delexicalized file keeps the other keys of its form and is scored as it is
    form, line = lexicalized_form(lex, {"placeholders": "extended"}, DELEXICALIZED, "a.json")
    assert form == {"placeholders": "extended", "lexicalized": False}
    assert line.startswith("a.json: responses carry placeholders (delexicalized): scored as")
