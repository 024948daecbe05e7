"""Mutation check of the metric tests (issue 31): does the fast tier fail when a metric breaks?

Each mutant below is one hand-written, single-line change to a module of ``src/mwzrepro``:
the three that survived or barely died in the issue-31 audit (the build lock, the state-match
threshold, a 90 % interval reported as 95 %) and a few more on the metric modules (Inform /
Success, the venue matcher, JGA / FGA / slot accuracy, BLEU's clipped counts, the bootstrap
draws, Holm's correction, slot F1). For each mutant the script

1. applies the change to a **copy** of ``src/`` in a temporary directory (the checkout is
   never written: an interrupt, even ``kill -9``, cannot leave a mutant behind; the copy is
   restored after each mutant in a ``finally`` and removed at the end);
2. runs the fast tier on it (``PYTHONPATH`` puts the copy before the editable install): by
   default the unit tests of the mutant's area plus the doctests of its package, with
   ``--full`` the whole ``make test-fast`` selection (``-m "not mirror and not slow and not
   services" tests/unit src``);
3. prints a row: killed (and by which tests, unit tests first), survived, or not applicable
   (the line to mutate is gone: the module changed; update the mutant).

A baseline run of the same selection on the unmutated copy must pass first.

``--repeat N`` runs each selected mutant's *witness* (the test written to kill it) N times,
one process each, and counts the failures: ``--only lock-noop --repeat 20`` is the evidence
that the build-lock test fails every time without the lock.

Usage::

    .venv/bin/python benchmarks/mutants.py                 # every mutant, area tests
    .venv/bin/python benchmarks/mutants.py --full          # every mutant, whole fast tier
    .venv/bin/python benchmarks/mutants.py --only lock-noop --repeat 20
    .venv/bin/python benchmarks/mutants.py --list
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
#: ``make test-fast``'s selection.
FAST = ["-m", "not mirror and not slow and not services"]


@dataclass(frozen=True)
class Mutant:
    """One single-line change: ``old`` (exactly once in ``path``, relative to
    ``src/mwzrepro``) becomes ``new``; ``tests`` are the area's unit tests; ``witness`` is the
    test written to kill it."""

    name: str
    path: str
    old: str
    new: str
    tests: tuple[str, ...]
    witness: str
    what: str


MUTANTS = (
    # -- the audit's survivors (issue 31) -------------------------------------------------
    Mutant("lock-noop", "scorer/resources/cache.py",
           "return FileLock(str(path), timeout=LOCK_TIMEOUT)",
           'return (path.touch(), __import__("contextlib").nullcontext())[1]',
           ("tests/unit/scorer/test_cache.py",),
           "tests/unit/scorer/test_cache.py::test_lock_serializes_builders",
           "build_lock creates the lock file but never locks it (a no-op context manager)"),
    Mutant("state-match-ge", "standard/state_match.py",
           "return partial_ratio(a, b, matching) > threshold",
           "return partial_ratio(a, b, matching) >= threshold",
           ("tests/unit/standard",),
           "tests/unit/standard/test_state_match.py::"
           "test_a_score_equal_to_the_threshold_does_not_match",
           "state-match fuzzy threshold > becomes >="),
    Mutant("ci-90-as-95", "stats/bootstrap.py",
           "[(1 - confidence) / 2, (1 + confidence) / 2]",
           "[(1 - confidence), confidence]",
           ("tests/unit/stats",),
           "tests/unit/stats/test_bootstrap.py::test_pinned_bounds_of_a_fixed_seed_at_95_percent",
           "the 5th/95th percentiles (a 90 % interval) reported at 95 %"),
    Mutant("ci-default-90", "stats/bootstrap.py",
           "def replicate(self, stats: DialogueStats, confidence: float = 0.95)",
           "def replicate(self, stats: DialogueStats, confidence: float = 0.90)",
           ("tests/unit/stats",),
           "tests/unit/stats/test_bootstrap.py::test_pinned_bounds_of_a_fixed_seed_at_95_percent",
           "Resampler.replicate's default level 0.95 becomes 0.90"),
    # -- more on the metric modules ---------------------------------------------------------
    Mutant("state-match-equal-ge", "standard/state_match.py",
           "equal_matches = 100 > threshold", "equal_matches = 100 >= threshold",
           ("tests/unit/standard",),
           "tests/unit/standard/test_state_match.py::"
           "test_equal_values_match_unless_threshold_is_100_and_none_never_matches",
           "equal values match at threshold 100"),
    Mutant("slot-f1-no-2", "standard/state_match.py",
           '"slot_f1": 2 * precision * recall', '"slot_f1": precision * recall',
           ("tests/unit/standard",),
           "tests/unit/standard/test_state_match.py::test_perfect_prediction",
           "slot F1 without the factor 2"),
    Mutant("inform-any-domain", "standard/inform_success.py",
           'inform["total"] = all(inform.values())', 'inform["total"] = any(inform.values())',
           ("tests/unit/standard", "tests/unit/scorer/test_trace.py"),
           "tests/unit/standard/test_inform_success.py",
           "Inform when any goal domain is informed"),
    Mutant("inform-superset", "standard/inform_success.py",
           "else set(venues) <= goal_venues", "else set(venues) >= goal_venues",
           ("tests/unit/standard", "tests/unit/scorer/test_trace.py"),
           "tests/unit/standard/test_inform_success.py",
           "offered venues must include the goal venues instead of lying among them"),
    Mutant("success-without-inform", "standard/inform_success.py",
           'if inform["total"]:\n', "if inform:\n",
           ("tests/unit/standard", "tests/unit/scorer/test_trace.py"),
           "tests/unit/standard/test_inform_success.py",
           "Success counted when Inform failed"),
    Mutant("venue-match-gt", "core/fuzzy.py",
           "return partial_ratio_reference(db_value, query) >= threshold",
           "return partial_ratio_reference(db_value, query) > threshold",
           ("tests/unit/core/test_fuzzy.py", "tests/unit/standard"),
           "tests/unit/core/test_fuzzy.py",
           "venue matcher (reference mode) >= becomes >"),
    Mutant("jga-m2", "dst/corpus.py", "jga=m1 / n", "jga=m2 / n",
           ("tests/unit/dst",), "tests/unit/dst/test_metrics.py",
           "JGA counts TYPE2 turns as exact"),
    Mutant("fga-weight-exp", "dst/metrics.py",
           "return -math.expm1(-lam * x)", "return math.exp(-lam * x)",
           ("tests/unit/dst",), "tests/unit/dst/test_metrics.py",
           "FGA weight e^(-λx) instead of 1 - e^(-λx)"),
    Mutant("fga-no-r1", "dst/metrics.py",
           '(variant == "scripts" and out[t - 1][0] == "EXACT")',
           '(variant == "scripts" and out[t - 1][0] == "TYPE1")',
           ("tests/unit/dst",), "tests/unit/dst/test_metrics.py",
           "FGA rule R1 looks at the wrong previous kind"),
    Mutant("sa-per-turn", "dst/corpus.py",
           "sa = 1 - wrong / (N_SLOTS * n)", "sa = 1 - wrong / (N_SLOTS * n + 1)",
           ("tests/unit/dst",), "tests/unit/dst/test_metrics.py",
           "slot accuracy's denominator off by one"),
    Mutant("bleu-unclipped", "bleu/score.py",
           "+= count if count < matched else matched", "+= count",
           ("tests/unit/bleu", "tests/unit/scorer/test_evaluator.py"),
           "tests/unit/bleu/test_segment_statistics.py",
           "BLEU n-gram matches not clipped by the reference counts"),
    Mutant("bleu-totals", "bleu/score.py",
           "*(max(hyp_len - n, 0) for n in range(4))",
           "*(max(hyp_len - n + 1, 0) for n in range(4))",
           ("tests/unit/bleu", "tests/unit/scorer/test_evaluator.py"),
           "tests/unit/bleu/test_segment_statistics.py",
           "BLEU n-gram totals one too many"),
    Mutant("bootstrap-draw-range", "stats/bootstrap.py",
           "draws = rng.integers(0, n, size=(resamples, n))",
           "draws = rng.integers(0, max(n - 1, 1), size=(resamples, n))",
           ("tests/unit/stats",), "tests/unit/stats/test_bootstrap.py",
           "bootstrap never draws the last dialogue"),
    Mutant("holm-as-bonferroni", "stats/significance.py",
           "min(1.0, (m - rank) * pvalues[i])", "min(1.0, m * pvalues[i])",
           ("tests/unit/stats",), "tests/unit/stats/test_significance.py",
           "Holm's step-down multiplies every p by m (Bonferroni)"),
)


class Interrupted(Exception):
    """SIGTERM, turned into an exception so that every ``finally`` runs."""


def _on_term(signum, frame):  # noqa: ARG001
    raise Interrupted(f"signal {signum}")


def pytest_run(src: Path, args: list[str], jobs: str, timeout: int) -> tuple[int, list[str],
                                                                              float]:
    """``(exit code, failing node ids, seconds)`` of pytest on ``args`` with ``src`` (the
    mutated copy of src/) first on the import path."""
    env = dict(os.environ, PYTHONPATH=str(src), PYTHONDONTWRITEBYTECODE="1")
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rfE",
           "--rootdir", str(REPO), "-c", str(REPO / "pyproject.toml"),
           "-n", jobs, *args]
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=timeout)
    seconds = time.perf_counter() - start
    failed = [m.group(2) for m in re.finditer(r"^(FAILED|ERROR) (.+?)(?: - .*)?$", done.stdout,
                                                 re.M)]
    return done.returncode, failed, seconds


def selection(m: Mutant | None, src: Path, full: bool) -> list[str]:
    """The tests of a run: the whole fast tier, or the mutant's area tests and the doctests of
    the mutated module's package (every selected mutant's, for the baseline)."""
    if full:
        return [*FAST, "tests/unit", str(src)]
    chosen = MUTANTS if m is None else (m,)
    tests = dict.fromkeys(t for x in chosen for t in x.tests)
    # the mutated module's package directory: a module given as a file would be collected as
    # a test module too (stats/significance.py has a function test_pair)
    modules = dict.fromkeys(str((src / "mwzrepro" / x.path).parent) for x in chosen)
    return [*FAST, *tests, *modules]


def _order(failed: list[str]) -> list[str]:
    """Unit tests first, then doctests, each in run order."""
    return sorted(failed, key=lambda f: not f.startswith("tests/"))


@contextmanager
def _src_copy() -> Iterator[Path]:
    """A copy of the checkout's ``src/`` (without ``__pycache__``) in a temporary directory,
    removed on exit; yields the copy's ``src`` path."""
    with tempfile.TemporaryDirectory(prefix="mwzrepro-mutants-") as tmp:
        src = Path(tmp) / "src"
        shutil.copytree(REPO / "src", src, ignore=shutil.ignore_patterns("__pycache__"))
        yield src


