"""The published values of spec-paper-tables, parsed and checked once (the file
``workflow/resources/published/nekvinda2021.yaml``).

Structure (see the file's comments): ``table4`` (systems, titles, one row of 13 BLEU values
per style plus ``reported``, notes), ``word_pairs``, ``table2`` (dialogue, turn, one text per
style, notes), ``table8``/``table9`` (dialogue, turn, context, one text per row, notes),
``fga_table2`` (rows of split, conversations, turns, avg_turns; exclusions; notes).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from mwzrepro.core.errors import ConfigError

__all__ = ["Published", "OutputsTable", "read_published", "parse_published"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Table4(_Model):
    """Nekvinda & Dušek 2021, Table 4 as printed: BLEU (0-100, one decimal) of ``systems``
    (column order) in each row ``{style: [value per system]}``, the papers' system
    ``titles``, and ``notes``. Raises ``ValueError`` (pydantic) when a row's width differs
    from ``systems`` or a system has no title."""

    systems: list[str]
    titles: dict[str, str]
    rows: dict[str, list[float]]
    notes: dict[str, str] = {}

    @model_validator(mode="after")
    def _widths(self) -> Table4:
        for name, values in self.rows.items():
            if len(values) != len(self.systems):
                raise ValueError(f"row {name!r} has {len(values)} values for "
                                 f"{len(self.systems)} systems")
        missing = [s for s in self.systems if s not in self.titles]
        if missing:
            raise ValueError(f"no title for systems {missing}")
        return self

    def value(self, row: str, system: str) -> float:
        """The published BLEU of ``system`` in ``row``."""
        return self.rows[row][self.systems.index(system)]


class Table2(_Model):
    """Nekvinda & Dušek 2021, Table 2: the response of ``dialogue_id`` at system turn
    ``turn`` (``source``, the original text) under each style, ``rows`` ``{style: text}``."""

    dialogue_id: str
    turn: int
    source: str
    rows: dict[str, str]
    notes: dict[str, str] = {}


class OutputsTable(_Model):
    """Table 8 or 9: one turn's outputs side by side."""

    dialogue_id: str
    turn: int
    context: str
    rows: dict[str, str]
    notes: dict[str, str] = {}


class FgaRow(_Model):
    """One row of Dey et al. 2022, Table 2: a split's conversations, turns and average turns
    per conversation."""

    split: str
    conversations: int
    turns: int
    avg_turns: float


class FgaTable2(_Model):
    """Dey et al. 2022, Table 2: one :class:`FgaRow` per split, the dialogues the paper left
    out per split (``excluded``), and ``notes``."""

    rows: list[FgaRow]
    excluded: dict[str, list[str]] = {}
    notes: dict[str, str] = {}


class WordPairsSource(_Model):
    """A style's pinned ``mapping.pair`` file: upstream ``url``, git blob ``sha1`` and size in
    ``bytes``."""

    url: str
    sha1: str
    bytes: int


class Published(_Model):
    """The whole published-values file."""

    source: dict[str, str]
    table4: Table4
    word_pairs: dict[str, WordPairsSource] = {}
    table2: Table2
    table8: OutputsTable
    table9: OutputsTable
    fga_table2: FgaTable2


def parse_published(data: Any, source: str = "<published>") -> Published:
    """Validate the parsed YAML.

    Raises:
        ConfigError: a missing or malformed entry (names ``source`` and the entry).
    """
    try:
        return Published.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ConfigError(f"{source}: {where}: {first['msg']}") from None


def read_published(path: str | os.PathLike[str]) -> Published:
    """Read and validate ``nekvinda2021.yaml``.

    Raises:
        ConfigError: unreadable YAML or a malformed entry.
    """
    import yaml

    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"{path}: cannot read published values: {exc}") from None
    return parse_published(data, str(path))
