"""Benchmark: score all published systems at once on one core — BLEU, Inform/Success in the
standard and optimistic settings, and lexical richness — and report wall time per phase and
the peak resident memory of the process.

Starts from the pipeline's prepared inputs (what ``snakemake`` builds before scoring):
``data/interim/predictions/<system>.parquet`` (normalized responses) and the version's
canonical test tables ``data/interim/<version>/test/*.parquet``; the evaluator resources
(goals, booked domains, gold states, turn domains) are read if ``mwzrepro goals`` wrote them,
else built in memory (timed separately). Database files come from ``data/raw`` (the
pipeline's download layout) or, failing that, from the mirror. Caches (fuzzy matching,
database queries) start cold: the timing includes warming them.

Usage::

    .venv/bin/python benchmarks/score_all.py [--data-dir data/interim] [--raw-dir data/raw]
        [--version mwz21] [--mirror ../shared/mirror] [--matching reference]

Target (issue 3): < 10 s for all 19 systems on one core. Wall time depends on other load on
the machine; the CPU time of the process is printed next to it.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DB_FILES = {
    "restaurant": ("multiwoz/db/restaurant_db.json", "budzianowski/multiwoz", "db/restaurant_db.json"),
    "hotel": ("mwzeval/database/hotel_db.json", "Tomiinek/MultiWOZ_Evaluation",
              "mwzeval/data/database/hotel_db.json"),
    "attraction": ("mwzeval/database/attraction_db.json", "Tomiinek/MultiWOZ_Evaluation",
                   "mwzeval/data/database/attraction_db.json"),
    "train": ("mwzeval/database/train_db.json", "Tomiinek/MultiWOZ_Evaluation",
              "mwzeval/data/database/train_db.json"),
}


def db_paths(raw_dir: Path, mirror: Path) -> dict[str, Path]:
    out = {}
    for domain, (rel, repo, path) in DB_FILES.items():
        p = raw_dir / rel
        if not p.is_file():
            hits = sorted((mirror / repo).glob(f"*/{path}"))
            if not hits:
                raise SystemExit(f"no {domain} database under {raw_dir} or {mirror}")
            p = hits[0]
        out[domain] = p
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data-dir", type=Path, default=REPO / "data" / "interim")
    ap.add_argument("--raw-dir", type=Path, default=REPO / "data" / "raw")
    ap.add_argument("--mirror", type=Path,
                    default=Path(os.environ.get("MWZREPRO_MIRROR", REPO.parent / "shared" / "mirror")))
    ap.add_argument("--version", default="mwz21")
    ap.add_argument("--matching", default="reference", choices=["reference", "optimal"])
    args = ap.parse_args()

    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core

    from mwzrepro.standard.active_domains import build_turn_domains
    from mwzrepro.standard.booked import booked_domains_to_dict, build_booked_domains
    from mwzrepro.core.venue_database import VenueDatabase
    from mwzrepro.standard.goals import build_eval_goals, eval_goals_to_dict
    from mwzrepro.standard.gold_states import build_gold_states, gold_states_to_dict
    from mwzrepro.core.io import read_table
    from mwzrepro.bleu.score import corpus_bleu
    from mwzrepro.standard.inform_success import dialogue_rows, rates_of_rows
    from mwzrepro.standard.richness import lexical_richness
    from mwzrepro.standard.inputs import prepare_predictions

    base = args.data_dir / args.version / "test"
    pred_dir = args.data_dir / "predictions"
    systems = sorted(p.name[: -len(".parquet")] for p in pred_dir.glob("*.parquet")
                     if not p.name.endswith(".coverage.parquet"))
    if not systems or not (base / "turns.parquet").is_file():
        raise SystemExit(f"run the pipeline first (no predictions under {pred_dir} or no "
                         f"canonical tables under {base}): snakemake -j2 "
                         f"{pred_dir}/augpt.parquet ...")

    t0 = time.perf_counter()
    preds = {s: read_table(pred_dir / f"{s}.parquet", "predictions") for s in systems}
    refs = read_table(base / "references.parquet", "references")
    t_read = time.perf_counter() - t0

    t0 = time.perf_counter()
    def table(name, build):
        path = base / f"{name}.parquet"
        return read_table(path, name) if path.is_file() else build()
    canon = {}
    def canonical(name):
        if name not in canon:
            canon[name] = read_table(base / f"{name}.parquet", name)
        return canon[name]
    goals = eval_goals_to_dict(table("eval_goals", lambda: build_eval_goals(canonical("goals"))))
    booked = booked_domains_to_dict(table("booked_domains", lambda: build_booked_domains(
        canonical("booked"), canonical("dialogues"))))
    gold = gold_states_to_dict(table("gold_states", lambda: build_gold_states(
        canonical("states"), canonical("dialogues"))))
    truth = booked_domains_to_dict(table("turn_domains", lambda: build_turn_domains(
        canonical("states"), canonical("acts"), canonical("dialogues"))))
    t_resources = time.perf_counter() - t0

    timings = {"database": 0.0, "bleu": 0.0, "prepare": 0.0, "standard": 0.0,
               "optimistic": 0.0, "richness": 0.0}
    t_all = time.perf_counter()
    cpu_all = time.process_time()
    t0 = time.perf_counter()
    db = VenueDatabase.from_files(db_paths(args.raw_dir, args.mirror), matching=args.matching)
    timings["database"] += time.perf_counter() - t0
    lines = []
    for s in systems:
        t0 = time.perf_counter()
        bleu = corpus_bleu(preds[s], refs, args.version, s).score
        t1 = time.perf_counter()
        prep = prepare_predictions(preds[s], gold, "auto")
        opt = prep.with_domains("ground-truth", truth)
        t2 = time.perf_counter()
        std_r = rates_of_rows(dialogue_rows(prep.dialogues, goals, booked, db, "standard"))
        t3 = time.perf_counter()
        opt_r = rates_of_rows(dialogue_rows(opt.dialogues, goals, booked, db, "optimistic"))
        t4 = time.perf_counter()
        rich = lexical_richness(r for d in prep.dialogues.values() for r in d["responses"])
        t5 = time.perf_counter()
        for k, a, b in (("bleu", t0, t1), ("prepare", t1, t2), ("standard", t2, t3),
                        ("optimistic", t3, t4), ("richness", t4, t5)):
            timings[k] += b - a
        lines.append(f"  {s:14s} BLEU {bleu:5.2f}  standard {std_r['inform']['total']:5.1f}/"
                     f"{std_r['success']['total']:5.1f}  optimistic "
                     f"{opt_r['inform']['total']:5.1f}/{opt_r['success']['total']:5.1f}  "
                     f"CBE {rich['cond_entropy']:.2f}  ({t5 - t0:.2f} s)")
    total = time.perf_counter() - t_all
    cpu = time.process_time() - cpu_all
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB -> MiB on Linux
    print(f"score_all: {len(systems)} systems on {args.version}, matching={args.matching}, "
          f"one core")
    print("\n".join(lines))
    print(f"read inputs {t_read:.2f} s, evaluator resources {t_resources:.2f} s (not in total)")
    print("phases: " + ", ".join(f"{k} {v:.2f} s" for k, v in timings.items()))
    print(f"TOTAL scoring {total:.2f} s wall ({cpu:.2f} s CPU) for {len(systems)} systems; "
          f"peak RSS {peak:.0f} MiB")
    sys.exit(0)


if __name__ == "__main__":
    main()
