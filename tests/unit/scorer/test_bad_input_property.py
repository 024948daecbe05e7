"""Property (issue 18): random JSON shapes and values thrown at ``Evaluator.evaluate`` and at
``mwzrepro score`` on the two-dialogue fixture mirror give a score or one clear error line —
never a traceback, never a partial output file."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from mwzrepro import Evaluator
from mwzrepro.core.errors import MwzreproError
from tests.unit.scorer.test_cli_score import run

SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(
    max_size=12)
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=12)
#: Texts that exercise the normalization: placeholders of every dialect, brackets, case.
RESPONSES = st.sampled_from(["", " ", "[restaurant_name] is at [restaurant_address] .",
                             "[hotel_ref] [Train-LeaveAt] [value_bookpeople]s",
                             "[de luca] [[x]] ]["]) | st.text(max_size=20)
SLOT_VALUES = (st.text(max_size=8) | st.lists(st.text(max_size=8), max_size=3)
               | st.sampled_from(["4 pm", "ab:30pm", "16:00orlater", "dontcare", "free"])
               | JSON)
STATES = st.dictionaries(st.sampled_from(["restaurant", "taxi", "hotel", "train", "x"]),
                         st.dictionaries(st.sampled_from(["food", "name", "area", "leaveAt",
                                                          "arriveBy", "destination",
                                                          "book people", "stars"]),
                                         SLOT_VALUES, max_size=3), max_size=2) | JSON
TURNS = st.fixed_dictionaries(
    {"response": RESPONSES | JSON},
    optional={"state": STATES, "active_domains": st.lists(
        st.sampled_from(["restaurant", "taxi", "hotel"]), max_size=2) | JSON},
) | RESPONSES | JSON
IDS = st.sampled_from(["sng9001", "SNG9002.json", "sng9002", "pmul0001", ""])
#: Mostly well-formed files (the test set's ids, object turns) reach normalization, states,
#: database queries and the DST metrics; the rest is any JSON.
GOOD_TURNS = st.fixed_dictionaries(
    {"response": RESPONSES},
    optional={"state": STATES, "active_domains": st.lists(
        st.sampled_from(["restaurant", "taxi", "hotel"]), max_size=2)})
NEAR_VALID = st.fixed_dictionaries(
    {"sng9001": st.lists(GOOD_TURNS, min_size=1, max_size=2)},
    optional={"SNG9002.json": st.lists(GOOD_TURNS, max_size=1)})
PREDICTIONS = st.one_of(NEAR_VALID, NEAR_VALID, NEAR_VALID,
                        st.dictionaries(IDS, st.lists(TURNS, max_size=3), max_size=3), JSON)


@pytest.fixture(scope="module")
def shared(mini):
    return Evaluator(mirror=mini["mirror"], registry=mini["registry"], cache_dir=mini["cache"],
                     dst=True, setting="both")


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=PREDICTIONS)
@example(data={"\n": None})  # an id with a line break, found by this property
def test_evaluate_gives_a_result_or_one_line(shared, data):
    result_or_one_line(lambda: shared.evaluate(data, source="random.json"))


def result_or_one_line(call):
    """Run ``call``: its result's ``to_dict()`` is plain JSON-ready data, or it raised one
    :class:`MwzreproError` of one line (hypothesis events name which)."""
    try:
        result = call()
    except MwzreproError as err:
        message = str(err)
        assert message and "\n" not in message
        event(f"error: {message.split(': ')[1][:25]}")
        return
    event("scored")
    json.dumps(result.to_dict())


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=PREDICTIONS)
def test_score_command_never_writes_a_partial_file(mini, monkeypatch, capsys, tmp_path, data):
    pred, out = tmp_path / "random.json", tmp_path / "result.json"
    pred.write_text(json.dumps(data), encoding="utf-8")
    out.unlink(missing_ok=True)
    code, stdout, err = run(monkeypatch, capsys, "score", pred, "--mirror", mini["mirror"],
                            "--sources", mini["registry"], "--cache-dir", mini["cache"],
                            "--no-result-cache", "--out", out)
    assert "Traceback" not in err
    event("scored" if code == 0 else "error")
    if code == 0:
        assert json.loads(out.read_text(encoding="utf-8"))["input"] == "random.json"
    else:
        assert code == 1 and stdout == "" and not out.exists()
        assert err.count("mwzrepro: error: ") == 1
