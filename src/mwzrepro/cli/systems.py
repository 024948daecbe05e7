"""Options shared by the per-system scoring commands (``score-bleu``, ``score-success``,
``score-richness``): one system per call, or many systems of one version in one process.

* one system: ``--system S --predictions FILE [--coverage FILE] --out FILE``;
* many systems: ``--system S1 --system S2 ... --predictions-dir DIR --out-dir DIR``, reading
  ``DIR/<system>.parquet`` (and ``DIR/<system>.coverage.parquet``) and writing
  ``OUT/<system>.parquet`` (and the command's other per-system files) — the same files, byte
  for byte, as one call per system, while the shared inputs are loaded once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import click

__all__ = ["PATH", "IN_FILE", "IN_DIR", "SystemJob", "systems_options", "system_jobs"]

PATH = click.Path(path_type=Path)
IN_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)
IN_DIR = click.Path(exists=True, file_okay=False, path_type=Path)


@dataclass(frozen=True)
class SystemJob:
    """One system to score: its name, prediction and coverage files (None for a system scored
    from references) and its output files by role (``"out"``, ``"out_dialogues"``, ...)."""

    system: str
    predictions: Path | None
    coverage: Path | None
    outputs: dict[str, Path]


def systems_options(f: Callable) -> Callable:
    """Add ``--system`` (repeatable), ``--predictions-dir`` and ``--out-dir``."""
    f = click.option("--out-dir", type=PATH, default=None,
                     help="With several --system: writes <out-dir>/<system>.parquet (and the "
                          "command's other per-system files).")(f)
    f = click.option("--predictions-dir", type=IN_DIR, default=None,
                     help="With several --system: reads <dir>/<system>.parquet and "
                          "<dir>/<system>.coverage.parquet.")(f)
    return click.option("--system", "systems", multiple=True, required=True,
                        help="System name; repeat it (with --predictions-dir and --out-dir) "
                             "to score several systems in one process.")(f)


def system_jobs(systems: tuple[str, ...], predictions: Path | None, coverage: Path | None,
                predictions_dir: Path | None, outputs: dict[str, Path | None],
                out_dir: Path | None, suffixes: dict[str, str],
                from_references: frozenset[str] = frozenset(),
                with_coverage: bool = True) -> list[SystemJob]:
    """The systems to score, from either form of the options (module docstring).

    Args:
        outputs: the single-system output options ``{role: path or None}``.
        suffixes: ``{role: file suffix}`` of the per-system files under ``--out-dir``
            (``{"out": ".parquet", "out_dialogues": ".dialogues.parquet"}``).
        from_references: system names scored from references, not from a prediction file
            (the ``oracle`` of ``score-success``).
        with_coverage: whether ``<system>.coverage.parquet`` is read in the many-system form.

    Raises:
        click.UsageError: the two forms are mixed, or an option of the chosen form is missing.
        InputError: a prediction or coverage file under ``--predictions-dir`` is missing.
    """
    from mwzrepro.core.errors import InputError

    if out_dir is None and predictions_dir is None:
        if len(systems) != 1:
            raise click.UsageError("several --system need --predictions-dir and --out-dir")
        missing = [role for role, path in outputs.items() if path is None]
        if missing:
            raise click.UsageError(f"give --{missing[0].replace('_', '-')} (or --out-dir)")
        return [SystemJob(systems[0], predictions, coverage, dict(outputs))]  # type: ignore
    if predictions is not None or any(p is not None for p in outputs.values()):
        raise click.UsageError("--predictions/--out are for one system; with --out-dir give "
                               "--predictions-dir")
    if out_dir is None:
        raise click.UsageError("--predictions-dir needs --out-dir")
    jobs = []
    for system in dict.fromkeys(systems):
        outs = {role: out_dir / f"{system}{suffix}" for role, suffix in suffixes.items()}
        if system in from_references:
            jobs.append(SystemJob(system, None, None, outs))
            continue
        if predictions_dir is None:
            raise click.UsageError("--out-dir needs --predictions-dir")
        pred = predictions_dir / f"{system}.parquet"
        cov = predictions_dir / f"{system}.coverage.parquet" if with_coverage else None
        for path in (pred, cov):
            if path is not None and not path.is_file():
                raise InputError(f"{path}: no such file (system {system})")
        jobs.append(SystemJob(system, pred, cov, outs))
    return jobs
