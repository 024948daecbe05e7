"""Which raw files a dataset version's evaluation resources come from, and how they are built —
with the same library functions as the pipeline's ``ingest``, ``redelex`` and ``goals``
phases, so the scorer's numbers equal the workflow's.

Per version (:data:`VERSIONS`), from the test split:

* ``mwz20``, ``mwz21``: the ConvLab-layout ``test.json.zip`` (registry ids ``mwz20-test``,
  ``mwz21-test``): :func:`~mwzrepro.prepare.ingest.convlab.read_convlab`.
* ``mwz22``: the official 2.2 test files and ``dialog_acts.json`` (``multiwoz-test-dialogues-001``,
  ``-002``, ``multiwoz-dialog-acts``; character spans):
  :func:`~mwzrepro.prepare.ingest.mwz22.read_mwz22`. 2.2 has neither goals nor booking lists,
  so goals (spec-standard-evaluation §5.2) and booked domains (§5.3) come from the 2.1 test
  file, as the reference evaluator's own files do.

Then: span references (:func:`~mwzrepro.prepare.delex.span.build_references`, §5.4 and §3),
goals (:func:`~mwzrepro.standard.goals.build_eval_goals`), booked domains
(:func:`~mwzrepro.standard.booked.build_booked_domains`), gold states
(:func:`~mwzrepro.standard.gold_states.build_gold_states`, §4), ground-truth turn domains
(:func:`~mwzrepro.standard.active_domains.build_turn_domains`, §10). The venue database is the
four normative files of §5.1 (:data:`DATABASE_SOURCES`).

>>> sorted(VERSIONS), VERSIONS["mwz22"].goal_source
(['mwz20', 'mwz21', 'mwz22'], 'mwz21-test')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from mwzrepro.core.errors import ConfigError

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["VersionRecipe", "VERSIONS", "DATABASE_SOURCES", "RESOURCE_TABLES", "recipe",
           "build_tables"]

#: Registry ids of the normative venue database files (spec-standard-evaluation §5.1).
DATABASE_SOURCES: Mapping[str, str] = {
    "restaurant": "multiwoz-db-restaurant-db",
    "hotel": "mwzeval-database-hotel-db",
    "attraction": "mwzeval-database-attraction-db",
    "train": "mwzeval-database-train-db",
}

#: The Parquet tables of a built resource set (schemas of :mod:`mwzrepro.core.schemas`).
RESOURCE_TABLES = ("dialogues", "turns", "states", "references", "eval_goals",
                   "booked_domains", "gold_states", "turn_domains")


@dataclass(frozen=True)
class VersionRecipe:
    """The raw files of a version's test split.

    Attributes:
        version: dataset version label (``mwz21``).
        layout: ``convlab`` (2.0/2.1) or ``mwz22`` (official 2.2).
        dialogue_sources: registry ids of the dialogue file(s), in reading order.
        dialog_acts: registry id of ``dialog_acts.json`` (``mwz22`` only).
        goal_source: registry id of a ConvLab file whose goals and booking lists are used
            (``None``: the dialogue file's own).
    """

    version: str
    layout: str
    dialogue_sources: tuple[str, ...]
    dialog_acts: str | None = None
    goal_source: str | None = None

    def source_ids(self) -> list[str]:
        """Every registry id this version needs, database files included."""
        ids = list(self.dialogue_sources)
        ids += [i for i in (self.dialog_acts, self.goal_source) if i]
        return ids + list(DATABASE_SOURCES.values())


#: The versions the scorer can build (``--version``).
VERSIONS: Mapping[str, VersionRecipe] = {
    "mwz20": VersionRecipe("mwz20", "convlab", ("mwz20-test",)),
    "mwz21": VersionRecipe("mwz21", "convlab", ("mwz21-test",)),
    "mwz22": VersionRecipe("mwz22", "mwz22",
                           ("multiwoz-test-dialogues-001", "multiwoz-test-dialogues-002"),
                           dialog_acts="multiwoz-dialog-acts", goal_source="mwz21-test"),
}


def recipe(version: str) -> VersionRecipe:
    """The recipe of ``version``.

    Raises:
        ConfigError: unknown version (the message lists the known ones).

    >>> recipe("mwz19")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mwzrepro.core.errors.ConfigError: unknown dataset version 'mwz19'; the scorer knows mwz20, ...
    """
    if version not in VERSIONS:
        raise ConfigError(f"unknown dataset version {version!r}; the scorer knows "
                          f"{', '.join(sorted(VERSIONS))}")
    return VERSIONS[version]


def build_tables(spec: VersionRecipe, paths: Mapping[str, Path],
                 step: Callable[[str], None] = lambda _: None) -> dict[str, pd.DataFrame]:
    """Build the resource tables of one version's test split from its verified raw files.

    Args:
        spec: the version's recipe.
        paths: ``{registry id: local file}`` for every id of ``spec.source_ids()``.
        step: called with a short label before each step (progress display).

    Returns:
        ``{table: DataFrame}`` for every name in :data:`RESOURCE_TABLES`.

    Raises:
        IngestError: malformed raw files (names the file, dialogue and turn).
    """
    from mwzrepro.prepare.delex.span import build_references
    from mwzrepro.prepare.ingest.convlab import read_convlab
    from mwzrepro.standard.active_domains import build_turn_domains
    from mwzrepro.standard.booked import build_booked_domains
    from mwzrepro.standard.goals import build_eval_goals
    from mwzrepro.standard.gold_states import build_gold_states

    step(f"reading the {spec.version} test dialogues")
    if spec.layout == "convlab":
        (source,) = spec.dialogue_sources
        tables, _ = read_convlab(paths[source], "test")
    else:
        from mwzrepro.prepare.ingest.mwz22 import read_mwz22

        acts = paths[spec.dialog_acts] if spec.dialog_acts else None
        tables, _ = read_mwz22([paths[s] for s in spec.dialogue_sources], acts, "test")
    goal_tables = tables
    if spec.goal_source is not None:
        step("reading goals and bookings")
        goal_tables, _ = read_convlab(paths[spec.goal_source], "test")
    step("delexicalizing references")
    out = {name: tables[name] for name in ("dialogues", "turns", "states")}
    out["references"] = build_references(tables["turns"], tables["spans"])
    step("building goals, booked domains, gold states, turn domains")
    out["eval_goals"] = build_eval_goals(goal_tables["goals"])
    out["booked_domains"] = build_booked_domains(goal_tables["booked"],
                                                 goal_tables["dialogues"])
    out["gold_states"] = build_gold_states(tables["states"], tables["dialogues"])
    out["turn_domains"] = build_turn_domains(tables["states"], tables["acts"],
                                             tables["dialogues"])
    return out
