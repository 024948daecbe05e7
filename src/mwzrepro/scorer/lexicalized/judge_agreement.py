"""Agreement of the conversation setting (:mod:`mwzrepro.standard.conversation`) with an
independent judge: AutoTOD's own per-domain judgement (Xu et al. 2024; ``eval_summary`` of its
result files, read by the ``autotod`` dialect).

**The pairs.** Per conversation and goal domain, AutoTOD gives ``inform`` and either
``success`` (a goal without booking: every ``reqt`` slot answered, and Inform) or ``book`` (a
booking goal: the reference number the text gives is in AutoTOD's booking table, and the
booking there matches the goal's ``book``). Ours, beside them:

* ``inform``: the domain's Inform;
* ``success``: the domain's Inform and every requestable of the goal provided (our Success of
  the domain without the all-domains condition);
* ``book``: the domain booked by the text rule (a reference-shaped value in a turn about the
  domain after a satisfying venue was named).

**Agreement** (:func:`agreement_rows`): percent and Cohen's κ (:func:`mwzrepro.stats.
agreement.agreement`) per judgement and domain, and over all pairs. **Disagreements**
(:func:`classify`) fall into named classes read from both sides' evidence (AutoTOD's
``eval_results``: the venue its LLM reader extracted, the booking record its API issued).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from mwzrepro.standard.goals import REQUESTABLE_NAMES
from mwzrepro.stats.agreement import agreement

__all__ = ["JUDGEMENTS", "judge_pairs", "classify", "agreement_rows", "agreement_lines"]

#: The judgements compared, in table order.
JUDGEMENTS = ("inform", "success", "book")

#: Goal ``reqt`` slots the reference evaluator's Success reads (spec-standard-evaluation
#: §5.2: those of :data:`~mwzrepro.standard.goals.REQUESTABLE_NAMES`, and train's
#: ``trainID``); AutoTOD asks about every ``reqt`` slot.
_EVALUATOR_REQT = frozenset(REQUESTABLE_NAMES) | {"trainID"}


def judge_pairs(traces: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """``[{"dialogue_id", "domain", "judgement", "ours", "theirs"}, ...]`` (booleans) of every
    conversation with a judge (``traces`` as :func:`~mwzrepro.scorer.lexicalized.
    conversations.score_conversations` fills them), in file and goal order."""
    out = []
    for did, t in traces.items():
        judge = t["conversation"].judge or {}
        summary = judge.get("summary") or {}
        outcome, goal = t["outcome"], t["goal"]
        booked = {d for b in outcome.booked for d in b}
        for domain in goal:
            theirs = summary.get(domain)
            if not isinstance(theirs, Mapping):
                continue
            inform = bool(outcome.outcome.inform[domain])
            ours = {"inform": inform,
                    "success": inform and set(goal[domain]["requestable"]) - {"REFERENCE"}
                    <= outcome.provided(domain),
                    "book": domain in booked}
            for kind in JUDGEMENTS:
                if kind in theirs:
                    out.append({"dialogue_id": did, "domain": domain, "judgement": kind,
                                "ours": bool(ours[kind]), "theirs": bool(theirs[kind])})
    return out


def classify(pair: Mapping[str, Any], trace: Mapping[str, Any]) -> str:
    """The class of one disagreement (module docstring), a short phrase."""
    domain, kind = pair["domain"], pair["judgement"]
    results = ((trace["conversation"].judge or {}).get("results") or {}).get(domain) or {}
    outcome = trace["outcome"].outcome
    offered = outcome.offered.get(domain)
    if kind == "inform":
        if domain == "taxi":
            return "taxi: we match it automatically, AutoTOD checks the taxi's slots"
        if pair["ours"]:
            if offered is None and domain == "train":
                return "no train named, train goal without a TRAINID request: matched by the rule"
            if offered is None:
                return "name goal never offered by the agent: matched automatically by the rule"
            if "name" in trace["goal"][domain]["informable"]:
                return ("name goal: the agent names the goal's venue (also to say it cannot "
                        "find or book it), which counts as offered")
            venue = (results.get("inform") or {}).get("venue_name")
            return ("AutoTOD's reader found no venue" if not venue else
                    "AutoTOD's reader took another venue than the one named last")
        if not offered:
            return "no venue of the domain linked in the agent's words (unknown or unlinked name)"
        return "the agent's last offer holds venues outside the goal (subset rule)"
    if kind == "book":
        record = (results.get("book") or {}).get("book_record")
        if pair["ours"]:
            if isinstance(record, str) or record is None:
                return "the reference in the text is not in AutoTOD's booking table"
            return "booking details (day, time, people) differ from the goal: we do not check them"
        if not outcome.inform.get(domain):
            return "no satisfying venue named before the reference (our Inform fails)"
        return "no reference-shaped value in a turn about the domain"
    if pair["ours"]:
        asked = set((trace["conversation"].goal or {}).get(domain, {}).get("reqt") or ())
        if asked - _EVALUATOR_REQT:
            return "AutoTOD asks requestables the evaluator does not (area, type, price, ...)"
        return "AutoTOD's reader missed a value the text gives"
    if not outcome.inform.get(domain):
        return "follows our Inform failure"
    return "a requestable not given, or given WRONG, for the venue in focus"


def agreement_rows(pairs: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """``[{"judgement", "domain" ("all" for a judgement's total, "all"/"all" overall), "n",
    "percent", "kappa", "ours" (percent true), "theirs" (percent true)}, ...]``."""
    groups: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for p in pairs:
        groups.setdefault((p["judgement"], p["domain"]), []).append(p)
        groups.setdefault((p["judgement"], "all"), []).append(p)
        groups.setdefault(("all", "all"), []).append(p)
    order = {k: i for i, k in enumerate((*JUDGEMENTS, "all"))}
    rows = []
    for (kind, domain), ps in sorted(groups.items(),
                                     key=lambda kv: (order[kv[0][0]], kv[0][1] == "all",
                                                     kv[0][1])):
        a = agreement([p["ours"] for p in ps], [p["theirs"] for p in ps])
        rows.append({"judgement": kind, "domain": domain, "n": a["n"], "percent": a["percent"],
                     "kappa": a["kappa"], "ours": 100 * sum(p["ours"] for p in ps) / len(ps),
                     "theirs": 100 * sum(p["theirs"] for p in ps) / len(ps)})
    return rows


def agreement_lines(pairs: Sequence[Mapping[str, Any]],
                    traces: Mapping[str, Mapping[str, Any]], examples: int = 2) -> list[str]:
    """The text of the agreement: the table, then the disagreement classes with counts and
    example dialogue ids."""
    out = [f"{'judgement':<10}{'domain':<12}{'n':>5}{'agree %':>9}{'kappa':>8}"
           f"{'ours %':>8}{'AutoTOD %':>10}"]
    for r in agreement_rows(pairs):
        kappa = "–" if r["kappa"] is None else f"{r['kappa']:.3f}"
        out.append(f"{r['judgement']:<10}{r['domain']:<12}{r['n']:>5}{r['percent']:>9.1f}"
                   f"{kappa:>8}{r['ours']:>8.1f}{r['theirs']:>10.1f}")
    classes: Counter[tuple[str, str, str]] = Counter()
    seen: dict[tuple[str, str, str], list[str]] = {}
    for p in pairs:
        if p["ours"] != p["theirs"]:
            key = (p["judgement"], "ours only" if p["ours"] else "AutoTOD only",
                   classify(p, traces[p["dialogue_id"]]))
            classes[key] += 1
            seen.setdefault(key, []).append(f"{p['dialogue_id']}/{p['domain']}")
    out += ["", "disagreements:"]
    for key, n in sorted(classes.items(), key=lambda kv: (-kv[1], kv[0])):
        out.append(f"  {n:>3}  {key[0]:<8}{key[1]:<13}{key[2]}  "
                   f"(e.g. {', '.join(seen[key][:examples])})")
    return out
