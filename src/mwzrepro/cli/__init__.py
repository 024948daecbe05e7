"""The ``mwzrepro`` command line: one subcommand per pipeline phase, plus user commands.

Every path and parameter is an explicit option (the code never reads ``params.yaml``); the
Snakemake rules and DVC stages call these commands with identical arguments. Each module
listed in :data:`COMMAND_MODULES` defines ``COMMANDS``, a list of click commands.
"""

from __future__ import annotations

import importlib
import sys

import click

from mwzrepro import __version__

#: Modules contributing subcommands, in help order.
COMMAND_MODULES = (
    "mwzrepro.cli.prepare",
    "mwzrepro.cli.bleu",
    "mwzrepro.cli.standard",
    "mwzrepro.cli.dst",
    "mwzrepro.cli.consistency",
    "mwzrepro.cli.unseen",
    "mwzrepro.cli.workflow",
)


class _Group(click.Group):
    """Loads the command modules only when the group is built (keeps startup fast)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._load()
        return super().list_commands(ctx)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        self._load()
        return super().get_command(ctx, name)

    def _load(self) -> None:
        if getattr(self, "_loaded", False):
            return
        self._loaded = True
        for mod in COMMAND_MODULES:
            try:
                module = importlib.import_module(mod)
            except ModuleNotFoundError as exc:
                if exc.name == mod:
                    continue
                raise
            for cmd in getattr(module, "COMMANDS", []):
                self.add_command(cmd)


def _versions() -> str:
    from importlib.metadata import PackageNotFoundError, version

    parts = [f"mwzrepro {__version__}"]
    for dist in ("sacrebleu", "sacremoses", "rapidfuzz", "pandas", "pyarrow", "snakemake", "dvc"):
        try:
            parts.append(f"{dist} {version(dist)}")
        except PackageNotFoundError:
            parts.append(f"{dist} (not installed)")
    return "\n".join(parts)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True,
              help="Show the version of mwzrepro and of the libraries that shape its numbers.",
              callback=lambda ctx, _p, v: (click.echo(_versions()), ctx.exit()) if v else None)
def cli() -> None:
    """mwzrepro: regenerate and score MultiWOZ evaluations reproducibly."""


def main() -> None:
    """Console entry point: run the CLI; library errors become one clear line and exit 1."""
    from mwzrepro.core.errors import UserError

    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Abort:
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except UserError as exc:
        click.echo(f"mwzrepro: error: {exc}", err=True)
        sys.exit(1)
