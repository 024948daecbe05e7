"""``--lexicalized`` keeps its promise: ``score FILE --lexicalized`` never delexicalizes a file
that carries placeholders (at least one response in ten): it is scored as it is, exactly as
without the flag, with one line of counts; a lexicalized file with a few placeholders (the
mixed case) is delexicalized whole, also with one line of counts. ``compare`` and a
leaderboard give the same lines."""

from __future__ import annotations

import copy
import json

from tests.unit.scorer.test_cli_score import write
from tests.unit.scorer.test_evaluator import PREDICTIONS
from tests.unit.scorer.test_honest_stdout import LOOKS_LEXICAL
from tests.unit.scorer.test_input_drops import cli  # noqa: F401  (fixture)

#: PREDICTIONS (every response a placeholder) with one "for 6 people" that lex:1 would rewrite.
PLACEHOLDERS = copy.deepcopy(PREDICTIONS)
PLACEHOLDERS["sng9002"][0]["response"] = "booked for 6 people , the number is [taxi_phone] ."


def test_a_file_with_placeholders_is_never_delexicalized_again(cli, tmp_path):
    path = write(tmp_path / "bot.json", PLACEHOLDERS)
    code, out, err = cli("score", path, "--lexicalized", "--format", "json",
                         "--no-result-cache")
    assert code == 0, err
    assert ("bot.json: responses carry placeholders (delexicalized): scored as they are, not "
            "delexicalized again (3 of 3 responses (100.0 %) carry a placeholder, at least "
            "10 %; --form NAME=lexicalized forces it)") in err
    flagged = json.loads(out)
    code, out, _ = cli("score", path, "--format", "json", "--no-result-cache")
    plain = json.loads(out)
    assert "lex:" not in flagged["signatures"]["success"]
    for key in ("bleu", "success", "dst_fga", "signatures"):
        assert flagged[key] == plain[key], key                  # exactly as without the flag


def test_the_mixed_case_follows_one_rule_with_counts():
    """One response in ten with a placeholder is a delexicalized file (kept as it is); fewer
    is a lexicalized file, delexicalized whole; both say their counts."""
    from mwzrepro.scorer.lexicalized.file_form import lexicalized_form

    class Lexicalizing:
        lexicalized = True

    def file(n_placeholders, n):
        return {"d": [{"response": "booked for 6 people , ref [booking_reference] ."}]
                * n_placeholders + [{"response": "Nandos is nice ."}] * (n - n_placeholders)}

    form, line = lexicalized_form(Lexicalizing(), None, file(1, 11), "llm.json")
    assert form is None and line == (
        "llm.json: --lexicalized: 1 of 11 responses (9.1 %) carry a placeholder, fewer than "
        "10 % (a lexicalized file): every response delexicalized, its placeholders read by "
        "their names (spec-standard-evaluation §18.1)")
    form, line = lexicalized_form(Lexicalizing(), None, file(1, 10), "bot.json")
    assert form == {"lexicalized": False}
    assert "(1 of 10 responses (10.0 %) carry a placeholder, at least 10 %" in line
    assert lexicalized_form(Lexicalizing(), None, file(0, 10), "x.json") == (None, None)
    forced = {"lexicalized": True}
    assert lexicalized_form(Lexicalizing(), forced, file(5, 10), "x.json") == (forced, None)


def test_compare_and_leaderboard_give_the_same_counts(cli, tmp_path):
    bot = write(tmp_path / "bot.json", PLACEHOLDERS)
    llm = write(tmp_path / "llm.json", LOOKS_LEXICAL)
    code, _, err = cli("compare", llm, bot, "--lexicalized", "--resamples", "50")
    assert code == 0, err
    assert ("bot.json: responses carry placeholders (delexicalized): compared as they are, not "
            "delexicalized again (3 of 3 responses (100.0 %) carry a placeholder") in err
    code, _, err = cli("score", llm, bot, "--lexicalized")
    assert code == 0, err
    assert ("bot.json: responses carry placeholders (delexicalized): scored as they are, not "
            "delexicalized again (3 of 3 responses (100.0 %) carry a placeholder") in err


def test_no_hint_for_a_file_that_lexicalized_would_keep(cli, tmp_path):
    """One response in ten with a placeholder and the rest lexicalized: the hint's "with
    --lexicalized" figures would not be what the option gives (it keeps the file), so no hint,
    with or without the option."""
    from tests.unit.scorer.test_honest_stdout import LOOKS_LEXICAL

    data = copy.deepcopy(LOOKS_LEXICAL)
    data["sng9002"][0]["response"] += " ref [booking_reference] ."     # 1 of 3
    path = write(tmp_path / "bot.json", data)
    for extra in ((), ("--lexicalized",)):
        code, out, err = cli("score", path, *extra, "--no-result-cache")
        assert code == 0, err
        assert "look lexicalized" not in err and "WARNING" not in out


def test_form_forces_one_file_lexicalized(cli, tmp_path):
    path = write(tmp_path / "bot.json", PLACEHOLDERS)
    code, out, err = cli("score", path, "--lexicalized", "--form", "bot=lexicalized",
                         "--format", "json", "--no-result-cache")
    assert code == 0, err
    assert "not delexicalized again" not in err
    assert "lex:1-pred" in json.loads(out)["signatures"]["success"]
    code, _, err = cli("score", path, "--form", "other=lexicalized")
    assert code == 1 and "no row named 'other'" in err
