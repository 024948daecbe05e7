"""Placeholder and state dialects under ``placeholders=extended`` (issue 28) on the
two-dialogue mwz21 fixture mirror: a file in the descriptive placeholder dialect scores as the
same file with unified names; state-name variants score as their unified form; unknown
predicted-state domains and slots give one warning line each with counts; the extended line
of a reference run (rescoring only what changes) equals a run with extended."""

from __future__ import annotations

import copy

import pytest

from tests.unit.scorer.test_evaluator import PREDICTIONS, evaluator

#: PREDICTIONS in the descriptive dialect of LLM prompts, and the same file with unified names.
DESCRIPTIVE = {
    "sng9001": [
        {**PREDICTIONS["sng9001"][0], "response": "[restaurant_name] is at [street_address] ."},
        {**PREDICTIONS["sng9001"][1], "response": "the postcode is [postal_code] , your "
         "reference is [reference_number] for [booking_people] people ."},
    ],
    "sng9002": [{**PREDICTIONS["sng9002"][0], "response": "booked , call [phone_number] , "
                 "it takes [travel_time] , [booking_day] ."}],
}
UNIFIED = {
    "sng9001": [
        {**PREDICTIONS["sng9001"][0], "response": "[restaurant_name] is at [address] ."},
        {**PREDICTIONS["sng9001"][1], "response": "the postcode is [postcode] , your "
         "reference is [reference] for [bookpeople] people ."},
    ],
    "sng9002": [{**PREDICTIONS["sng9002"][0], "response": "booked , call [phone] , "
                 "it takes [duration] , [bookday] ."}],
}


def _states(data, states):
    out = copy.deepcopy(data)
    for did, turns in out.items():
        for turn, state in zip(turns, states[did]):
            turn["state"] = state
    return out


#: States in variant spellings (2.2 names, separators, camel case) and their unified form.
VARIANT_STATES = _states(PREDICTIONS, {
    "sng9001": [{"restaurant": {"food_type": "chinese", "price_range": "cheap",
                                "area": "centre", "book_day": "monday"}}] * 2,
    "sng9002": [{"taxi": {"leave_at": "17:15", "destination": "ballare"}}],
})
UNIFIED_STATES = _states(PREDICTIONS, {
    "sng9001": [{"restaurant": {"food": "chinese", "pricerange": "cheap", "area": "centre",
                                "bookday": "monday"}}] * 2,
    "sng9002": [{"taxi": {"leaveAt": "17:15", "destination": "ballare"}}],
})


def _numbers(result):
    d = result.to_dict()
    return {k: d[k] for k in ("bleu", "success", "richness", "dst", "dst_fga") if k in d}


@pytest.fixture(scope="module")
def scorers(mini):
    return {p: evaluator(mini, dst=True, placeholders=p) for p in ("reference", "extended")}


def test_descriptive_dialect_scores_as_unified_names_under_extended(scorers):
    ext = scorers["extended"]
    descriptive = ext.evaluate(DESCRIPTIVE, source="d.json")
    unified = ext.evaluate(UNIFIED, source="u.json")
    assert _numbers(descriptive) == _numbers(unified)
    assert descriptive.signatures() == unified.signatures()
    assert descriptive.unknown_placeholders == {} and descriptive.warnings == ()
    assert descriptive.success["standard"].success["total"] == 100.0
    ref = scorers["reference"].evaluate(DESCRIPTIVE, source="d.json")
    assert ref.success["standard"].success["total"] == 0.0      # all deleted under reference
    figures = ref.placeholders_extended
    assert (figures.inform, figures.success, figures.bleu) == (
        descriptive.success["standard"].inform["total"], 100.0, descriptive.bleu.score)
    assert figures.placeholders == {"booking_day": 1, "booking_people": 1,
                                    "phone_number": 1, "postal_code": 1,
                                    "reference_number": 1, "street_address": 1,
                                    "travel_time": 1}


