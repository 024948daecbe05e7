"""Report: grounded against standard Inform/Success of lexicalized text (issue 27).

Rows:

* ``corpus text``: the corpus's own lexicalized test responses (gold states), and its two
  probes — every venue name replaced by another venue of the same domain, every phone number
  and postcode by a wrong one of the same shape (seeded; :mod:`mwzrepro.scorer.lexicalized.probes`,
  as the real-data tests build them);
* the 13 public systems with predicted states, each relexicalized from its own predicted state
  (:func:`mwzrepro.scorer.lexicalized.round_trip.round_trip`: ``lexicalize_predictions`` in its
  ``consistent`` mode, hearing the venues the user and the response name) and scored with
  ``lexicalized=True, setting="all"``. The pipeline's ``tables-grounded`` step builds the
  same rows (without the probes and the g+/g- counts) into
  ``results/tables/inform_success_grounded``.

Per row: standard and grounded Inform/Success, attribute accuracy (of all values, and of the
values the fill wrote: :func:`mwzrepro.scorer.lexicalized.round_trip.filled_accuracy`), entity F1,
unknown venues, and the dialogues whose Inform differs (``g+``: grounded informs and standard does not — mostly
one named venue against the state's whole query result under the subset rule; ``g-``: the
reverse — a named venue that is no goal venue, or a name goal whose named venue differs).
``--examples N`` prints N dialogue ids of each kind per row.

Usage::

    .venv/bin/python benchmarks/grounded_round_trip.py [--mirror ../shared/mirror]
        [--systems ubar,mintl] [--examples 3]
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

SYSTEMS = ("augpt", "bort", "damd", "dots", "galaxy-e2e", "labes", "mars", "mintl", "pptod",
           "rstod", "soloist", "ubar", "uniconv")
EVALUATOR = "Tomiinek/MultiWOZ_Evaluation"


def differences(evaluator, data, source):
    """``(g+ dialogue ids, g- dialogue ids)``: where grounded and standard Inform differ."""
    from mwzrepro.scorer.lexicalized.grounding import link_predictions, user_named
    from mwzrepro.standard.grounded import grounded_dialogue_rows
    from mwzrepro.standard.inform_success import dialogue_rows

    prep = evaluator._prepare(data, source)[1]
    ev, db = evaluator.resources.eval, evaluator._database()
    links = link_predictions(data, evaluator.resources)
    spans = {d: [r.spans for r in links[d]] for d in prep.dialogues}
    total = {"standard": {}, "grounded": {}}
    for r in dialogue_rows(prep.dialogues, ev.goals, ev.booked, db, "standard"):
        if r["domain"] == "total":
            total["standard"][r["dialogue_id"]] = r["inform"]
    for r in grounded_dialogue_rows(prep.dialogues, spans, ev.goals, ev.booked, db,
                                    user_named(evaluator.resources)):
        if r["domain"] == "total":
            total["grounded"][r["dialogue_id"]] = r["inform"]
    plus = [d for d, ok in total["grounded"].items() if ok and not total["standard"][d]]
    minus = [d for d, ok in total["grounded"].items() if not ok and total["standard"][d]]
    return plus, minus


def row(evaluator, label, data, examples, delexicalized=None):
    from mwzrepro.scorer.lexicalized.grounded_table import grounded_cells
    from mwzrepro.scorer.lexicalized.round_trip import filled_accuracy

    d = evaluator.evaluate(data, label).to_dict()
    plus, minus = differences(evaluator, data, label)
    cells = {**grounded_cells(d), "filled": "–"}
    if delexicalized is not None:
        cells["filled"] = filled_accuracy(delexicalized, data, evaluator, label)["total"]
    cells = [label, *cells.values(), len(plus), len(minus)]
    print("| " + " | ".join(c if isinstance(c, str) else f"{c:.1f}" if isinstance(c, float)
                            else str(c) for c in cells) + " |", flush=True)
    if examples:
        print(f"|   g+ e.g. {' '.join(plus[:examples])}; g- e.g. {' '.join(minus[:examples])}")
    return d


def probes(evaluator, corpus):
    """The two probes of the corpus text (as the real-data tests build them)."""
    from mwzrepro.scorer.lexicalized.grounding import link_predictions
    from mwzrepro.scorer.lexicalized.probes import contact_value_probe, venue_name_probe

    links = link_predictions(corpus, evaluator.resources)
    names, n1 = venue_name_probe(corpus, links, evaluator._database())
    contacts, n2 = contact_value_probe(corpus, links)
    return [(f"venue names swapped ({n1} turns)", names),
            (f"phones and postcodes swapped ({n2} turns)", contacts)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirror", type=Path, default=REPO.parent / "shared" / "mirror")
    parser.add_argument("--systems", default=",".join(SYSTEMS))
    parser.add_argument("--examples", type=int, default=0)
    parser.add_argument("--no-corpus", action="store_true")
    args = parser.parse_args()

    from mwzrepro import Evaluator
    from mwzrepro.scorer.lexicalized.grounded_table import corpus_text
    from mwzrepro.scorer.lexicalized.round_trip import round_trip
    from tests.conftest import mirror_file

    logging.getLogger("mwzrepro").setLevel(logging.ERROR)
    e = Evaluator(bleu=False, success=True, richness=False, mirror=args.mirror,
                  lexicalized=True, setting="all")
    print("| input | std Inform | std Success | grounded Inform | grounded Success | "
          "attribute acc. % | entity F1 | unknown venues | filled attribute acc. % | g+ | g- |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    if not args.no_corpus:
        corpus = corpus_text(e.resources)
        row(e, "corpus text", corpus, args.examples)
        for label, data in probes(e, corpus):
            row(e, label, data, args.examples)
    for system in filter(None, args.systems.split(",")):
        data = json.loads(mirror_file(args.mirror, EVALUATOR, f"predictions/{system}.json")
                          .read_text(encoding="utf-8"))
        row(e, system, round_trip(data, e), args.examples, data)


if __name__ == "__main__":
    main()
