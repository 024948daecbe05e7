"""Scoring conversation files (``mwzrepro score conversations.jsonl``, the conversation
setting :mod:`mwzrepro.standard.conversation`; input form :mod:`mwzrepro.scorer.lexicalized.
conversation_input`): goal-based grounded Inform/Success per goal domain and in total,
attribute accuracy, unknown venues and turns, per conversation and over the file; percentile
bootstrap intervals over conversations with ``--ci``.

Every text is linked by lex:1 without a state (:meth:`~mwzrepro.prepare.delex.
delexicalize_responses.Delexicalizer.link`), so signatures carry ``lex:1-none``; the Inform/
Success signature reads ``ref:goals|state:none|dom:text|set:conversation``. Entity F1 is
undefined (no reference response per turn) and reported as such. Conversation figures are
**not comparable** with turn-aligned ones (a different rule, ``set:conversation``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mwzrepro.core.errors import InputError
from mwzrepro.core.signature import Signature
from mwzrepro.scorer.lexicalized.conversation_input import dialogue_label

__all__ = ["ConversationScores", "resolve_goals", "score_conversations", "score_lines",
           "bootstrap_intervals", "run_conversations"]

#: Why entity F1 is not reported (the JSON's ``entity_f1``).
ENTITY_F1_UNDEFINED = ("undefined: entity F1 compares each response with the corpus's own "
                       "response of the same turn, which a conversation does not have")


@dataclass(frozen=True)
class ConversationScores:
    """The figures of one conversation file (percent; counts as integers).

    Attributes:
        inform, success: ``{goal domain: rate, ..., "total": rate}`` (percent, one decimal,
            over the conversations whose goal has the domain).
        attribute_accuracy: ``{"total", "correct", "count", "per_slot"}``
            (:func:`~mwzrepro.standard.grounding_metrics.accuracy_of`).
        unknown_venues: ``{"count", "examples"}``.
        turns: ``{"conversations", "total", "mean", "min", "max"}``.
        conversations: one dict per conversation: ``dialogue_id``, ``turns``, ``goal``
            (``given``/``test set``), ``inform``/``success`` ``{domain: bool, "total"}``,
            ``attributes`` ``[correct, count]``, ``unknown_venues`` (phrases), ``booked`` ``{domain:
            turn}`` (first turn booked by the text rule).
        signature, grounding_signature: the settings behind the numbers.
        intervals: with ``--ci``: ``{"inform"|"success": {"lower", "upper"}}`` of the totals.
    """

    inform: dict[str, float]
    success: dict[str, float]
    attribute_accuracy: dict[str, Any]
    unknown_venues: dict[str, Any]
    turns: dict[str, Any]
    conversations: list[dict[str, Any]]
    signature: str
    grounding_signature: str
    intervals: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures (``form: conversation``)."""
        return {"form": "conversation", "success": {"conversation": {
                    "inform": self.inform, "success": self.success}},
                "grounding": {"attribute_accuracy": self.attribute_accuracy,
                              "unknown_venues": self.unknown_venues,
                              "entity_f1": ENTITY_F1_UNDEFINED},
                "turns": self.turns, "intervals": self.intervals,
                "signatures": {"success": self.signature, "grounding": self.grounding_signature},
                "conversations": self.conversations}


def resolve_goals(conversations: Sequence[Any], test_goals: Mapping[str, Any], source: str
                  ) -> list[tuple[dict[str, Any], str]]:
    """``[(evaluator goal, "given" | "test set"), ...]`` per conversation, all checked before
    any scoring.

    Raises:
        InputError: a goal of the wrong shape, or no goal and a dialogue id the test set does
            not have (one line naming the record).
    """
    from mwzrepro.standard.conversation_goal import goal_of

    out = []
    for n, c in enumerate(conversations, 1):
        where = f"{source}, record {n} (dialogue {dialogue_label(c.dialogue_id)})"
        if c.goal is not None:
            out.append((goal_of(c.goal, where), "given"))
        elif c.dialogue_id in test_goals:
            out.append((dict(test_goals[c.dialogue_id]), "test set"))
        else:
            raise InputError(f"{where}: no 'goal' and the test set has no dialogue "
                             f"{dialogue_label(c.dialogue_id)}: give the MultiWOZ goal in the "
                             "record")
    return out