def test_state_variants_equal_their_unified_form_under_extended(scorers, caplog):
    ext = scorers["extended"]
    variant = ext.evaluate(VARIANT_STATES, source="v.json")
    unified = ext.evaluate(UNIFIED_STATES, source="u.json")
    assert _numbers(variant) == _numbers(unified)
    # the state-based signatures say ph:ext only where extended changed a state
    assert "|ph:ext|" in variant.signatures()["dst"] and "ph:" not in unified.signatures()["dst"]
    assert {k: v for k, v in variant.signatures().items() if not k.startswith("dst")} == \
        {k: v for k, v in unified.signatures().items() if not k.startswith("dst")}
    assert variant.warnings == (
        "v.json: predicted states name slots the ontology does not know; "
        "placeholders=extended: restaurant-book_day → bookday (×2 turns), restaurant-food_type"
        " → food (×2 turns), restaurant-price_range → pricerange (×2 turns), taxi-leave_at → "
        "leave (×1 turns)",)
    ref = scorers["reference"].evaluate(VARIANT_STATES, source="v.json")
    assert ref.warnings[0].startswith("v.json: predicted states name slots the ontology does "
                                      "not know, scored as given")
    assert "restaurant-food_type ×2 turns" in ref.warnings[0]
    # under reference the variants change the numbers; the extended line says so, and its
    # figures are those of the extended run
    assert ref.dst.joint_accuracy < variant.dst.joint_accuracy
    line = ref.warnings[1]
    assert line.startswith(f"v.json: with placeholders=extended: Inform "
                           f"{variant.success['standard'].inform['total']:.1f}, Success "
                           f"{variant.success['standard'].success['total']:.1f}, BLEU "
                           f"{variant.bleu.score:.1f}, JGA {variant.dst.joint_accuracy:.1f} "
                           "(states: restaurant-book_day → bookday ×2 turns, ")
    assert ref.placeholders_extended.inform == variant.success["standard"].inform["total"]
    assert ref.placeholders_extended.jga == variant.dst.joint_accuracy


@pytest.mark.parametrize("extra, warning, kind", [
    ({"restuarant": {"food": "indian"}}, "restuarant ×3 turns", "domains"),
    ({"hotel": {"colour": "red"}}, "hotel-colour ×3 turns", "slots"),
])
def test_unknown_state_names_are_never_silent(scorers, extra, warning, kind):
    """The issue's experiments: a misspelled domain, an unknown slot on every turn."""
    data = copy.deepcopy(PREDICTIONS)
    for turns in data.values():
        for turn in turns:
            turn["state"] = {**turn["state"], **copy.deepcopy(extra)}
    ref = scorers["reference"].evaluate(data, source="x.json")
    lines = [w for w in ref.warnings if "predicted states name" in w]
    assert lines == [f"x.json: predicted states name {kind} the ontology does not know, scored "
                     "as given (as the reference evaluator does; placeholders=extended "
                     f"resolves or ignores them): {warning}"]
    ext = scorers["extended"].evaluate(data, source="x.json")
    clean = scorers["extended"].evaluate(PREDICTIONS, source="x.json")
    if kind == "slots":                    # ignored under extended: the clean file's numbers
        assert _numbers(ext) == _numbers(clean)
        assert ext.warnings == ("x.json: predicted states name slots the ontology does not "
                                "know; placeholders=extended: hotel-colour ignored "
                                "(×3 turns)",)
    else:                                  # resolved into restaurant
        assert ext.warnings == ("x.json: predicted states name domains the ontology does not "
                                "know; placeholders=extended: restuarant → restaurant "
                                "(×3 turns)",)
        # sng9001's restaurant keeps the food it gives (chinese: a given name wins), so it
        # matches as in the clean file (turn 0); sng9002's taxi turn gains food=indian
        assert ref.dst.joint_accuracy == 0.0
        assert ext.dst.joint_accuracy == pytest.approx(100 / 3)
    figures = ref.placeholders_extended
    assert (figures.inform, figures.success, figures.bleu, figures.jga) == (
        ext.success["standard"].inform["total"], ext.success["standard"].success["total"],
        ext.bleu.score, ext.dst.joint_accuracy)


def test_public_spellings_of_states_give_no_warning(scorers):
    """The mwzeval booking names the published systems write are known (no warning)."""
    data = _states(PREDICTIONS, {
        "sng9001": [{"restaurant": {"food": "chinese", "people": "2", "day": "monday",
                                    "time": "12:00", "price range": "cheap"}}] * 2,
        "sng9002": [{"taxi": {"arriveBy": "17:15", "leave at": "16:00"}}],
    })
    assert scorers["reference"].evaluate(data).warnings == ()


