"""Option helpers shared by the CLI modules."""

from __future__ import annotations

import logging
from pathlib import Path

import click

# The standard evaluation's parameter models by name: their options and validated defaults
# come from the generated mwzrepro.core.params_table (no pydantic import unless a value
# differs from its default; mwzrepro.core.params_defaults).
INFORM_PARAMS = "mwzrepro.standard.params:InformParams"
STANDARD_PARAMS = "mwzrepro.standard.params:StandardParams"
RICHNESS_PARAMS = "mwzrepro.standard.params:RichnessParams"

#: ``--log FILE``: append this command's log lines to FILE (Snakemake/DVC pass logs/<...>.log).
log_option = click.option(
    "--log", "log_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
    help="Append log lines to this file (default: stderr only).",
)


def setup_logging(log_file: Path | None) -> logging.Logger:
    """Log INFO lines to stderr and, if given, to ``log_file`` (no timestamps)."""
    logger = logging.getLogger("mwzrepro")
    logger.handlers.clear()
    logger.setLevel(logging.INFO)
    fmt = logging.Formatter("%(levelname)s %(message)s")
    handler: logging.Handler = logging.StreamHandler()
    handler.setFormatter(fmt)
    logger.addHandler(handler)
    if log_file is not None:
        log_file.parent.mkdir(parents=True, exist_ok=True)
        fh = logging.FileHandler(log_file, mode="w", encoding="utf-8")
        fh.setFormatter(fmt)
        logger.addHandler(fh)
    logger.propagate = False
    return logger



#: ``--record FILE``: the full summary record beside a numbers-only ``--metrics`` file
#: (:func:`mwzrepro.core.io.write_metrics`).
record_option = click.option(
    "--record", "record", type=click.Path(dir_okay=False, path_type=Path), default=None,
    help="The full record to write (every figure with its signature, notes and lists: "
         "results/records/<name>.json); --metrics then gets its numbers only, for dvc "
         "metrics diff. Without it, --metrics gets the full record.",
)


class AliasOption(click.Option):
    """An option whose first name is the one ``--help`` shows; the later names are former
    names, still accepted, not shown (``--dataset-version``, formerly ``--version``, which
    clashed with ``mwzrepro --version``, the tool's own version).

    >>> @click.command()
    ... @click.option("--dataset-version", "--version", "version", cls=AliasOption)
    ... def f(version):
    ...     click.echo(version)
    >>> from click.testing import CliRunner
    >>> CliRunner().invoke(f, ["--version", "mwz20"]).output
    'mwz20\\n'
    >>> "--dataset-version" in CliRunner().invoke(f, ["--help"]).output
    True
    >>> "--version" in CliRunner().invoke(f, ["--help"]).output.replace("--dataset-version", "")
    False
    """

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        opts, self.opts = self.opts, self.opts[:1]
        try:
            return super().get_help_record(ctx)
        finally:
            self.opts = opts
