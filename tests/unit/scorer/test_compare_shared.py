"""``compare_shared`` (``scorer.leaderboard.compare``) with the per-dialogue scoring replaced by
hand-written Inform hits: which evaluator scores which file with which settings, the figures
on the full test set and on the shared dialogues, the drop lines, and the errors of
``--strict`` and of files without a shared dialogue."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

import mwzrepro.stats.bleu_stats as bleu_stats
from mwzrepro.core.errors import InputError
from mwzrepro.scorer.leaderboard import compare as compare_module
from mwzrepro.scorer.leaderboard.compare import SharedComparison, compare_shared
from mwzrepro.stats.params import StatsParams
from mwzrepro.stats.units import DialogueStats

TEST = ("d0", "d1", "d2", "d3")


@pytest.fixture
def scored(monkeypatch):
    """Replaces the scoring: each file is ``{dialogue: Inform hit}``; returns the calls
    ``[(evaluator, file, name, λ, references, drops)]``."""
    calls: list[tuple] = []

    def stats(ctx, data, name, lam, refs, drops=None):
        calls.append((ctx, data, name, lam, refs, drops))
        drops.append(f"{name}: 1 turn dropped")
        ids = tuple(sorted(data))
        counts = np.array([[1, data[d]] for d in ids], dtype=np.int64)
        return {"inform": DialogueStats("inform", name, "ratio", ids, counts, np.ones(1),
                                        100 * counts[:, 1].mean())}

    monkeypatch.setattr(compare_module, "prediction_stats", stats)
    monkeypatch.setattr(bleu_stats, "BleuReferences", lambda refs: ("tokenized", refs))
    return calls


def evaluator(label: str) -> SimpleNamespace:
    return SimpleNamespace(resources=SimpleNamespace(references=label, expected=list(TEST)))


def test_each_file_is_scored_by_its_own_evaluator_on_the_full_test_set(scored):
    ea, eb = evaluator("refs-a"), evaluator("refs-b")
    a, b = dict.fromkeys(TEST, 1), {"d0": 1, "d1": 0, "d2": 0, "d3": 0}
    done = compare_shared((ea, eb), a, b, None, ("A", "B"))
    lam = StatsParams().fga_lambda
    assert scored == [(ea, a, "A", lam, ("tokenized", "refs-a"), scored[0][5]),
                      (eb, b, "B", lam, ("tokenized", "refs-a"), scored[0][5])]
    assert (done.dialogues, done.covered, done.test_dialogues) == (4, (4, 4), 4)
    assert done.drops == ("A: 1 turn dropped", "B: 1 turn dropped")
    assert done.shared_only is False and done.warning(("A", "B")) == ""
    [row] = done.rows
    assert (row.a.point, row.b.point, row.diff) == (100.0, 25.0, 75.0)


def test_the_shared_dialogues_carry_the_figures_and_the_drops(scored):
    e = evaluator("refs")
    a, b = {"d0": 1, "d1": 0, "d2": 1}, {"d1": 1, "d2": 1, "d3": 0}
    done = compare_shared((e, e), a, b, StatsParams(resamples=20, fga_lambda=0.25), ("A", "B"))
    assert [c[3] for c in scored] == [0.25, 0.25]
    assert (done.dialogues, done.covered, done.test_dialogues) == (2, (3, 3), 4)
    assert done.drops == ("A: 1 turn dropped", "B: 1 turn dropped")
    [row] = done.rows
    assert (row.a.point, row.b.point, row.diff) == (50.0, 100.0, -50.0)
    assert done.warning(("A", "B")).startswith(
        "DIFFERENT COVERAGE: A covers 3 and B 3 of the 4 test dialogues; compared on ")


def test_strict_and_no_shared_dialogue_are_errors_naming_both_files(scored):
    e = evaluator("refs")
    with pytest.raises(InputError) as err:
        compare_shared((e, e), {"d0": 1}, dict.fromkeys(TEST, 1), None, ("sysA", "sysB"),
                       strict=True)
    assert str(err.value) == ("sysA covers 1 and sysB 4 of the 4 test dialogues and --strict "
                              "(strict=True) requires both to cover every test dialogue")
    with pytest.raises(InputError) as err:
        compare_shared((e, e), {"d0": 1}, {"d1": 1}, None, ("sysA", "sysB"))
    assert str(err.value) == "sysA and sysB share no test dialogue: nothing to compare"


def test_the_coverage_warning_names_each_file_with_its_own_count():
    done = SharedComparison([], 2, (3, 5), 10)
    assert done.warning(("A", "B")) == (
        "DIFFERENT COVERAGE: A covers 3 and B 5 of the 10 test dialogues; compared on the 2 "
        "dialogues both cover (paired); every figure below is on those dialogues only, not "
        "the files' own scores")


def test_compare_predictions_logs_the_drops_and_the_coverage_warning(monkeypatch, caplog):
    seen = []

    def shared(evaluators, a, b, params, names):
        seen.append(names)
        return SharedComparison(["row"], 2, (3, 5), 10, ("A: 1 turn dropped",))

    monkeypatch.setattr(compare_module, "compare_shared", shared)
    with caplog.at_level("WARNING", logger="mwzrepro"):
        rows = compare_module.compare_predictions(None, {}, {}, None, ("sysA", "sysB"))
    assert rows == ["row"] and seen == [("sysA", "sysB")]
    assert [(r.name, r.getMessage()) for r in caplog.records] == [
        ("mwzrepro", "A: 1 turn dropped"),
        ("mwzrepro", SharedComparison(["row"], 2, (3, 5), 10).warning(("sysA", "sysB")))]
