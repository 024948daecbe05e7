"""Prediction files: validation, coverage, normalization."""

import json

import pytest

from mwzrepro.core.errors import InputError
from mwzrepro.prepare.predictions import parse_predictions

EXPECTED = {"sng0001": 2, "pmul0002": 3}


def test_valid_file_with_missing_dialogue_reports_coverage() -> None:
    data = {"SNG0001.json": [{"response": "the [value_name] is nice ."},
                             {"response": "bye", "state": {"hotel": {"area": "east"}},
                              "active_domains": ["hotel"]}]}
    preds, cov = parse_predictions(data, EXPECTED, "f.json")
    assert preds["dialogue_id"].tolist() == ["sng0001", "sng0001"]
    assert preds["response_norm"].tolist() == ["the NAME is nice.", "bye"]
    assert preds["state_json"].tolist()[1] == '{"hotel":{"area":"east"}}'
    assert preds["active_domains"].tolist() == [None, ["hotel"]]
    assert cov.set_index("dialogue_id")["predicted_turns"].to_dict() == {
        "pmul0002": 0, "sng0001": 2}


def test_unknown_dialogue_ids_are_named() -> None:
    with pytest.raises(InputError, match="f.json: 2 dialogue id.*mul9998, mul9999"):
        parse_predictions({"mul9999": [], "MUL9998": [], "sng0001": []}, EXPECTED, "f.json")


def test_too_many_turns_is_an_error() -> None:
    data = {"sng0001": [{"response": "a"}] * 3}
    with pytest.raises(InputError, match="dialogue sng0001: 3 turns.*2 system turns"):
        parse_predictions(data, EXPECTED, "f.json")


def test_missing_trailing_turns_strict_and_lenient() -> None:
    data = {"pmul0002": [{"response": "a"}]}
    _, cov = parse_predictions(data, EXPECTED)
    assert int(cov.set_index("dialogue_id").loc["pmul0002", "predicted_turns"]) == 1
    with pytest.raises(InputError, match="1 turns"):
        parse_predictions(data, EXPECTED, allow_missing_turns=False)


@pytest.mark.parametrize(("turn", "message"), [
    ({"response": 3}, "turn 0: 'response' must be a string"),
    ({"text": "x"}, "turn 0: 'response' must be a string"),
    ({"response": "x", "state": ["a"]}, "turn 0: 'state' must be an object"),
    ({"response": "x", "active_domains": "hotel"}, "turn 0: 'active_domains' must be a list"),
])
def test_bad_turns_name_dialogue_and_turn(turn, message) -> None:
    with pytest.raises(InputError, match=message):
        parse_predictions({"sng0001": [turn]}, EXPECTED, "f.json")


def test_duplicate_ids_after_lowercasing() -> None:
    with pytest.raises(InputError, match="collide"):
        parse_predictions(json.loads('{"SNG0001": [], "sng0001.json": []}'), EXPECTED)


def test_empty_object_is_an_error() -> None:
    with pytest.raises(InputError, match=r"^f.json: no dialogues"):
        parse_predictions({}, EXPECTED, "f.json")


def test_several_systems_in_one_process_write_what_one_system_writes(tmp_path) -> None:
    """`mwzrepro predictions --input A --input B --out-dir D` writes D/A.parquet,
    D/A.coverage.parquet, ... byte-identical to one call per file with --out/--coverage."""
    import pandas as pd
    from click.testing import CliRunner

    from mwzrepro.cli import cli
    from mwzrepro.core.io import write_table

    turns = pd.DataFrame({"dialogue_id": ["sng0001", "sng0001", "pmul0002"],
                          "turn_id": [1, 3, 1], "speaker": ["system"] * 3,
                          "text": ["a", "b", "c"]})
    write_table(turns, tmp_path / "turns.parquet", "turns")
    files = {
        "one": {"SNG0001": [{"response": "the [value_name] ."}, {"response": "bye"}]},
        "two": {"pmul0002": [{"response": "ok", "state": {"hotel": {"area": "east"}}}]},
    }
    args = []
    for name, data in files.items():
        (tmp_path / f"{name}.json").write_text(json.dumps(data))
        args += ["--input", str(tmp_path / f"{name}.json")]
    runner = CliRunner()
    res = runner.invoke(cli, ["predictions", *args, "--turns", str(tmp_path / "turns.parquet"),
                              "--out-dir", str(tmp_path / "many")])
    assert res.exit_code == 0, res.output
    for name in files:
        single = tmp_path / "single"
        res = runner.invoke(cli, ["predictions", "--input", str(tmp_path / f"{name}.json"),
                                  "--turns", str(tmp_path / "turns.parquet"),
                                  "--out", str(single / f"{name}.parquet"),
                                  "--coverage", str(single / f"{name}.coverage.parquet")])
        assert res.exit_code == 0, res.output
        for suffix in (".parquet", ".coverage.parquet"):
            assert ((tmp_path / "many" / f"{name}{suffix}").read_bytes()
                    == (single / f"{name}{suffix}").read_bytes())
    res = runner.invoke(cli, ["predictions", *args, "--turns", str(tmp_path / "turns.parquet"),
                              "--out", str(tmp_path / "x.parquet"),
                              "--coverage", str(tmp_path / "x.cov.parquet")])
    assert res.exit_code == 2 and "one --input with --out and --coverage" in res.output