@pytest.mark.parametrize("setting", ["optimistic", "both"])
def test_the_rescoring_holds_in_every_setting_and_without_the_run_blocks(mini, setting):
    """The extended line's figures (first setting) equal an extended run's, whether the
    second pass reuses the run's per-dialogue rows and BLEU statistics or rescores in full."""
    from mwzrepro.scorer.dialects.placeholder_pass import extended_pass

    ref = evaluator(mini, setting=setting)
    ext = evaluator(mini, setting=setting, placeholders="extended")
    data = _states(DESCRIPTIVE, {"sng9001": [{"restaurant": {"food_type": "chinese"}}] * 2,
                                 "sng9002": [{"taxi": {"leave_at": "17:15"}}]})
    first = ref.settings[0]
    got = ext.evaluate(data)
    want = (got.success[first].inform["total"], got.success[first].success["total"],
            got.bleu.score)
    figures = ref.evaluate(data).placeholders_extended
    assert (figures.setting, figures.inform, figures.success, figures.bleu) == (first, *want)
    preds, prep, coverage, *_ = ref._prepare(data, "x.json")
    full = extended_pass(ref, preds, prep, "x", coverage)          # no blocks: in full
    assert (full.inform, full.success, full.bleu) == want


@pytest.mark.parametrize("dst", [False, True])
def test_grounded_alone_rescores_what_it_can(mini, dst):
    """Regression: with ``setting="grounded"`` alone an unknown state name on a lexicalized
    file raised KeyError('grounded') (the grounded setting has no per-dialogue rows to
    rescore). Inform/Success are not rescored; BLEU (and JGA) equal an extended run's."""
    from tests.unit.scorer.test_lexicalized_scoring import LEXICAL

    data = copy.deepcopy(LEXICAL)
    for turns in data.values():
        for turn in turns:
            turn["state"] = {"restuarant": {"food": "chinese"}}
    kw = {"lexicalized": True, "setting": "grounded", "dst": dst}
    ref = evaluator(mini, **kw).evaluate(data, source="g.json")
    ext = evaluator(mini, placeholders="extended", **kw).evaluate(data)
    figures = ref.placeholders_extended
    assert (figures.setting, figures.inform, figures.success, figures.bleu) == (
        "grounded", None, None, ext.bleu.score)
    assert figures.states == {"restuarant → restaurant": 3}
    assert figures.jga == (ext.dst.joint_accuracy if dst else None)
    line = next(w for w in ref.warnings if "with placeholders=extended" in w)
    assert line == figures.line("g.json")
    assert line.startswith(f"g.json: with placeholders=extended: BLEU {ext.bleu.score:.1f}")


def test_a_lexicalized_file_gets_the_hint_with_the_lexicalized_figures(mini):
    """Detector (mwzrepro.scorer.lexicalized.detect): no placeholder in 3 of 3 responses, a
    venue or phone named in 2 of 3; the figures are those of lexicalized=True."""
    from tests.unit.scorer.test_lexicalized_scoring import LEXICAL

    data = copy.deepcopy(LEXICAL)
    data["sng9001"][0]["response"] = "Dojo Noodle Bar is at a2 ."
    result = evaluator(mini).evaluate(data, source="llm.json")
    lex = evaluator(mini, lexicalized=True).evaluate(data)
    assert result.warnings == (
        "llm.json: responses look lexicalized (100.0% carry no placeholder; 66.7% name a "
        "database venue, a phone number or a booking reference); with --lexicalized: "
        f"Inform {lex.success['standard'].inform['total']:.1f}, Success "
        f"{lex.success['standard'].success['total']:.1f}, BLEU {lex.bleu.score:.1f} "
        "(lex:1-pred; scored here without it)",)
    small_talk = {did: [{"response": "how can i help ?"} for _ in turns]
                  for did, turns in data.items()}
    assert evaluator(mini).evaluate(small_talk).warnings == ()     # no values named
    assert evaluator(mini).evaluate(PREDICTIONS).warnings == ()    # placeholders
    assert evaluator(mini, lexicalized=True).evaluate(data).warnings == ()
