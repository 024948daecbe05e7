"""``mwzrepro score A B ...`` and ``Evaluator.evaluate_many`` on the two-dialogue mwz21 fixture
mirror (issue 32): rows equal the one-file command, comparability marks (``cov:``, ``lex:``)
with no rank and no test, ``--strict`` errors, bad files (one line, nothing written;
``--keep-going``), intervals and paired p-values equal ``Evaluator.compare``'s, formats."""

from __future__ import annotations

import csv
import io
import json

import pytest

from mwzrepro import Evaluator
from mwzrepro.stats.params import StatsParams
from tests.unit.scorer.test_cli_compare import WORSE
from tests.unit.scorer.test_cli_score import run, write
from tests.unit.scorer.test_evaluator import PREDICTIONS
from tests.unit.scorer.test_lexicalized_scoring import LEXICAL

#: Only the first test dialogue: coverage 1/2.
HALF = {"sng9001": PREDICTIONS["sng9001"]}


@pytest.fixture
def files(tmp_path):
    d = tmp_path / "systems"
    d.mkdir()
    return {name: write(d / f"{name}.json", data)
            for name, data in (("base", PREDICTIONS), ("worse", WORSE))}


@pytest.fixture
def score(mini, monkeypatch, capsys, tmp_path):
    def call(*args):
        return run(monkeypatch, capsys, "score", *args, "--mirror", mini["mirror"],
                   "--sources", mini["registry"], "--cache-dir", mini["cache"],
                   "--jobs", "2")
    return call


def test_every_row_equals_the_one_file_command(score, files):
    code, out, err = score(files["base"], files["worse"], "--format", "json")
    assert code == 0, err
    rows = {r["system"]: r for r in json.loads(out)["systems"]}
    assert list(rows) == ["base", "worse"]
    for name, path in files.items():
        code, one, err = score(path, "--format", "json", "--no-result-cache")
        one = json.loads(one)
        main = one["success"]
        assert rows[name]["inform"] == main["inform"]["total"]
        assert rows[name]["success"] == main["success"]["total"]
        assert rows[name]["bleu"] == one["bleu"]["mwz21"]
        assert rows[name]["combined"] == one["combined"]
        assert rows[name]["jga"] == one["dst_fga"]["jga"]
        assert rows[name]["fga"] == one["dst_fga"]["fga"]["0.5"]
        assert rows[name]["signatures"]["success"] == one["signatures"]["success"]
    # worse fails Success on sng9001: 50 % against 100 %; Combined = (100 + 50)/2 + BLEU
    assert rows["worse"]["success"] == 50.0
    assert rows["worse"]["combined"] == pytest.approx(75.0 + rows["worse"]["bleu"])
    assert (rows["base"]["rank"], rows["worse"]["rank"]) == (1, 2)


def test_one_file_output_gains_only_the_combined_line(score, files):
    code, out, _ = score(files["base"], "--no-result-cache")
    assert code == 0
    line = next(x for x in out.splitlines() if x.startswith("combined"))
    bleu = float(next(x for x in out.splitlines() if x.startswith("bleu ")).split()[1])
    assert line.split()[:2] == ["combined", f"{100 + bleu:.1f}"]
    assert line.endswith("= (Inform + Success) / 2 + BLEU")


def test_a_directory_expands_and_names_rename(score, files):
    code, out, err = score(files["base"].parent, "--names", "A,B", "--format", "csv")
    assert code == 0, err
    table = list(csv.DictReader(io.StringIO(out)))
    assert [r["system"] for r in table] == ["A", "B"]
    assert [r["file"] for r in table] == ["base.json", "worse.json"]
    assert float(table[1]["success"]) == 50.0 and table[0]["differs"] == ""
    code, _, err = score(files["base"].parent, "--names", "A")
    assert code == 1 and "--names: 1 names for 2 files" in err


