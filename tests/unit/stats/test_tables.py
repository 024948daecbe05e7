"""Table builders and plots of the stats area."""

from __future__ import annotations

import numpy as np

from mwzrepro.stats.bootstrap import Interval, Replicates
from mwzrepro.stats.params import StatsParams
from mwzrepro.stats.plots import plot_bump, plot_significance
from mwzrepro.stats.significance import PairTest
from mwzrepro.stats.tables import adjacent_table, ci_table, significance_matrix, tau_table
from mwzrepro.stats.ranking import compare_rankings
from mwzrepro.stats.units import DialogueStats


def rep(system: str, point: float, lower: float, upper: float) -> Replicates:
    s = DialogueStats("inform", system, "ratio", ("d",), np.array([[1, 1]]), np.ones(1), point)
    return Replicates(s, np.array([point]), Interval(point, lower, upper))


def test_ci_table_prints_plus_minus_half_width():
    results = {"inform": {"augpt": rep("augpt", 76.6, 73.95, 79.25)},
               "fga": {"ubar": rep("ubar", 55.19, 53.87, 56.51)}}
    t = ci_table(results, StatsParams())
    assert t.columns.tolist() == ["system", "Inform", "FGA(0.5)"]
    assert t.to_dict("records") == [
        {"system": "augpt", "Inform": "76.6 ±2.6", "FGA(0.5)": "–"},
        {"system": "ubar", "Inform": "–", "FGA(0.5)": "55.19 ±1.32"}]
    b = ci_table(results, StatsParams(), style="bounds")
    assert b["Inform"][0] == "76.6 [74.0, 79.2]"


def test_adjacent_table_marks_each_step():
    results = {"success": {"a": rep("a", 90.0, 88, 92), "b": rep("b", 80.0, 77, 83),
                           "c": rep("c", 79.5, 77, 82)}}
    steps = {"success": [PairTest("success", "a", "b", 10.0, 6.0, 14.0, 1e-6, 2e-6, True),
                         PairTest("success", "b", "c", 0.5, -0.04, 3.0, 0.7, 0.7, False)]}
    t = adjacent_table(steps, results, StatsParams())
    assert t["system"].tolist() == ["a", "b", "c"]
    assert t["significant"].tolist() == [True, False, None]
    assert t["interval"].tolist() == ["[+6.0, +14.0]", "[+0.0, +3.0]", ""]


def test_matrix_tau_table():
    tests = [PairTest("bleu", "x", "y", 1.234, 0.5, 2.0, 0.001, 0.003, True),
             PairTest("bleu", "x", "z", 0.1, -0.4, 0.6, 0.7, 1.0, False),
             PairTest("bleu", "y", "z", -1.1, -1.9, -0.3, 0.01, 0.02, True)]
    m = significance_matrix(tests, ["x", "y", "z"], 2)
    assert m.set_index("system").loc["z"].tolist() == ["-0.10", "+1.10*", ""]
    comps = compare_rankings("bleu", {"v20": {"x": 3.0, "y": 2.0}, "v21": {"x": 2.0, "y": 3.0}})
    assert tau_table(comps).iloc[0].tolist() == ["BLEU", "v20", "v21", 2, -1.0, 1.0,
                                                 "x 1→2, y 2→1"]


def test_plots_are_byte_identical(tmp_path):
    tests = [PairTest("bleu", "x", "y", 1.2, 0.5, 2.0, 0.001, 0.003, True),
             PairTest("bleu", "x", "z", 0.1, -0.4, 0.6, 0.7, 1.0, False),
             PairTest("bleu", "y", "z", -1.1, -1.9, -0.3, 0.01, 0.02, True)]
    conds = {"mwz20": {"x": 1.0, "y": 2.0, "z": 3.0}, "mwz21": {"x": 3.0, "y": 2.0, "z": 1.0}}
    for run in ("a", "b"):
        plot_significance(tests, ["x", "y", "z"], tmp_path / run / "sig.svg", "BLEU")
        plot_bump(conds, tmp_path / run / "bump.svg", "BLEU")
    for name in ("sig.svg", "bump.svg"):
        data = (tmp_path / "a" / name).read_bytes()
        assert data == (tmp_path / "b" / name).read_bytes()
        assert b"<image" not in data  # vector only
    assert b"+1.2*" in (tmp_path / "a" / "sig.svg").read_bytes()


def test_empty_heat_map(tmp_path):
    plot_significance([], [], tmp_path / "empty.svg", "JGA")
    assert b"no system" in (tmp_path / "empty.svg").read_bytes()
    plot_bump({}, tmp_path / "empty_bump.svg", "JGA")
    assert b"no condition" in (tmp_path / "empty_bump.svg").read_bytes()


def test_heat_map_cell_labels_leave_the_layout_unchanged(tmp_path, monkeypatch):
    """The cell labels are kept out of the layout (faster): with the widest labels, at the
    smallest and at a large grid, the SVG is the same bytes as with them in the layout."""
    from matplotlib.axes import Axes

    def widest(order):
        return [PairTest("bleu", a, b, -100.0, -101.0, -99.0, 0.0, 0.0, True)
                for k, a in enumerate(order) for b in order[k + 1:]]

    grids = {"two": ["a", "b"], "nineteen": [f"system-{k:02d}" for k in range(19)]}
    for name, order in grids.items():
        plot_significance(widest(order), order, tmp_path / "out" / f"{name}.svg", "BLEU")
    original = Axes.text

    def in_layout(self, *args, **kwargs):
        kwargs.pop("in_layout", None)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Axes, "text", in_layout)
    for name, order in grids.items():
        plot_significance(widest(order), order, tmp_path / "in" / f"{name}.svg", "BLEU")
        data = (tmp_path / "out" / f"{name}.svg").read_bytes()
        assert b"-100.0*" in data
        assert data == (tmp_path / "in" / f"{name}.svg").read_bytes()
