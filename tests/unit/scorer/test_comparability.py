"""The comparability rule of multi-system tables (``scorer.leaderboard.comparability``) on
hand-written signatures: which row is the reference (the largest group of BLEU and
Inform/Success signatures, ties to the earliest row), the package version as a field, the
JGA/FGA signatures compared only between rows that have them, the marks and the line."""

from __future__ import annotations

import pytest

from mwzrepro.core.errors import InputError
from mwzrepro.scorer.leaderboard.comparability import comparability

BLEU = "BLEU|ver:mwz21|v:1"
SUCCESS = "I/S|state:gold|v:1"


def rows(**given: dict[str, str]) -> dict[str, dict[str, str]]:
    """``{row: {block: signature}}`` with the common BLEU and Inform/Success signatures
    where a row does not give its own."""
    return {name: {"bleu": BLEU, "success": SUCCESS, **sigs} for name, sigs in given.items()}


def test_the_package_version_is_a_field_that_makes_rows_not_comparable():
    c = comparability(rows(a={}, b={}, c={"bleu": "BLEU|ver:mwz21|v:2"}))
    assert c.reference == {("bleu", "ver"): "mwz21", ("bleu", "v"): "1",
                           ("success", "v"): "1"}
    assert c.marks == {"a": "", "b": "", "c": "v:2"}
    assert c.differing == {"a": [], "b": [], "c": ["v"]}


def test_the_largest_group_is_the_reference_and_a_tie_goes_to_the_earliest_row():
    # BLEU differs: a alone, b and c together -> b's group is the reference
    c = comparability(rows(a={"bleu": "BLEU|ver:mwz22|v:1"}, b={}, c={}))
    assert c.marks == {"a": "ver:mwz22", "b": "", "c": ""}
    # Inform/Success differs (a field not allowed to vary): the same rule
    c = comparability(rows(a={"success": "I/S|state:gold|thr:90|v:1"}, b={}, c={}))
    assert c.marks == {"a": "thr:90", "b": "", "c": ""}
    # one row each: the earliest row's group
    c = comparability(rows(a={"bleu": "BLEU|ver:mwz22|v:1"}, b={}))
    assert c.marks == {"a": "", "b": "ver:mwz21"}
    assert c.signatures == {"bleu": "BLEU|ver:mwz22|v:1", "success": "I/S|v:1"}


def test_no_rows_and_one_row():
    c = comparability({})
    assert (c.reference, c.marks, c.signatures, c.all_comparable) == ({}, {}, {}, True)
    assert c.differing_line() == ""
    one = comparability(rows(a={}))
    assert one.marks == {"a": ""} and one.comparable == {"a": True}
    assert one.signatures == {"bleu": BLEU, "success": "I/S|v:1"}


def test_states_are_compared_only_between_rows_that_have_them():
    # a has no states; b's FGA signature differs from c's and d's, which are the reference
    c = comparability(rows(a={}, b={"dst_fga": "FGA|lam:0.5|v:1"},
                           c={"dst_fga": "FGA|lam:0.25|v:1"}, d={"dst_fga": "FGA|lam:0.25|v:1"}))
    assert c.marks == {"a": "", "b": "lam:0.5", "c": "", "d": ""}
    assert c.reference[("dst_fga", "lam")] == "0.25"
    # the printed FGA signature is that of a comparable row with states (c), not b's
    assert c.signatures == {"bleu": BLEU, "success": "I/S|v:1", "dst_fga": "FGA|lam:0.25|v:1"}


def test_marks_line_and_strict_name_every_differing_field_and_row():
    c = comparability(rows(a={}, b={}, c={}, d={"bleu": "BLEU|ver:mwz22|v:2"},
                           e={"bleu": "BLEU|ver:mwz22|v:1"}))
    assert c.marks["d"] == "ver:mwz22 v:2"
    assert c.differing_fields() == {"ver": ["d", "e"], "v": ["d"]}
    assert c.differing_line() == ("not comparable with the other rows (no rank, no paired "
                                  "test): ver differs (d, e); v differs (d)")
    with pytest.raises(InputError, match=r"\(d: ver:mwz22 v:2; e: ver:mwz22\)"):
        c.check_strict()


def test_the_printed_fga_signature_is_the_majority_one_when_the_reference_row_differs():
    # a is the BLEU/Inform-Success reference (earliest row) but its FGA signature is the odd one
    c = comparability(rows(a={"dst_fga": "FGA|lam:0.5|v:1"}, b={"dst_fga": "FGA|lam:0.25|v:1"},
                           c={"dst_fga": "FGA|lam:0.25|v:1"}))
    assert c.marks == {"a": "lam:0.5", "b": "", "c": ""}
    assert c.signatures["dst_fga"] == "FGA|lam:0.25|v:1"