def test_partial_coverage_is_marked_and_has_no_rank_nor_test(score, files, tmp_path):
    half = write(tmp_path / "half.json", HALF)
    code, out, err = score(files["base"], files["worse"], half, "--paired-bs",
                           "--paired-bs-n", "200", "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    rows = {r["system"]: r for r in doc["systems"]}
    assert rows["half"]["differs"] == "cov:1/2" and not rows["half"]["comparable"]
    assert rows["half"]["rank"] is None and rows["half"]["success_p"] is None
    assert rows["worse"]["success_p"] is not None and rows["base"]["success_p"] is None
    assert rows["worse"]["success_significant"] is False      # 1 of 2 dialogues: p ~ 0.17
    assert doc["comparability"]["differing"] == {"cov": ["half"]}
    assert "cov differs (half)" in doc["comparability"]["line"]
    code, text, _ = score(files["base"], files["worse"], half)
    assert "cov:1/2" in text.splitlines()[3] and text.splitlines()[3].split()[-2] == "–"
    assert "not comparable with the other rows (no rank, no paired test): cov differs (half)" \
        in text
    code, out, err = score(files["base"], files["worse"], half, "--strict")
    assert code == 1 and out == ""
    assert err.strip().splitlines()[-1].startswith("mwzrepro: error: half.json: coverage is")


def test_a_lexicalized_file_among_delexicalized_ones_is_marked_lex(score, files, tmp_path):
    llm = write(tmp_path / "llm.json", LEXICAL)
    code, out, err = score(files["base"], files["worse"], llm, "--form", "llm=lexicalized",
                           "--format", "json")
    assert code == 0, err
    rows = {r["system"]: r for r in json.loads(out)["systems"]}
    assert rows["llm"]["differs"] == "lex:1-pred" and rows["llm"]["rank"] is None
    assert rows["llm"]["success"] == 100.0        # delexicalized first: scores as base
    # --lexicalized for every file: the delexicalized ones are scored as they are
    code, out, err = score(files["base"], llm, "--lexicalized", "--format", "json")
    assert code == 0, err
    rows = {r["system"]: r for r in json.loads(out)["systems"]}
    assert rows["base"]["differs"] == "" and "lex:" not in rows["base"]["signatures"]["bleu"]
    assert rows["llm"]["differs"] == "lex:1-pred"
    assert "base.json: responses carry placeholders (delexicalized)" in err
    code, out, err = score(files["base"], llm, "--form", "llm=lexicalized", "--strict")
    assert code == 1 and out == ""
    assert err.strip().splitlines()[-1] == ("mwzrepro: error: rows are not comparable (llm: "
                                           "lex:1-pred) and --strict (strict=True) requires "
                                           "every row to share the signatures")


def test_one_bad_file_stops_the_call_and_nothing_is_written(score, files, tmp_path):
    bad = write(tmp_path / "bad.json", {"pmul9999": [{"response": "hi"}]})
    out_json, per = tmp_path / "board.json", tmp_path / "per"
    code, out, err = score(files["base"], bad, files["worse"], "--out", out_json,
                           "--per-dialogue", per)
    assert code == 1 and out == ""
    assert err.strip().splitlines()[-1] == (
        "mwzrepro: error: bad.json: 1 dialogue id(s) not in the test set: pmul9999")
    assert err.count("mwzrepro: error") == 1 and "Traceback" not in err
    assert not out_json.exists() and not per.exists()
    code, out, err = score(files["base"], bad, files["worse"], "--keep-going", "--out",
                           out_json, "--per-dialogue", per)
    assert code == 0, err
    assert [line.split()[0] for line in out.splitlines()[1:3]] == ["base", "worse"]
    assert "FAILED bad: bad.json: 1 dialogue id(s) not in the test set" in err
    assert json.loads(out_json.read_text())["failures"] == {
        "bad": "bad.json: 1 dialogue id(s) not in the test set: pmul9999"}
    assert sorted(p.name for p in per.iterdir()) == ["base.csv", "worse.csv"]


def test_intervals_and_paired_p_values_are_those_of_compare(mini, tmp_path):
    ev = Evaluator(mirror=mini["mirror"], registry=mini["registry"], cache_dir=mini["cache"],
                   dst=True)
    params = StatsParams(resamples=300, seed=3)
    board = ev.evaluate_many({"base": PREDICTIONS, "worse": WORSE}, ci=True, paired_bs=True,
                             params=params)
    t = board.table.set_index("system")
    pairs = {r.metric: r for r in ev.compare(WORSE, PREDICTIONS, params)}
    for m in ("inform", "success", "bleu", "jga", "fga"):
        assert t.loc["worse", f"{m}_p"] == pairs[m].p, m
        assert t.loc["worse", f"{m}_diff"] == pytest.approx(pairs[m].diff, abs=1e-9)
        assert (t.loc["worse", f"{m}_lower"], t.loc["worse", f"{m}_upper"]) == (
            pairs[m].a.lower, pairs[m].a.upper)
        assert (t.loc["base", f"{m}_lower"], t.loc["base", f"{m}_upper"]) == (
            pairs[m].b.lower, pairs[m].b.upper)
    # one test per metric: Holm over one system leaves p as it is
    assert t.loc["worse", "success_p_adjusted"] == t.loc["worse", "success_p"]
    assert board.results["worse"].to_dict()["success"]["success"]["total"] == 50.0
    assert list(t.columns[:6]) == ["file", "inform", "success", "bleu", "combined", "jga"]


def test_text_markdown_latex_and_the_footer(score, files):
    code, out, err = score(files["base"], files["worse"], "--ci", "--paired-bs",
                           "--paired-bs-n", "200")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split() == ["system", "Inform", "Success", "BLEU", "Combined", "JGA",
                                "FGA(0.5)", "rank"]
    assert lines[1].startswith("base") and "±" in lines[1] and "(p" not in lines[1]
    assert "(p = " in lines[2] or "(p < 0.0001)" in lines[2]
    assert "signatures (every row)" in out and "differs" not in lines[0]
    assert "paired tests: each comparable system − the baseline base; two-sided p (normal), "\
        "holm correction" in out
    assert "95 % percentile intervals, paired bootstrap over the 2 test dialogues (200 " \
        "resamples, seed 0); ± is half the interval width" in out
    code, md, _ = score(files["base"], files["worse"], "--format", "markdown")
    assert md.splitlines()[0] == "| system | Inform | Success | BLEU | Combined | JGA | " \
        "FGA(0.5) | rank |"
    code, tex, _ = score(files["base"], files["worse"], "--format", "latex", "--ci")
    assert tex.startswith(r"\begin{tabular}{lrrrrrrr}") and r"$\pm$" in tex


def test_evaluate_many_by_default_gives_figures_and_ranks_only(mini):
    from mwzrepro import Evaluator
    from mwzrepro.core.errors import InputError

    ev = Evaluator(mirror=mini["mirror"], registry=mini["registry"], cache_dir=mini["cache"])
    board = ev.evaluate_many({"base": PREDICTIONS, "worse": WORSE})
    table = board.table
    assert list(table["system"]) == ["base", "worse"]
    assert not any(c.endswith(("_lower", "_upper", "_p")) for c in table.columns)
    assert list(table.columns).index("rank") == list(table.columns).index("differs") + 1
    assert table["inform"].dtype == "float64"
    with pytest.raises(InputError, match="^no prediction files to score$"):
        ev.evaluate_many({})
