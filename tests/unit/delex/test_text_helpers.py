"""Word pairs (mapping.pair format) and the original MultiWOZ text normalization."""

from __future__ import annotations

import pytest

from mwzrepro.core.errors import InputError
from mwzrepro.prepare.delex.multiwoz_text import detokenize_clitics, normalize_text, space_around
from mwzrepro.prepare.delex.word_pairs import (parse_word_pairs, read_word_pairs,
                                               substitute_word_pairs)


def test_parse_and_read_word_pairs(tmp_path):
    path = tmp_path / "mapping.pair"
    path.write_bytes(b"it 's\tit is\r\nhotels\thotel -s\n\n")
    assert read_word_pairs(path) == (("it 's", "it is"), ("hotels", "hotel -s"))
    assert read_word_pairs(None) == ()
    with pytest.raises(InputError, match="line 1"):
        parse_word_pairs("no tab here\n", "x.pair")
    with pytest.raises(InputError, match="cannot read"):
        read_word_pairs(tmp_path / "missing.pair")


def test_substitution_is_word_bounded_in_order():
    pairs = (("hotels", "hotel -s"), ("hotel -s", "lodging"))
    assert substitute_word_pairs("hotels and motels", pairs) == "lodging and motels"
    assert substitute_word_pairs("superhotels", pairs) == "superhotels"


@pytest.mark.parametrize("raw, out", [
    ("The B&B costs 5.50 pounds.", "the bed and breakfast costs 5.50 pounds ."),
    ("Leave at 10:15 - or 11:00!", "leave at 1015 or 1100 !"),
    ("Post code: CB2 1TN, phone 01223 351880", "post code cb21tn , phone 01223351880"),
    ("it's John's", "it s john s"),
    ("'quoted' (x)", "quoted x"),
])
def test_normalize_text(raw, out):
    assert normalize_text(raw) == out


def test_normalize_text_pairs_then_guesthouses():
    assert normalize_text("you're in guesthouses", [("you're", "you are")]) == \
        "you are in guesthouse -s"


def test_space_around_and_clitics():
    assert space_around(",", "a,b 1,000") == "a , b 1,000"
    assert detokenize_clitics("i do n't know , you 're right , it 's") == \
        "i don't know , you're right , it's"
