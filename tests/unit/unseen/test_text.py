"""String machinery of the unseen-entity test set (spec-unseen-entity-test-set §4.2, §8.1-8.2;
N of spec-annotation-consistency §4.2)."""

from __future__ import annotations

from mwzrepro.unseen.text import (
    find_many,
    find_words,
    index_patterns,
    is_empty_or_dontcare,
    is_tokenised,
    key,
    match_case,
    norm,
    nword,
    span_of,
    tokenise_like,
    view,
)


def test_key_lowercases_normalises_apostrophes_and_spaces():
    assert key("  Best  Western\u2019s Inn ") == "best western's inn"
    assert key("Best Western of Long Beach") == "best western of long beach"


def test_norm_examples_of_the_consistency_spec():
    # §4.2: tokenised possessives, &, guesthouse, b and b
    assert norm("christ 's college") == " christs college "
    assert norm("Christ's College") == " christs college "
    assert norm("Alexander B & B") == " alexander bed and breakfast "
    assert norm("alexander b and b") == " alexander bed and breakfast "
    assert norm("Arbury Lodge Guesthouse") == " arbury lodge guest house "
    assert norm("alpha-milton guest house") == " alpha milton guest house "
    assert norm("") == " "


def test_nword_is_word_bounded_and_normalised():
    assert nword("I need a train to Cambridge .", "cambridge")
    assert not nword("the cambridgeshire hills", "cambridge")
    assert nword("we stay at christ 's college", "christ's college")
    assert not nword("anything", "")


def test_view_offsets_point_at_original_text():
    text = "Book the Acorn Guesthouse , B & B style"
    words = view(text)
    assert [w.text for w in words] == ["book", "the", "acorn", "guest", "house", "bed", "and",
                                       "breakfast", "style"]
    g = [w for w in words if w.text in ("guest", "house")]
    assert text[g[0].start:g[0].end] == "Guesthouse" == text[g[1].start:g[1].end]
    bb = [w for w in words if w.text in ("bed", "breakfast")]
    assert text[bb[0].start:bb[1].end] == "B & B"


def test_find_words_does_not_split_an_expansion():
    words = view("a guesthouse here")
    assert find_words(words, ("guest", "house")) == [(1, 3)]
    assert find_words(words, ("guest",)) == []  # would split "guesthouse"
    assert find_words(view("a guest room"), ("guest",)) == [(1, 2)]


def test_possessive_stays_outside_the_mention():
    text = "Cambridge 's best hotel and Cambridge's river"
    words = view(text)
    hits = find_many(words, index_patterns([("cambridge",)]), possessive=True)
    spans = [span_of(words, i, j, p) for i, j, p in hits]
    assert [text[s:e] for s, e in spans] == ["Cambridge", "Cambridge"]
    # without the possessive option the joined word does not match
    assert find_many(words, index_patterns([("cambridge",)])) == []


def test_match_case_follows_the_mention():
    assert match_case("ely", "Long Beach") == "long beach"
    assert match_case("ELY", "Long Beach") == "LONG BEACH"
    assert match_case("Ely", "Long Beach") == "Long Beach"
    assert match_case("eLy", "Best Western") == "Best Western"


def test_tokenise_like_multiwoz_21():
    assert tokenise_like("Joe's Crab Shack") == "Joe 's Crab Shack"
    assert tokenise_like("Acme Inc.") == "Acme Inc ."
    assert tokenise_like("Long Beach") == "Long Beach"


def test_is_tokenised_detects_convlab_text():
    assert is_tokenised(["I need a train .", "ok"])
    assert is_tokenised(["christ 's college"])
    assert not is_tokenised(["I need a train.", "Fine, thanks"])


def test_dontcare_and_empty_values_are_never_entities():
    for v in ("dontcare", "dont care", "don't care", "do n't care", " DontCare ", "", "none",
              "not mentioned"):
        assert is_empty_or_dontcare(v), v
    assert not is_empty_or_dontcare("cambridge")