@contextmanager
def _mutated(src: Path, m: Mutant) -> Iterator[bool]:
    """Apply ``m`` to the copy ``src`` for the block, restoring the module on exit (also on
    an error or interrupt); yields whether it applied (``m.old`` is exactly once in the module;
    otherwise nothing is written)."""
    target = src / "mwzrepro" / m.path
    original = target.read_text(encoding="utf-8")
    if original.count(m.old) != 1:
        yield False
        return
    try:
        target.write_text(original.replace(m.old, m.new), encoding="utf-8")
        yield True
    finally:
        target.write_text(original, encoding="utf-8")


def run_mutants(mutants: list[Mutant], full: bool, jobs: str, timeout: int) -> list[dict]:
    rows = []
    with _src_copy() as src:
        code, failed, seconds = pytest_run(src, selection(None, src, full), jobs, timeout)
        if code != 0:
            raise SystemExit(f"baseline run failed (exit {code}): {failed[:5]}")
        print(f"baseline: passed in {seconds:.0f} s", flush=True)
        for m in mutants:
            with _mutated(src, m) as applied:
                if not applied:
                    rows.append({"mutant": m, "result": "not applicable", "killers": [],
                                 "seconds": 0.0})
                    continue
                code, failed, seconds = pytest_run(src, selection(m, src, full), jobs, timeout)
            result = {0: "SURVIVED", 1: "killed"}.get(code, f"error (exit {code})")
            rows.append({"mutant": m, "result": result, "killers": _order(failed),
                         "seconds": seconds})
            print(f"{m.name}: {result} ({len(failed)} failing, {seconds:.0f} s)", flush=True)
    return rows


