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


