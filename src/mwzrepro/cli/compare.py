"""The user command ``compare``: two prediction files (the reference evaluator's format) scored
on the same test set and compared metric by metric — A, B, A − B, the paired bootstrap
interval of the difference and its p-value (issue 14: is the difference real?). Inform and
Success (the chosen setting), BLEU and, when both files carry a state on every turn, JGA and
FGA(λ). Library: :meth:`mwzrepro.scorer.evaluator.Evaluator.compare`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from mwzrepro.cli.score import IN_FILE, PATH, make_evaluator, resource_options
from mwzrepro.core.params import click_options, from_options
from mwzrepro.stats.params import StatsParams


@click.command("compare")
@click.argument("predictions_a", type=IN_FILE)
@click.argument("predictions_b", type=IN_FILE)
@resource_options
@click.option("--setting", type=click.Choice(["standard", "optimistic"]), default="standard",
              show_default=True, help="Inform/Success setting compared.")
@click_options(StatsParams, exclude=("correction",))
@click.option("--name-a", default=None, help="Label of A (default: its file stem).")
@click.option("--name-b", default=None, help="Label of B (default: its file stem).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]),
              default="text", show_default=True,
              help="text or markdown (rounded, * = p < alpha), json (full precision).")
@click.option("--out", type=PATH, default=None, help="Also write the JSON here.")
def compare(predictions_a: Path, predictions_b: Path, setting: str, name_a: str | None,
            name_b: str | None, fmt: str, out: Path | None, **kw: Any) -> None:
    """Compare PREDICTIONS_A with PREDICTIONS_B: per metric, each figure with its 95 %
    interval, A − B, the interval of the difference and its p-value (paired bootstrap over
    the test dialogues; uncorrected: each metric is its own question). For your own files;
    stats-compare is the pipeline's tool over its score files."""
    from mwzrepro.cli.options import setup_logging
    from mwzrepro.core.io import write_json
    from mwzrepro.scorer.evaluator import read_predictions
    from mwzrepro.scorer.inputs import read_shape
    from mwzrepro.stats.catalog import spec
    from mwzrepro.stats.compare import comparison_note, format_comparison

    setup_logging(None)
    params = from_options(StatsParams, kw, "stats")
    names = (name_a or predictions_a.stem, name_b or predictions_b.stem)
    data = []
    for path in (predictions_a, predictions_b):
        data.append(read_predictions(path))
        read_shape(data[-1], path.name)
    evaluator = make_evaluator(kw, ("bleu", "success", "dst"), setting)
    rows = evaluator.compare(data[0], data[1], params, names)
    dialogues = len(evaluator.resources.expected)
    doc = {"a": names[0], "b": names[1], "version": evaluator.version, "setting": setting,
           "dialogues": dialogues, "params": params.model_dump(),
           "metrics": [{"title": spec(r.metric).title(params.fga_lambda), **r.as_dict(),
                        "significant": r.p < params.alpha} for r in rows]}
    if out is not None:
        write_json(doc, out)
    if fmt == "json":
        click.echo(json.dumps(doc, indent=1))
        return
    click.echo(f"{names[0]} (A) vs {names[1]} (B), {evaluator.version} test, {setting} setting")
    click.echo(format_comparison(rows, names[0], names[1], fmt=fmt, params=params), nl=False)
    click.echo(comparison_note(params, dialogues))


COMMANDS = [compare]
HELP_GROUPS = {"scoring": [compare]}  # mwzrepro --help's group (cli.GROUPS)
