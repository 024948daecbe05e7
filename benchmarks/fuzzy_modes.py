"""How often the two fuzzy matching modes decide differently on real data.

Collects every distinct (database value, query value) pair that a venue-database query
(spec-standard-evaluation §6) compares with ``partial_ratio`` when it is run on

* the predicted states of every published prediction file that carries states (``state`` on
  the turns, mwzeval format; every turn and every database domain of the state), and
* the MultiWOZ 2.1 test goals (``info`` of each goal domain, slot names and values normalized
  as in §5.2, then queried),

and prints, per matching mode (``reference`` = fuzzywuzzy 0.18 + python-Levenshtein 0.12.x;
``optimal`` = rapidfuzz ``partial_ratio``), how many pairs are accepted at the threshold, how
many decisions differ, and (diagnostic) what the python-Levenshtein >= 0.20 alignment
(rapidfuzz edit script inside the reference windowing) would change.

Usage::

    .venv/bin/python benchmarks/fuzzy_modes.py [--mirror ../shared/mirror] [--threshold 90]
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections import Counter, defaultdict
from pathlib import Path

from mwzrepro.core.venue_database import FUZZY_KEYS, VenueDatabase
from mwzrepro.core.errors import InputError
from mwzrepro.core.fuzzy import (
    matching_blocks_rapidfuzz,
    partial_ratio_from_blocks,
    partial_ratio_optimal,
    partial_ratio_reference,
)
from mwzrepro.prepare.ingest.convlab import read_convlab
from mwzrepro.core.normalize_state import normalize_state

REPO = Path(__file__).resolve().parents[1]


def one(mirror: Path, owner_repo: str, path: str) -> Path:
    hits = sorted((mirror / owner_repo).glob(f"*/{path}"))
    if not hits:
        raise SystemExit(f"{owner_repo}/{path} not in the mirror {mirror}")
    return hits[0]


def database_paths(mirror: Path) -> dict[str, Path]:
    """The normative database files (spec §5.1): restaurant from the MultiWOZ repository,
    the others from the evaluator repository."""
    evaluator = "Tomiinek/MultiWOZ_Evaluation"
    return {
        "restaurant": one(mirror, "budzianowski/multiwoz", "db/restaurant_db.json"),
        "hotel": one(mirror, evaluator, "mwzeval/data/database/hotel_db.json"),
        "attraction": one(mirror, evaluator, "mwzeval/data/database/attraction_db.json"),
        "train": one(mirror, evaluator, "mwzeval/data/database/train_db.json"),
    }


def collect_pairs(db: VenueDatabase, constraint_dicts) -> tuple[set, int, Counter]:
    """Distinct (domain, key, db value, query value) compared by the queries of
    ``constraint_dicts`` (an iterable of (domain, constraints)); also the number of queries and
    the errors of unusable constraint dicts."""
    pairs: set[tuple[str, str, str, str]] = set()
    errors: Counter = Counter()
    n = 0
    for domain, constraints in constraint_dicts:
        n += 1
        try:
            triples = db.fuzzy_pairs(domain, constraints)
        except InputError as err:
            errors[str(err)[:120]] += 1
            continue
        pairs.update((domain, key, value, query) for key, value, query in triples)
    return pairs, n, errors


def prediction_constraints(path: Path):
    data = json.loads(path.read_text(encoding="utf-8"))
    for turns in data.values():
        for turn in turns:
            state = turn.get("state")
            if not isinstance(state, dict):
                continue
            try:
                state = normalize_state(state)
            except InputError:
                continue  # counted by the query step below as unusable
            for domain, slots in state.items():
                if domain in FUZZY_KEYS:
                    yield domain, slots


def goal_constraints(goals):
    info = goals[goals["kind"] == "info"]
    grouped = defaultdict(dict)
    for row in info.itertuples(index=False):
        grouped[(row.dialogue_id, row.domain)][row.slot] = row.value
    for (_dialogue, domain), slots in sorted(grouped.items()):
        if domain in FUZZY_KEYS:
            yield domain, normalize_state({domain: slots})[domain]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--mirror",
        type=Path,
        default=Path(os.environ.get("MWZREPRO_MIRROR", REPO.parent / "shared" / "mirror")),
    )
    parser.add_argument("--threshold", type=float, default=90)
    args = parser.parse_args()
    started = time.perf_counter()

    db = VenueDatabase.from_files(database_paths(args.mirror))
    prediction_dir = one(
        args.mirror, "Tomiinek/MultiWOZ_Evaluation", "predictions/augpt.json"
    ).parent
    all_pairs: set = set()
    print("source                 queries  distinct fuzzy pairs")
    for path in sorted(prediction_dir.glob("*.json")):
        pairs, n, errors = collect_pairs(db, prediction_constraints(path))
        if n:
            print(
                f"{path.stem:<20} {n:>9}  {len(pairs):>8}"
                + (f"  ({sum(errors.values())} unusable)" if errors else "")
            )
        all_pairs |= pairs
    tables, _ = read_convlab(
        one(args.mirror, "thu-coai/ConvLab-2", "data/multiwoz/test.json.zip"), "test"
    )
    pairs, n, errors = collect_pairs(db, goal_constraints(tables["goals"]))
    print(f"{'goals (2.1 test)':<20} {n:>9}  {len(pairs):>8}")
    all_pairs |= pairs

    distinct = {(value, query) for _d, _k, value, query in all_pairs}
    t = args.threshold
    accepted = Counter()
    differing = []
    legacy_score_diff = 0
    legacy_decision_diff = []
    for value, query in sorted(distinct):
        ref = partial_ratio_reference(value, query)
        opt = partial_ratio_optimal(value, query)
        new = partial_ratio_from_blocks(value, query, matching_blocks_rapidfuzz)
        accepted["reference"] += ref >= t
        accepted["optimal"] += opt >= t
        if (ref >= t) != (opt >= t):
            differing.append((value, query, ref, round(opt, 2)))
        if new != ref:
            legacy_score_diff += 1
            if (new >= t) != (ref >= t):
                legacy_decision_diff.append((value, query, ref, new))

    print()
    print(f"distinct (database value, query value) pairs: {len(distinct)}")
    print(f"accepted at >= {t:g}: reference {accepted['reference']}, optimal {accepted['optimal']}")
    print(f"decisions that differ between the modes: {len(differing)}")
    only_opt = sum(1 for _v, _q, r, o in differing if o >= t)
    print(f"  accepted only by optimal: {only_opt}; only by reference: {len(differing) - only_opt}")
    for value, query, ref, opt in differing:
        print(f"    {value!r:<45} {query!r:<40} reference {ref:>3}  optimal {opt}")
    print(
        "diagnostic, python-Levenshtein >= 0.20 alignment (rapidfuzz edit script): "
        f"{legacy_score_diff} pairs with another score, {len(legacy_decision_diff)} other decisions"
    )
    for value, query, ref, new in legacy_decision_diff:
        print(f"    {value!r} vs {query!r}: 0.12.x {ref}, >= 0.20 {new}")
    print(f"elapsed {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