def _signatures(version: str, matching: str, threshold: float) -> tuple[str, str]:
    from mwzrepro.prepare.delex.delexicalize_responses import LEX_VERSION
    from mwzrepro.standard.scores import success_signature

    sig = success_signature("x", version, "none", "text", "conversation", matching, threshold)
    fields = {k: ("goals" if k == "ref" else v) for k, v in sig.fields.items() if k != "system"}
    lex = f"{LEX_VERSION}-none"
    return (Signature(sig.metric, {**fields, "lex": lex}).format(),
            Signature("Grounding", {"ver": version, "ref": "db", "state": "none",
                                    "set": "conversation", "match": matching,
                                    "thr": f"{threshold:g}", "lex": lex}).format())


def score_conversations(conversations: Sequence[Any], resources: Any, source: str,
                        matching: str = "reference", threshold: float = 90,
                        traces: dict[str, Any] | None = None) -> ConversationScores:
    """Score validated conversations (:func:`~mwzrepro.scorer.lexicalized.conversation_input.
    conversations_of`) against their goals.

    Args:
        resources: the version's :class:`~mwzrepro.scorer.resources.resource_set.VersionResources`.
        source: file label for messages.
        matching, threshold: the venue database's matching (spec-standard-evaluation §6).
        traces: if a dict, receives ``{dialogue id: {"outcome": ConversationOutcome, "users":
            venues named per user utterance, "systems": LinkedResponse per turn, "checks":
            value checks, "goal", "conversation"}}``
            (``explain``, the judge agreement).

    Raises:
        InputError: :func:`resolve_goals`.
    """
    from mwzrepro.scorer.lexicalized.delexicalize_pass import delexicalizer_of
    from mwzrepro.standard.conversation import SETTING, evaluate_conversation
    from mwzrepro.standard.grounded import named_venues
    from mwzrepro.standard.grounding_metrics import (
        accuracy_of,
        corpus_attribute_checks,
        unknown_venues,
    )
    from mwzrepro.standard.inform_success import rates_of_rows

    goals = resolve_goals(conversations, resources.eval.goals, source)
    delex = delexicalizer_of(resources)
    known = corpus_user_named(resources)
    db = resources.database(matching, threshold)
    rows, checks, per, unknown_all = [], [], [], []
    for c, (goal, origin) in zip(conversations, goals):
        users = [known[u] if u in known else named_venues(delex.link(u).spans)
                 for u, _ in c.turns]
        systems = [delex.link(s) for _, s in c.turns]
        out = evaluate_conversation(goal, users, systems, db, c.turns)
        mine = [{**ch, "turn": t} for _, t, ch in corpus_attribute_checks(
            {c.dialogue_id: {"states": [{}] * len(systems), "active_domains": out.active}},
            {c.dialogue_id: systems}, db,
            {c.dialogue_id: users})]
        unknown = [p for _, s in c.turns for p in unknown_venues(s, delex.lexicon)]
        checks += mine
        unknown_all += unknown
        for domain, ok in out.outcome.inform.items():
            rows.append({"setting": SETTING, "dialogue_id": c.dialogue_id, "domain": domain,
                         "inform": ok, "success": out.outcome.success[domain]})
        per.append({"dialogue_id": c.dialogue_id, "turns": len(c.turns), "goal": origin,
                    "inform": out.outcome.inform, "success": out.outcome.success,
                    "attributes": [sum(ch["correct"] for ch in mine), len(mine)],
                    "unknown_venues": unknown,
                    "booked": {d: next(t for t, b in enumerate(out.booked) if d in b)
                               for d in goal if any(d in b for b in out.booked)}})
        if traces is not None:
            traces[c.dialogue_id] = {"outcome": out, "users": users, "systems": systems,
                                     "checks": mine, "goal": goal, "conversation": c}
    rates = rates_of_rows(rows)
    n = [len(c.turns) for c in conversations]
    sig, gsig = _signatures(resources.version, matching, threshold)
    return ConversationScores(
        rates["inform"], rates["success"], accuracy_of(checks),
        {"count": len(unknown_all), "examples": list(dict.fromkeys(unknown_all))[:10]},
        {"conversations": len(n), "total": sum(n), "mean": sum(n) / len(n), "min": min(n),
         "max": max(n)}, per, sig, gsig)


def corpus_user_named(resources: Any) -> dict[str, dict[str, list[str]]]:
    """``{user utterance: venues it names}`` of the test set's user utterances, from the
    grounding tables stored with the resources (:func:`mwzrepro.scorer.lexicalized.grounding.
    user_named`: the same lex:1 links without state, so a conversation that reuses a test
    utterance gets the same venues without linking it again)."""
    from mwzrepro.scorer.lexicalized.grounding import user_named

    out: dict[str, dict[str, list[str]]] = {}
    for did, named in user_named(resources).items():
        for text, venues in zip(resources.user_utterances(did), named):
            out.setdefault(text, venues)
    return out


