"""The per-module table of a mutation run (``make mutation``; docs/benchmarks.md): what
mutmut left in ``mutants/`` (one ``<module>.py.meta`` per mutated module), read after
``mutmut run``.

Columns: mutants generated, killed, survived, other (not checked, timeout, no tests,
suspicious), equivalent (lines of the module carrying ``# pragma: no mutate``: their mutants
are triaged as equivalent, the reason on the line, and not generated), the mutation score
(killed / (killed + survived), percent) and the seconds the module's mutants ran (the sum over
its mutants; the run's wall time is about half with ``--max-children 2``). The survivors are
listed below the table (``mutmut show NAME`` prints the change).

Usage::

    .venv/bin/python benchmarks/mutation_report.py ['mwzrepro.stats.*' ...]
"""

from __future__ import annotations

import fnmatch
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
#: mutmut's exit codes (mutmut.stats.status_by_exit_code): 1 and 3 kill, 0 survives.
KILLED, SURVIVED = {1, 3}, {0}


def _module(meta: Path) -> str:
    rel = meta.relative_to(REPO / "mutants" / "src")
    return str(rel).removesuffix(".py.meta").replace("/", ".")


def main(patterns: list[str]) -> int:
    rows, survivors = [], []
    for meta in sorted((REPO / "mutants" / "src").rglob("*.py.meta")):
        module = _module(meta)
        data = json.loads(meta.read_text())
        codes = {k: v for k, v in data["exit_code_by_key"].items()
                 if not patterns or any(fnmatch.fnmatch(k, p) for p in patterns)}
        if not codes:
            continue
        killed = sum(v in KILLED for v in codes.values())
        survived = [k for k, v in codes.items() if v in SURVIVED]
        source = REPO / "src" / (module.replace(".", "/") + ".py")
        pragmas = source.read_text().count("# pragma: no mutate")
        seconds = sum(data.get("durations_by_key", {}).get(k, 0.0) for k in codes)
        score = 100 * killed / (killed + len(survived)) if killed + len(survived) else None
        rows.append((module, len(codes), killed, len(survived),
                     len(codes) - killed - len(survived), pragmas,
                     "–" if score is None else f"{score:.1f}", f"{seconds:.0f}"))
        survivors += survived
    head = ("module", "mutants", "killed", "survived", "other", "equivalent", "score %", "s")
    widths = [max(len(str(r[i])) for r in [head, *rows]) for i in range(len(head))]
    for r in [head, *rows]:
        print("  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)
                        for i, (c, w) in enumerate(zip(r, widths))))
    if survivors:
        print("\nsurvived (mutmut show NAME):")
        for name in survivors:
            print(f"  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
