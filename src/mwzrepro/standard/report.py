"""Scoring one user prediction file end to end (the ``mwzrepro score`` command): validation,
coverage, BLEU, Inform/Success, richness and state metrics, each with its signature.

Result structure (JSON-serializable)::

    {"system": str, "version": str, "input": file name,
     "coverage": {"dialogues": n, "expected_dialogues": n, "turns": n, "expected_turns": n,
                  "missing_dialogues": [ids...], "truncated_dialogues": [ids...]},
     "bleu": {"score": float (0-100, unrounded), "signature": str},
     "success": {setting: {"inform": {domain: %, "total": %}, "success": {...},
                           "state_source": str, "domain_source": str, "signature": str}},
     "richness": {metric: value, ..., "signature": str},
     "state_match": {"joint_accuracy": %, "slot_f1": %, "slot_precision": fraction,
                     "slot_recall": fraction, "signature": str} | None,
     "unknown_placeholders": {name: count}}
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from mwzrepro.core.errors import InputError

__all__ = ["ScoreRequest", "check_turn_counts", "score_file", "format_text"]


@dataclass(frozen=True)
class ScoreRequest:
    """What to score: system label, dataset version, Inform/Success settings, matching mode and
    threshold, active-domain source of the standard setting, turn-count policy, file label."""

    system: str
    version: str
    settings: Sequence[str] = ("standard",)
    matching: str = "reference"
    threshold: float = 90
    domain_source: str = "auto"
    allow_missing_turns: bool = False
    source: str = "<predictions>"
    state_threshold: float = 95


def check_turn_counts(data: Mapping[str, Any], expected: Mapping[str, int], source: str,
                      allow_missing_turns: bool) -> list[str]:
    """Check every dialogue's number of turns against the test set.

    Args:
        data: the parsed prediction file ``{dialogue id: [turns]}``.
        expected: ``{dialogue_id: system turns}`` of the test set.
        source: file name for the message.
        allow_missing_turns: accept fewer turns (scored on the given prefix, spec §2.3).

    Returns:
        The dialogue ids with fewer turns than expected (when allowed).

    Raises:
        InputError: dialogue ids that are not test dialogues, or dialogues with more turns
            (or fewer, unless allowed) than the test set; the message lists them (up to 10,
            with their counts).
    """
    unknown, wrong, short = [], [], []
    for raw_id, turns in data.items():
        did = str(raw_id).lower()
        did = did[:-5] if did.endswith(".json") else did
        if did not in expected:
            unknown.append(str(raw_id))
            continue
        if not isinstance(turns, list):
            continue  # reported by parse_predictions with the file, dialogue and field
        n = len(turns)
        if n > expected[did] or (n < expected[did] and not allow_missing_turns):
            wrong.append(f"{raw_id} ({n} turns, expected {expected[did]})")
        elif n < expected[did]:
            short.append(did)
    if unknown:
        more = f" (+{len(unknown) - 10} more)" if len(unknown) > 10 else ""
        raise InputError(f"{source}: {len(unknown)} dialogue id(s) not in the test set: "
                         f"{', '.join(unknown[:10])}{more}")
    if wrong:
        more = f" (+{len(wrong) - 10} more)" if len(wrong) > 10 else ""
        hint = "" if allow_missing_turns else \
            " (use --allow-missing-turns to score truncated dialogues on their prefix)"
        raise InputError(f"{source}: {len(wrong)} dialogue(s) with a wrong number of turns: "
                         f"{', '.join(wrong[:10])}{more}{hint}")
    return short


def score_file(data: Any, tables: Mapping[str, pd.DataFrame], database: Any,
               request: ScoreRequest) -> dict[str, Any]:
    """Validate and score one prediction file (module docstring for the result).

    Args:
        data: the parsed JSON of the prediction file.
        tables: the version's test-split tables ``turns``, ``references``, ``eval_goals``,
            ``booked_domains``, ``gold_states``, ``turn_domains``.
        database: :class:`mwzrepro.standard.database.VenueDatabase` built with ``request.matching``
            and ``request.threshold``.
        request: :class:`ScoreRequest`.

    Raises:
        InputError: malformed file, unknown dialogue ids, wrong turn counts, bad states.
    """
    from mwzrepro.standard.booked import booked_domains_to_dict
    from mwzrepro.standard.goals import eval_goals_to_dict
    from mwzrepro.standard.gold_states import gold_states_to_dict
    from mwzrepro.bleu.score import corpus_bleu
    from mwzrepro.prepare.predictions import expected_turns, parse_predictions
    from mwzrepro.standard.inputs import prepare_predictions
    from mwzrepro.standard.scores import richness_scores, state_match_scores, success_scores

    if not isinstance(data, dict):
        raise InputError(f"{request.source}: top level must be an object "
                         "{dialogue id: [turns]}")
    expected = expected_turns(tables["turns"])
    truncated = check_turn_counts(data, expected, request.source, request.allow_missing_turns)
    unknown: Counter[str] = Counter()
    preds, _ = parse_predictions(data, expected, request.source, allow_missing_turns=True,
                                 unknown_placeholders=unknown)
    order = list(dict.fromkeys(preds["dialogue_id"]))
    gold = gold_states_to_dict(tables["gold_states"])
    ground_truth = booked_domains_to_dict(tables["turn_domains"])
    prep = prepare_predictions(preds, gold, request.domain_source, ground_truth, order,
                               where=request.source)
    settings: dict[str, Any] = {}
    for s in request.settings:
        settings[s] = prep if s == "standard" else prep.with_domains("ground-truth",
                                                                     ground_truth)
    scores, _ = success_scores(request.system, request.version, settings,
                               eval_goals_to_dict(tables["eval_goals"]),
                               booked_domains_to_dict(tables["booked_domains"]), database,
                               request.matching, request.threshold)
    success: dict[str, Any] = {}
    for s, p in settings.items():
        sub = scores[scores["setting"] == s]
        success[s] = {
            m: {k: v for k, v in zip(sub.loc[sub["metric"] == m, "key"],
                                     sub.loc[sub["metric"] == m, "value"])}
            for m in ("inform", "success")
        }
        success[s].update(state_source=p.state_source, domain_source=p.domain_source,
                          signature=sub["signature"].iloc[0])
    bleu = corpus_bleu(preds, tables["references"], request.version, request.system)
    responses = [r for d in prep.dialogues.values() for r in d["responses"]]
    rich = richness_scores(request.system, responses)
    richness: dict[str, Any] = {k: _plain(v) for k, v in zip(rich["key"], rich["value"])}
    richness["signature"] = rich["signature"].iloc[0]
    state = None
    sm = state_match_scores(request.system, request.version, prep, gold, request.matching,
                            request.state_threshold)
    if len(sm):
        state = {m: v for m, v in zip(sm["metric"], sm["value"])}
        state["signature"] = sm["signature"].iloc[0]
    missing = sorted(set(expected) - set(prep.dialogues))
    return {
        "system": request.system,
        "version": request.version,
        "input": request.source,
        "coverage": {
            "dialogues": len(prep.dialogues), "expected_dialogues": len(expected),
            "turns": prep.n_turns, "expected_turns": sum(expected.values()),
            "missing_dialogues": missing, "truncated_dialogues": sorted(truncated),
        },
        "bleu": {"score": bleu.score, "signature": bleu.signature.format()},
        "success": success,
        "richness": richness,
        "state_match": state,
        "unknown_placeholders": dict(sorted(unknown.items())),
    }


def _plain(v: float) -> float | int:
    return int(v) if float(v).is_integer() and abs(v) < 2**53 else float(v)


def format_text(result: Mapping[str, Any]) -> str:
    """Human-readable report of :func:`score_file`'s result: one section per metric (keys
    left-justified to 15 characters as the reference evaluator prints them), each followed by
    its signature."""
    lines = [f"system {result['system']} on {result['version']} ({result['input']})"]
    cov = result["coverage"]
    lines.append(f"coverage: {cov['dialogues']}/{cov['expected_dialogues']} dialogues, "
                 f"{cov['turns']}/{cov['expected_turns']} turns")
    if cov["missing_dialogues"]:
        ids = cov["missing_dialogues"]
        lines.append(f"  missing dialogues ({len(ids)}): {', '.join(ids[:10])}"
                     + (" ..." if len(ids) > 10 else ""))
    if cov["truncated_dialogues"]:
        ids = cov["truncated_dialogues"]
        lines.append(f"  truncated dialogues ({len(ids)}): {', '.join(ids[:10])}"
                     + (" ..." if len(ids) > 10 else ""))
    if result.get("unknown_placeholders"):
        lines.append(f"  unknown placeholders deleted: {result['unknown_placeholders']}")
    lines += ["", "====== BLEU ======", f"{'bleu':<15}{result['bleu']['score']:.2f}",
              f"signature: {result['bleu']['signature']}", ""]
    for setting, s in result["success"].items():
        lines.append(f"====== SUCCESS ({setting}) ======")
        for metric in ("inform", "success"):
            vals = ", ".join(f"{k} {v:.1f}" for k, v in s[metric].items())
            lines.append(f"{metric:<15}{vals}")
        lines += [f"states: {s['state_source']}, active domains: {s['domain_source']}",
                  f"signature: {s['signature']}", ""]
    lines.append("====== RICHNESS ======")
    for k, v in result["richness"].items():
        if k != "signature":
            lines.append(f"{k:<15}{v}")
    lines += [f"signature: {result['richness']['signature']}", ""]
    if result.get("state_match"):
        lines.append("====== STATE MATCH ======")
        for k, v in result["state_match"].items():
            if k != "signature":
                lines.append(f"{k:<15}{v}")
        lines += [f"signature: {result['state_match']['signature']}", ""]
    return "\n".join(lines).rstrip() + "\n"
