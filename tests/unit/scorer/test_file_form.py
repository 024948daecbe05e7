"""Per-file forms (``--form NAME=...``): each form given is the one the file is scored with,
a placeholder vocabulary alone included."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from mwzrepro.core.errors import ConfigError
from mwzrepro.scorer.lexicalized.file_form import parse_forms, with_form


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
