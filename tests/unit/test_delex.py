"""Span-based delexicalization: spec-standard-evaluation §5.4."""

import pandas as pd

from mwzrepro.prepare.delex.span import build_references, delexicalize


def test_spans_replaced_in_order_of_start() -> None:
    text = "call 01223 at 12 main street"
    spans = [(14, 28, "address", "12 main street"), (5, 10, "phone", "01223")]
    assert delexicalize(text, spans) == "call [phone] at [address]"


def test_overlap_with_accepted_span_is_skipped() -> None:
    text = "the cafe jello gallery"
    spans = [(4, 22, "name", "cafe jello gallery"), (4, 14, "name", "cafe jello"),
             (9, 22, "type", "jello gallery")]
    assert delexicalize(text, spans) == "the [name]"


def test_stable_sort_keeps_source_order_for_equal_starts() -> None:
    text = "x 12345 y"
    assert delexicalize(text, [(2, 7, "phone", "12345"), (2, 7, "postcode", "12345")]) == \
        "x [phone] y"
    assert delexicalize(text, [(2, 7, "postcode", "12345"), (2, 7, "phone", "12345")]) == \
        "x [postcode] y"


def test_dontcare_spans_are_not_delexicalized() -> None:
    text = "any area is fine in the north"
    spans = [(0, 8, "area", "dontcare"), (24, 29, "area", "north")]
    assert delexicalize(text, spans) == "any area is fine in the [area]"


def test_spec_example_with_annotation_errors() -> None:
    # §5.4 illustration (MultiWOZ 2.2 annotation errors included)
    text = ("Cafe jello gallery has a free entrance fee. The address is cafe jello gallery, "
            "13 magdalene street and the post code is cb30af.")
    def at(sub: str, start: int = 0) -> tuple[int, int]:
        i = text.index(sub, start)
        return i, i + len(sub)

    spans = [(*at("Cafe jello gallery"), "address", "x"), (*at("free"), "entrancefee", "free"),
             (*at("cafe jello gallery"), "name", "cafe jello gallery"),
             (*at("13 magdalene street"), "address", "13 magdalene street"),
             (*at("cb30af"), "postcode", "cb30af")]
    delex = delexicalize(text, spans)
    assert delex == ("[address] has a [entrancefee] entrance fee. The address is [name], "
                     "[address] and the post code is [postcode].")
    refs = build_references(
        pd.DataFrame([{"dialogue_id": "d", "turn_id": 1, "speaker": "system", "text": text}]),
        pd.DataFrame([{"dialogue_id": "d", "turn_id": 1, "span_index": i, "start": s, "end": e,
                       "slot": sl, "value": v} for i, (s, e, sl, v) in enumerate(spans)]),
    )
    assert refs.loc[0, "turn"] == 0
    assert refs.loc[0, "reference"] == ("ADDRESS has a PRICE entrance fee. the address is NAME, "
                                        "ADDRESS and the post code is POST.")


def test_real_reference_sng1070(mwz21_test) -> None:
    refs = build_references(mwz21_test["turns"], mwz21_test["spans"])
    assert len(refs) == 7372
    got = refs[refs["dialogue_id"] == "sng1070"].sort_values("turn")["reference"].tolist()
    # The 2.2 reference (spec §5.4) differs only by 2.1's tokenized text ("it 's").
    assert got == ["NAME is on the AREA side of town, would you like their phone number?",
                   "yes, it 's ADDRESS, POST.", "i 'm sorry, PRICE in my system.",
                   "thank you, if you need anything else let me know. good bye."]
