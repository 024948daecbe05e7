"""``mwzrepro score`` and ``explain`` on conversation files (the conversation setting,
:mod:`mwzrepro.scorer.lexicalized.conversations`): recognized by their records
(:func:`~mwzrepro.scorer.lexicalized.conversation_input.looks_like_conversation_file`) or
``--form conversation``; among several files, conversation files get their own table, marked
not comparable with the turn-aligned rows.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

__all__ = ["conversation_option", "split_conversation_files", "score_conversation_files",
           "explain_conversation_file"]

#: The value of ``--form`` that names the conversation form for every file.
CONVERSATION_FORM = "conversation"


def conversation_option(f):
    """``--conversation-format`` (the dialect of conversation files)."""
    return click.option(
        "--conversation-format", type=click.Choice(["multiwoz", "autotod"]),
        default="multiwoz", show_default=True,
        help="Layout of conversation files (records with turns of user and system text, "
             "scored against their goals): multiwoz = {dialogue_id, turns: [{user, system}], "
             "goal}; autotod = AutoTOD's result files (with their own judgement).")(f)


def split_conversation_files(paths: list[Path], kw: dict[str, Any]
                             ) -> tuple[list[Path], list[Path]]:
    """``(turn-aligned files, conversation files)``; ``--form conversation`` (bare) makes
    every file a conversation file and is removed from ``kw["form"]``."""
    from mwzrepro.scorer.lexicalized.conversation_input import looks_like_conversation_file

    forms = tuple(kw.get("form") or ())
    forced = CONVERSATION_FORM in forms
    kw["form"] = tuple(f for f in forms if f != CONVERSATION_FORM)
    if forced:
        return [], list(paths)
    conv = [p for p in paths if looks_like_conversation_file(p)]
    return [p for p in paths if p not in conv], conv


def _evaluator(kw: dict[str, Any]):
    """The evaluator of the shared resource options (its resources and venue matching)."""
    from mwzrepro.cli.options import INFORM_PARAMS
    from mwzrepro.core.params import from_options
    from mwzrepro.scorer.evaluator import Evaluator

    inform = from_options(INFORM_PARAMS, kw, "inform")
    return Evaluator(bleu=False, richness=False, dst=False, version=kw["version"],
                     matching=inform.matching, fuzzy_threshold=inform.fuzzy_threshold,
                     lexicalized=True, cache_dir=kw["cache_dir"], mirror=kw["mirror"],
                     registry=kw["registry"])


def score_conversation_files(paths: list[Path], fmt: str, out: Path | None,
                             kw: dict[str, Any], many: bool) -> None:
    """Score conversation files and print them: one file as ``score`` prints a result
    (text or json), several as a table of their own (not comparable with turn-aligned rows).
    Nothing is written unless every file was scored."""
    from mwzrepro.core.io import write_text
    from mwzrepro.scorer.lexicalized.conversations import score_lines
    from mwzrepro.scorer.lexicalized.judge_agreement import (
        agreement_lines,
        agreement_rows,
        judge_pairs,
    )

    evaluator = _evaluator(kw)
    results, texts = {}, []
    for path in paths:
        traces: dict[str, Any] = {}
        scores = evaluator.evaluate_conversations(path, path.name, kw["conversation_format"],
                                                  kw.get("ci", False), traces)
        results[path.stem] = scores.to_dict()
        text = score_lines(scores, path.name)
        pairs = judge_pairs(traces)
        if pairs:
            results[path.stem]["judge_agreement"] = {"table": agreement_rows(pairs),
                                                     "pairs": pairs}
            text += ["", "====== AGREEMENT WITH THE FILE'S OWN JUDGE (per conversation "
                     "and goal domain) ======", *agreement_lines(pairs, traces)]
        texts.append("\n".join(text))
    payload = results[paths[0].stem] if len(paths) == 1 else results
    if out is not None:
        write_text(json.dumps(payload, indent=1, sort_keys=True, ensure_ascii=False) + "\n", out)
    if fmt == "json":
        click.echo(json.dumps(payload, indent=1, sort_keys=True, ensure_ascii=False))
    elif many:
        click.echo(_table(results))
    else:
        click.echo("\n\n".join(texts))


def _table(results: dict[str, dict[str, Any]]) -> str:
    lines = ["conversation files (set:conversation: scored against their goals; NOT "
             "comparable with the turn-aligned rows)",
             f"{'file':<24}{'convs':>6}{'turns':>7}{'Inform':>8}{'Success':>9}{'attr %':>8}"]
    for name, r in results.items():
        s = r["success"]["conversation"]
        acc = r["grounding"]["attribute_accuracy"]["total"]
        lines.append(f"{name:<24}{r['turns']['conversations']:>6}{r['turns']['total']:>7}"
                     f"{s['inform']['total']:>8.1f}{s['success']['total']:>9.1f}"
                     f"{'–' if acc is None else format(acc, '.1f'):>8}")
    sigs = {r["signatures"]["success"] for r in results.values()}
    return "\n".join(lines + [f"signature: {s}" for s in sorted(sigs)])


def explain_conversation_file(path: Path, dialogue_id: str, kw: dict[str, Any],
                              fmt: str = "text") -> str:
    """The ``explain`` text (or JSON) of one conversation of a conversation file: every
    record and goal is checked, as ``score`` checks them, and only that conversation is
    scored."""
    from mwzrepro.core.ids import canonical_dialogue_id
    from mwzrepro.scorer.lexicalized.conversation_input import read_conversations
    from mwzrepro.scorer.lexicalized.conversation_trace import (
        conversation_trace,
        explain_conversation,
    )
    from mwzrepro.scorer.lexicalized.conversations import resolve_goals, score_conversations

    evaluator = _evaluator(kw)
    items = read_conversations(path, kw["conversation_format"])
    resolve_goals(items, evaluator.resources.eval.goals, path.name)
    did = canonical_dialogue_id(dialogue_id)
    wanted = [c for c in items if c.dialogue_id == did]
    traces: dict[str, Any] = {}
    if wanted:      # else conversation_trace names the missing dialogue
        score_conversations(wanted, evaluator.resources, path.name, evaluator.inform.matching,
                            evaluator.inform.fuzzy_threshold, traces)
    if fmt == "json":
        return json.dumps(conversation_trace(traces, dialogue_id, evaluator._database()),
                          indent=1, ensure_ascii=False) + "\n"
    return explain_conversation(traces, dialogue_id, evaluator._database())
