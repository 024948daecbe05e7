"""mwzrepro.bleu.score.ReferenceStatistics: each segment's statistics equal sacrebleu's own
(``BLEU._compute_segment_statistics`` after its 13a preprocessing, one reference), on random
token strings with repeated n-grams (hypothesis) and a worked example; the corpus score is
sacrebleu's ``corpus_score``; the direct 13a tokenization equals sacrebleu's."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU

from mwzrepro.bleu.score import _13A_DIRECT, ReferenceStatistics, _bleu, tokens_13a

ORACLE = BLEU()

#: Few distinct words, so n-grams repeat inside and across segments (clipping is exercised).
SEGMENT = st.lists(st.sampled_from(["a", "b", "NAME", "the", ".", "?", "10:00", "é", "a-b"]),
                   max_size=14).map(" ".join)


def oracle_statistics(hypothesis: str, reference: str) -> list[int]:
    info = ORACLE._extract_reference_info([ORACLE._preprocess_segment(reference)])
    return ORACLE._compute_segment_statistics(ORACLE._preprocess_segment(hypothesis), info)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(SEGMENT, SEGMENT), min_size=1, max_size=5))
def test_segment_statistics_equal_sacrebleu(pairs):
    refs = ReferenceStatistics(tuple(("d", i) for i in range(len(pairs))),
                               tuple(ref for _, ref in pairs))
    for i, (hyp, ref) in enumerate(pairs):
        assert refs.segment_statistics(hyp, refs.cache[i]) == oracle_statistics(hyp, ref)
    keys, hyps = [("d", i) for i in range(len(pairs))], [hyp for hyp, _ in pairs]
    ours = refs.score(keys, hyps)
    theirs = BLEU().corpus_score(hyps, [[ref for _, ref in pairs]])
    assert ours.score == theirs.score


def test_worked_example():
    refs = ReferenceStatistics((("d", 0),), ("the the the cat .",))
    # hyp "the the cat ." : 1-grams the×2 (ref 3) cat . → 4 matched of 4; 2-grams the the,
    # the cat, cat . → 3 of 3; 3-grams 2 of 2; 4-gram "the the cat ." 1 of 1.
    assert refs.segment_statistics("the the cat.", refs.cache[0]) == [4, 5, 4, 3, 2, 1,
                                                                       4, 3, 2, 1]
    assert refs.segment_statistics("", refs.cache[0]) == [0, 5, 0, 0, 0, 0, 0, 0, 0, 0]


@pytest.mark.parametrize("hyp", ["a a a a a", "b a b a b a"])
def test_clipped_by_the_reference_count(hyp):
    refs = ReferenceStatistics((("d", 0),), ("a b a",))
    assert refs.segment_statistics(hyp, refs.cache[0]) == oracle_statistics(hyp, "a b a")


#: Characters 13a's rules look at (its punctuation class, dots, commas, dashes, digits,
#: entities, line breaks), letters, other whitespace and non-ASCII characters.
CHARACTERS = st.sampled_from(list("aZ09 .,?!:;-'\"()[]{}|~^_`#$%*+=<>@/\\&\t\n") +
                             ["NAME", "é", "...", "&amp;", "<skipped>", "\u00a0", "中"])


@settings(max_examples=1000, deadline=None)
@given(st.lists(CHARACTERS, max_size=20).map("".join))
def test_direct_13a_tokens_equal_sacrebleu(text):
    assert tokens_13a(_bleu(), text) == ORACLE._preprocess_segment(text).split()


@pytest.mark.parametrize("text, direct", [
    ("you're welcome, good-bye... (NAME)?", True), ("", True), ("a\tb", True),
    ("10: 00.", False), ("b & b", False), ("<skipped>", False), ("a\nb", False),
])
def test_direct_13a_takes_only_digit_free_texts(text, direct):
    assert bool(_13A_DIRECT.fullmatch(text)) is direct
    assert tokens_13a(_bleu(), text) == ORACLE._preprocess_segment(text).split()
