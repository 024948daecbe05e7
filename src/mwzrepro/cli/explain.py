"""The user command ``explain``: the turn-by-turn Inform/Success trace of one dialogue of a
prediction file — the paper's Appendix A (Table 7): user utterance, ground-truth and
normalized generated response, state, active domains, offered-venue changes and provided
slots, then the goal venues and Inform/Success per domain
(:mod:`mwzrepro.standard.trace`)."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

import click

from mwzrepro.cli.score import IN_FILE, make_evaluator, resource_options
from mwzrepro.cli.score_conversations import conversation_option


@click.command("explain")
@click.argument("predictions_file", type=IN_FILE)
@click.argument("dialogue_id")
@resource_options
@click.option("--setting", type=click.Choice(["standard", "optimistic", "grounded"]),
              default="standard", show_default=True,
              help="Inform/Success setting to trace (grounded, with --lexicalized: named "
                   "venues, their records, each value correct or wrong).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="text (readable) or json (every field).")
@conversation_option
def explain(predictions_file: Path, dialogue_id: str, setting: str, fmt: str,
            **kw: Any) -> None:
    """Print the Inform/Success trace of DIALOGUE_ID (e.g. sng0580, the paper's Table 7
    dialogue) in PREDICTIONS_FILE (with --lexicalized, first each response before and after
    its delexicalization). A conversation file (records with turns): the conversation turn
    by turn, the venues named and each value marked correct or WRONG."""
    from mwzrepro.cli.options import setup_logging
    from mwzrepro.scorer.evaluator import read_predictions
    from mwzrepro.scorer.inputs import check_structure
    from mwzrepro.scorer.lexicalized.conversation_input import looks_like_conversation_file
    from mwzrepro.standard.report import format_trace

    setup_logging(None)
    if looks_like_conversation_file(predictions_file):
        from mwzrepro.cli.score_conversations import explain_conversation_file

        click.echo(explain_conversation_file(predictions_file, dialogue_id, kw, fmt), nl=False)
        return
    kw.pop("conversation_format")
    data = read_predictions(predictions_file)
    check_structure(data, predictions_file.name)
    evaluator = make_evaluator(kw, ("success",), setting)
    if setting == "grounded":
        from mwzrepro.scorer.lexicalized.grounding_trace import format_grounded_trace, grounded_trace

        g = grounded_trace(evaluator, data, dialogue_id, predictions_file.name)
        click.echo(json.dumps(g, indent=1, ensure_ascii=False) if fmt == "json"
                   else format_grounded_trace(g), nl=fmt == "json")
        return
    trace = evaluator.explain(data, dialogue_id, setting, predictions_file.name)
    pairs = None
    if kw.get("lexicalized"):
        from mwzrepro.scorer.lexicalized.delexicalize_pass import format_pairs, lex_state_source, lexicalized_pairs

        pairs = lexicalized_pairs(evaluator, data, dialogue_id)
    if fmt == "json":
        out = asdict(trace)
        if pairs is not None:
            out["lexicalized"] = [{"before": b, "after": a} for b, a in pairs]
        click.echo(json.dumps(out, indent=1, ensure_ascii=False))
    else:
        if pairs is not None:
            click.echo(format_pairs(dialogue_id, pairs, lex_state_source(data)))
        click.echo(format_trace(trace), nl=False)


COMMANDS = [explain]
HELP_GROUPS = {"scoring": [explain]}  # mwzrepro --help's group (cli.GROUPS)
