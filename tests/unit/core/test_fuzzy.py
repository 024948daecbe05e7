"""spec-standard-evaluation §7: the reference partial_ratio (fuzzywuzzy 0.18 + python-Levenshtein
0.12.x) and the optimal one (rapidfuzz)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import Indel
from rapidfuzz.distance import Levenshtein

from mwzrepro.core.errors import ConfigError
from mwzrepro.core.fuzzy import (
    editops_reference,
    make_matcher,
    matching_blocks_rapidfuzz,
    matching_blocks_reference,
    partial_ratio,
    partial_ratio_from_blocks,
    partial_ratio_optimal,
    partial_ratio_reference,
)

# --- the spec's worked examples -------------------------------------------------------------


def test_indian_brazlidian_edit_script_and_blocks():
    # §7: 0.12.2 edit script "insert 4 + replace 2 + equal 4", blocks (2,6,4) + sentinel
    assert editops_reference("indian", "brazlidian") == [
        ("insert", 0, 0),
        ("insert", 0, 1),
        ("insert", 0, 2),
        ("insert", 0, 3),
        ("replace", 0, 4),
        ("replace", 1, 5),
    ]
    assert matching_blocks_reference("indian", "brazlidian") == [(2, 6, 4), (6, 10, 0)]


def test_indian_brazlidian_scores():
    # best window 'lidian' -> 83 with 0.12.x; the rapidfuzz/0.27.5 script gives 'idian' -> 91
    assert partial_ratio_reference("indian", "brazlidian") == 83
    assert partial_ratio_reference("brazlidian", "indian") == 83
    assert matching_blocks_rapidfuzz("indian", "brazlidian") == [(0, 5, 1), (2, 6, 4), (6, 10, 0)]
    assert partial_ratio_from_blocks("indian", "brazlidian", matching_blocks_rapidfuzz) == 91
    assert partial_ratio_optimal("indian", "brazlidian") == pytest.approx(90.909, abs=1e-3)


def test_alexander_vs_rosas_bed_and_breakfast():
    # §0.2: fuzzywuzzy 83, rapidfuzz 90.5 -> the optimal mode accepts, the reference does not
    a, b = "alexander bed and breakfast", "rosas bed and breakfast"
    assert partial_ratio_reference(a, b) == 83
    assert partial_ratio_optimal(a, b) == pytest.approx(90.476, abs=1e-3)
    assert not make_matcher("reference", 90)(a, b)
    assert make_matcher("optimal", 90)(a, b)


@pytest.mark.parametrize(
    "a, b",
    [
        ("asian oriental", "asian"),  # §6: fuzzy matching is substring-like
        ("london kings cross", "london"),
        ("london liverpool street", "london"),
        ("the cambridge chop house", "the"),
    ],
)
def test_substring_scores_100(a, b):
    assert partial_ratio_reference(a, b) == 100
    assert partial_ratio_reference(b, a) == 100


# --- steps 1-3 ------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["reference", "optimal"])
def test_equality_and_empty(mode):
    assert partial_ratio("abc", "abc", mode) == 100
    assert partial_ratio("", "", mode) == 100  # equality is checked before emptiness
    assert partial_ratio("", "abc", mode) == 0
    assert partial_ratio("abc", "", mode) == 0


def test_unknown_mode():
    with pytest.raises(ConfigError, match="matching mode"):
        partial_ratio("a", "b", "fuzzy")
    with pytest.raises(ConfigError, match="matching mode"):
        make_matcher("exact")


def test_argument_order_only_matters_for_equal_lengths():
    # different lengths: the shorter string is 'short' whatever the order
    assert partial_ratio_reference("indian", "brazlidian") == partial_ratio_reference(
        "brazlidian", "indian"
    )
    # equal lengths: the first argument is 'short' (step 3), and the edit script direction
    # changes the windows (regression values of this implementation)
    assert partial_ratio_reference("cbaddac", "dadcaab") == 43
    assert partial_ratio_reference("dadcaab", "cbaddac") == 46


# --- step 6: round half to even on the double -----------------------------------------------


@pytest.mark.parametrize(
    "a, b, exact, expected",
    [
        ("abcdefgh", "axxxxxxx", 12.5, 12),  # 2*1/16
        ("abcdefgh", "abcxxxxx", 37.5, 38),  # 2*3/16
        ("abcdefgh", "abcdexyz", 62.5, 62),  # 2*5/16; int(x + 0.5) would give 63
        ("abcdefgh", "abcdefgx", 87.5, 88),  # 2*7/16
    ],
)
def test_round_half_to_even(a, b, exact, expected):
    lensum = len(a) + len(b)
    assert 100 * ((lensum - Indel.distance(a, b)) / lensum) == exact
    assert partial_ratio_reference(a, b) == expected


# --- the python-Levenshtein 0.12.x edit script ----------------------------------------------


@pytest.mark.parametrize(
    "source, target, ops",
    [
        # substitutions are preferred over an insert/delete pair (rapidfuzz: insert + delete)
        ("ab", "ba", [("replace", 0, 0), ("replace", 1, 1)]),
        # the common prefix is stripped before the backtrace: the insert lands after it
        ("a", "aa", [("insert", 1, 1)]),
        # ... and then the common suffix
        ("ab", "aab", [("insert", 1, 1)]),
        ("", "ab", [("insert", 0, 0), ("insert", 0, 1)]),
        ("ab", "", [("delete", 0, 0), ("delete", 1, 0)]),
        ("same", "same", []),
    ],
)
def test_editops_reference_hand_derived(source, target, ops):
    assert editops_reference(source, target) == ops


def test_reference_script_differs_from_rapidfuzz_where_it_should():
    assert [op.tag for op in Levenshtein.editops("ab", "ba")] != ["replace", "replace"]


def _apply(ops, source, target):
    """Apply an edit script (positions in the original strings) and return the result."""
    out, s = [], 0
    for kind, spos, dpos in ops:
        out.append(source[s:spos])
        s = spos
        if kind == "replace":
            out.append(target[dpos])
            s += 1
        elif kind == "insert":
            out.append(target[dpos])
        else:
            s += 1
    out.append(source[s:])
    return "".join(out)


text = st.text(alphabet="abc d", max_size=14)


@settings(max_examples=400, deadline=None)
@given(text, text)
def test_editops_reference_is_a_minimal_valid_script(source, target):
    ops = editops_reference(source, target)
    assert len(ops) == Levenshtein.distance(source, target)
    assert _apply(ops, source, target) == target


@settings(max_examples=400, deadline=None)
@given(text, text)
def test_matching_blocks_are_matches_with_sentinel(a, b):
    blocks = matching_blocks_reference(a, b)
    assert blocks[-1] == (len(a), len(b), 0)
    for i, j, size in blocks:
        assert a[i : i + size] == b[j : j + size]
    matched = sum(size for _i, _j, size in blocks)
    edits = editops_reference(a, b)
    assert matched == len(a) - sum(1 for kind, _s, _d in edits if kind != "insert")


@settings(max_examples=400, deadline=None)
@given(text, text)
def test_reference_never_exceeds_rounded_optimal(a, b):
    # the reference windows are a subset of those rapidfuzz maximizes over
    ref = partial_ratio_reference(a, b)
    assert 0 <= ref <= 100
    assert isinstance(ref, int)
    assert ref <= partial_ratio_optimal(a, b) + 0.5 + 1e-9


@settings(max_examples=300, deadline=None)
@given(text, text, st.sampled_from([50, 89.5, 90, 95.5, 100]))
def test_reference_matcher_prefilter_is_exact(a, b, threshold):
    accepts = make_matcher("reference", threshold)
    assert accepts(a, b) == (partial_ratio_reference(a, b) >= threshold)
    assert make_matcher("optimal", threshold)(a, b) == (partial_ratio_optimal(a, b) >= threshold)


# --- threshold behaviour around 90 ----------------------------------------------------------


def test_threshold_around_90():
    # reference 90 (rounded) while rapidfuzz's unrounded optimum is 89.66: the modes disagree
    a, b = "express by holiday inn cambridge", "express holiday inn cambridge"
    assert partial_ratio_reference(a, b) == 90
    assert partial_ratio_optimal(a, b) == pytest.approx(89.655, abs=1e-3)
    assert make_matcher("reference", 90)(a, b)
    assert not make_matcher("reference", 91)(a, b)
    assert not make_matcher("optimal", 90)(a, b)
    assert make_matcher("optimal", 89.6)(a, b)
    # 89 is rejected at 90, accepted at 89
    c, d = "cambridge", "bringinghambridge"
    assert partial_ratio_reference(c, d) == 89
    assert not make_matcher("reference", 90)(c, d)
    assert make_matcher("reference", 89)(c, d)
