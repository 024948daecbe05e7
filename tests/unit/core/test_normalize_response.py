"""Response normalization: spec-standard-evaluation §3 (table §3.2, examples §3.3)."""

from collections import Counter

import pytest

from mwzrepro.core.normalize import SLOT_MAP, normalize_response

SPEC_EXAMPLES = [
    ("there are [value_choice] restaurant -s that meet your criteria .",
     "there are COUNT restaurant that meet your criteria."),
    ("it is [value_pricerange] -ly priced", "it is PRICE priced"),
    ("[value_name]-s are nice", "NAME are nice"),
    ("[restaurant_name]s and [hotel_name]es", "NAME and NAME"),
    ("reference : [value_reference] .", "reference: REFERENCE."),
    ("the train leaves at 10:00 .", "the train leaves at 10: 00."),
    ("is that 9:30 am ?", "is that 9: 30 am?"),
    ("NAME's phone", "name's phone"),
    ("the [attraction name] is", "the is"),
    ("<name> is here", "< name > is here"),
    ("i do n't know", "i do n't know"),
    ("it 's great", "it 's great"),
    ("ok , bye !", "ok, bye!"),
    ("a|b", "a | b"),
    ("hello\tworld\nnew", "hello world new"),
    ("non-smoking room", "nonmoking room"),
]


@pytest.mark.parametrize(("raw", "expected"), SPEC_EXAMPLES)
def test_spec_examples(raw: str, expected: str) -> None:
    assert normalize_response(raw) == expected


def test_slot_map_is_the_complete_table() -> None:
    # §3.2: 130 source names, 19 unified names, notable entries.
    assert len(SLOT_MAP) == 130
    assert len(set(SLOT_MAP.values())) == 19
    assert SLOT_MAP["id"] == "TRAINID" and SLOT_MAP["train"] == "TRAINID"
    assert SLOT_MAP["hospital_id"] == "ID"
    assert SLOT_MAP["duration"] == "TIME" and SLOT_MAP["entrancefee"] == "PRICE"
    assert SLOT_MAP["arrive by"] == "TIME" and SLOT_MAP["openhours"] == "OPEN"
    for unknown in ("hotel", "restaurant", "attraction name", "taxi_arrive", "value_entrancefee"):
        assert unknown not in SLOT_MAP


def test_unknown_placeholders_are_deleted_and_counted() -> None:
    seen: Counter[str] = Counter()
    assert normalize_response("[hotel] and [hotel]s near [value_area]", seen) == "and near AREA"
    assert seen == Counter({"hotel": 2})


def test_suffix_quirks() -> None:
    # Suffix only right after "]"; "[value_count]star" loses its s (§3.1 quirk).
    assert normalize_response("[value_count]star") == "COUNTtar"
    assert normalize_response("[value_name]-es") == "NAME"
    # padded names are not in the table
    assert normalize_response("[ value_name ] x") == "x"


def test_literal_brackets_with_other_characters_stay() -> None:
    # hyphen inside brackets: not a placeholder; Moses escapes and unescapes brackets
    assert normalize_response("[value-name] x") == "[value-name] x"


def test_non_string_is_rejected() -> None:
    with pytest.raises(TypeError):
        normalize_response(None)  # type: ignore[arg-type]