def repeat_witness(m: Mutant, n: int, timeout: int) -> tuple[int, int]:
    """``(failures, runs)`` of the mutant's witness test run ``n`` times under the mutant."""
    failures = 0
    with _src_copy() as src:
        code, _, _ = pytest_run(src, [m.witness], "0", timeout)
        if code != 0:
            raise SystemExit(f"{m.witness} fails without the mutant (exit {code})")
        with _mutated(src, m) as applied:
            if not applied:
                raise SystemExit(f"{m.name}: the line to mutate is not (once) in {m.path}")
            for i in range(n):
                code, _, seconds = pytest_run(src, [m.witness], "0", timeout)
                failures += code == 1
                print(f"{m.name} run {i + 1}/{n}: {'failed' if code == 1 else 'PASSED'} "
                      f"({seconds:.1f} s)", flush=True)
    return failures, n


def _short(node: str) -> str:
    """``test_module.py::test_name[param]`` of a node id (a doctest: its dotted name)."""
    path, _, rest = node.partition("::")
    return f"{Path(path).name}::{rest}"


def table(rows: list[dict], full: bool) -> str:
    scope = "whole fast tier" if full else "area unit tests + package doctests"
    out = [f"| mutant | module | change | result ({scope}) | failing | witness fails | "
           "killed by (first three, unit tests first) | s |",
           "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        m, killers = r["mutant"], r["killers"]
        witness = "yes" if any(k.startswith(m.witness) for k in killers) else "no"
        names = ", ".join(f"`{_short(k)}`" for k in killers[:3]) or "–"
        out.append(f"| {m.name} | {m.path} | {m.what} | {r['result']} | {len(killers)} | "
                   f"{witness} | {names} | {r['seconds']:.0f} |")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", metavar="NAME", help="mutants to run (--list)")
    parser.add_argument("--full", action="store_true", help="run the whole fast tier")
    parser.add_argument("--jobs", default=None,
                        help="pytest-xdist workers (default: 0 per area, auto with --full)")
    parser.add_argument("--repeat", type=int, default=0, metavar="N",
                        help="run each mutant's witness test N times instead")
    parser.add_argument("--timeout", type=int, default=1800, help="seconds per pytest run")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    args = parser.parse_args()
    if args.list:
        for m in MUTANTS:
            print(f"{m.name:24} {m.path:28} {m.what}")
        return
    known = {m.name: m for m in MUTANTS}
    unknown = [n for n in args.only or () if n not in known]
    if unknown:
        raise SystemExit(f"unknown mutant(s) {unknown}; see --list")
    mutants = [known[n] for n in args.only] if args.only else list(MUTANTS)
    signal.signal(signal.SIGTERM, _on_term)
    if args.repeat:
        for m in mutants:
            failures, runs = repeat_witness(m, args.repeat, args.timeout)
            print(f"{m.name}: {m.witness} failed {failures} of {runs} runs")
        return
    jobs = args.jobs or ("auto" if args.full else "0")
    rows = run_mutants(mutants, args.full, jobs, args.timeout)
    print()
    print(table(rows, args.full))
    survived = [r["mutant"].name for r in rows if r["result"] != "killed"]
    if survived:
        print(f"\nnot killed: {', '.join(survived)}")
        sys.exit(1)


if __name__ == "__main__":
    main()