def bootstrap_intervals(scores: ConversationScores, resamples: int = 1000, seed: int = 0,
                        confidence: float = 0.95) -> dict[str, dict[str, float]]:
    """Percentile intervals (percent) of total Inform and Success over ``resamples``
    bootstrap resamples of the conversations (:func:`mwzrepro.stats.bootstrap.
    resample_counts`, seeded: the same file gives the same intervals)."""
    import numpy as np

    from mwzrepro.stats.bootstrap import percentile_interval, resample_counts

    counts = resample_counts(len(scores.conversations), resamples, seed)
    out = {}
    for metric in ("inform", "success"):
        hits = np.array([float(c[metric]["total"]) for c in scores.conversations])
        values = 100 * (counts @ hits) / len(hits)
        iv = percentile_interval(values, 100 * hits.mean(), confidence)
        out[metric] = {"lower": iv.lower, "upper": iv.upper, "confidence": confidence,
                       "resamples": resamples, "seed": seed}
    return out


def score_lines(scores: ConversationScores, source: str) -> list[str]:
    """The text of ``mwzrepro score`` for a conversation file: coverage, Inform/Success per
    domain, grounding, turns, signatures."""
    t = scores.turns
    given = sum(c["goal"] == "given" for c in scores.conversations)
    out = [f"{source}: {t['conversations']} conversation(s), {t['total']} turns "
           f"(mean {t['mean']:.1f}, {t['min']}–{t['max']}); goals: {given} given, "
           f"{t['conversations'] - given} from the test set",
           "", "====== INFORM / SUCCESS (conversation setting: against the goal) ======"]
    for domain in scores.inform:
        line = f"{domain:<12} Inform {scores.inform[domain]:5.1f}  Success " \
               f"{scores.success[domain]:5.1f}"
        iv = scores.intervals.get("inform") if domain == "total" else None
        if iv:
            s = scores.intervals["success"]
            line += (f"   (95% CI Inform {iv['lower']:.1f}–{iv['upper']:.1f}, Success "
                     f"{s['lower']:.1f}–{s['upper']:.1f})")
        out.append(line)
    out.append(f"signature: {scores.signature}")
    acc = scores.attribute_accuracy
    total = "–" if acc["total"] is None else f"{acc['total']:.1f} %"
    out += ["", "====== GROUNDING ======",
            f"{'attributes':<15} {total} correct ({acc['correct']}/{acc['count']})"]
    out += [f"  {slot:<12}{v['accuracy']:>6.1f} % ({v['correct']}/{v['count']})"
            for slot, v in acc["per_slot"].items()]
    unknown = scores.unknown_venues
    examples = f" (e.g. {', '.join(unknown['examples'][:3])})" if unknown["examples"] else ""
    out += [f"{'unknown venues':<15} {unknown['count']}{examples}",
            f"{'entity F1':<15} undefined (no reference response per turn)",
            f"signature: {scores.grounding_signature}",
            "note: conversation scores are not comparable with turn-aligned scores "
            "(set:conversation)"]
    return out


def run_conversations(evaluator: Any, conversations: Any, source: str, fmt: str = "multiwoz",
                      ci: bool = False, traces: dict[str, Any] | None = None
                      ) -> ConversationScores:
    """:meth:`mwzrepro.scorer.evaluator.Evaluator.evaluate_conversations`: parsed records or
    a path, validated whole, then scored with the evaluator's resources and matching."""
    import dataclasses
    from pathlib import Path

    from mwzrepro.scorer.lexicalized.conversation_input import (
        conversations_of,
        read_conversations,
    )

    if isinstance(conversations, (str, Path)):
        path = Path(conversations)
        try:
            found = path.is_file()
        except (OSError, ValueError):
            found = False
        if not found:
            raise InputError(f"{str(conversations)[:80]!r}: no such conversation file (give "
                             "a path, or the parsed records)")
        items = read_conversations(path, fmt)
        source = path.name if source == "<conversations>" else source
    else:
        items = conversations_of(conversations, source, fmt)
    scores = score_conversations(items, evaluator.resources, source,
                                 evaluator.inform.matching, evaluator.inform.fuzzy_threshold,
                                 traces)
    if ci:
        scores = dataclasses.replace(scores, intervals=bootstrap_intervals(scores))
    return scores
