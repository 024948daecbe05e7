"""The user command ``compare``: two prediction files (the reference evaluator's format) scored
on the same test set and compared metric by metric — A, B, A − B, the paired bootstrap
interval of the difference and its p-value (is the difference real?). Inform and
Success (the chosen setting), BLEU and, when both files carry a state on every turn, JGA and
FGA(λ). Library: :meth:`mwzrepro.scorer.evaluator.Evaluator.compare`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from mwzrepro.cli.score import IN_FILE, PATH, make_evaluator, resource_options
from mwzrepro.cli.score_many import form_option
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
@form_option("the label of A or B")
@click.option("--strict", is_flag=True, default=False,
              help="Stop when the files cover different test dialogues (default: compare "
                   "on the dialogues both cover, with a warning).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]),
              default="text", show_default=True,
              help="text or markdown (rounded, * = p < alpha), json (full precision).")
@click.option("--out", type=PATH, default=None, help="Also write the JSON here.")
def compare(predictions_a: Path, predictions_b: Path, setting: str, name_a: str | None,
            name_b: str | None, form: tuple[str, ...], strict: bool, fmt: str,
            out: Path | None, **kw: Any) -> None:
    """Compare PREDICTIONS_A with PREDICTIONS_B: per metric, each figure with its 95 %
    interval, A − B, the interval of the difference and its p-value (paired bootstrap over
    the test dialogues; uncorrected: each metric is its own question). Files covering
    different dialogues are compared on the dialogues both cover, with a warning. For your own
    files; stats-compare is the pipeline's tool over its score files."""
    from mwzrepro.cli.options import setup_logging
    from mwzrepro.core.io import write_json
    from mwzrepro.scorer.leaderboard.compare import compare_shared
    from mwzrepro.scorer.evaluator import read_predictions
    from mwzrepro.scorer.lexicalized.file_form import lexicalized_form, parse_forms, with_form
    from mwzrepro.scorer.inputs import read_shape
    from mwzrepro.stats.catalog import spec
    from mwzrepro.stats.compare import comparison_note, format_comparison

    log = setup_logging(None)
    params = from_options(StatsParams, {**kw, "correction": "none"}, "stats")
    names = (name_a or predictions_a.stem, name_b or predictions_b.stem)
    forms = parse_forms(form, names)
    data = []
    for path in (predictions_a, predictions_b):
        data.append(read_predictions(path))
        read_shape(data[-1], path.name)
    evaluator = make_evaluator(kw, ("bleu", "success", "dst"), setting)
    evaluators = []
    for name, path, d in zip(names, (predictions_a, predictions_b), data):
        f, line = lexicalized_form(evaluator, forms.get(name), d, path.name, "compared")
        if line:
            log.warning("%s", line)
        evaluators.append(with_form(evaluator, f))
    done = compare_shared(tuple(evaluators), data[0], data[1], params, names, strict)
    for line in done.drops:
        log.warning("%s", line)
    if done.shared_only:
        log.warning("%s", done.warning(names))
    rows = done.rows
    doc = {"a": names[0], "b": names[1], "version": evaluator.version, "setting": setting,
           "dialogues": done.dialogues,
           "coverage": {"a": done.covered[0], "b": done.covered[1],
                        "shared": done.dialogues, "test": done.test_dialogues,
                        "shared_only": done.shared_only},
           "warning": done.warning(names) or None,
           "forms": {n: {"lexicalized": e.lexicalized,
                         "placeholders": e.standard.placeholders}
                     for n, e in zip(names, evaluators)},
           "params": params.model_dump(),
           "pm": f"half the width of the {100 * params.confidence:g} % percentile interval",
           "note": comparison_note(params, done.dialogues, done.test_dialogues),
           "metrics": [{"title": spec(r.metric).title(params.fga_lambda), **r.as_dict(),
                        "significant": r.p < params.alpha} for r in rows]}
    if out is not None:
        write_json(doc, out)
    if fmt == "json":
        click.echo(json.dumps(doc, indent=1))
        return
    click.echo(f"{names[0]} (A) vs {names[1]} (B), {evaluator.version} test, {setting} setting")
    click.echo(format_comparison(rows, names[0], names[1], fmt=fmt, params=params), nl=False)
    click.echo(doc["note"])


COMMANDS = [compare]
HELP_GROUPS = {"scoring": [compare]}  # mwzrepro --help's group (cli.GROUPS)
