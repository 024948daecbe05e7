"""The verified resource set of one dataset version, as the scorer reads it: tables, dicts and
the venue database, loaded lazily from the set's cache directory (written by
:mod:`mwzrepro.scorer.resources.resource_files`, found or built by
:func:`mwzrepro.scorer.resources.load.load_resources`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mwzrepro.scorer.resources.build import DATABASE_SOURCES

if TYPE_CHECKING:
    import pandas as pd

    from mwzrepro.core.venue_database import VenueDatabase
    from mwzrepro.standard.scoring import EvalResources

__all__ = ["RESOURCE_FILES", "DST_GOLD_FILE", "VersionResources", "dst_gold_from"]

#: The JSON files of a resource set (``<name>.json``), besides ``db/<domain>_db.json``.
RESOURCE_FILES = ("references", "eval_goals", "booked_domains", "gold_states", "turn_domains",
                  "user_turns", "states", "dialogues", "bleu_references")

#: The DST gold states as :func:`mwzrepro.dst.readers.gold.gold_from_tables` returns them,
#: pickled at build time (``VersionResources.dst_gold`` loads them in milliseconds instead of
#: rebuilding them from the ``states`` columns, about 0.6 s; written by this package into the
#: per-user cache and hash-verified with the rest of the set before use).
DST_GOLD_FILE = "dst_gold.pickle"


class _LazyDict(Mapping):
    """A read-only mapping built on first access (resources a scoring run may not need)."""

    def __init__(self, build) -> None:
        self._build = build
        self._data: dict | None = None

    def _get(self) -> dict:
        if self._data is None:
            self._data = self._build()
        return self._data

    def __getitem__(self, key: str) -> Any:
        return self._get()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())

    def __contains__(self, key: object) -> bool:
        return key in self._get()


class VersionResources:
    """The verified resource set of one version (built by
    :func:`~mwzrepro.scorer.resources.load.load_resources`).

    Files (JSON, :data:`RESOURCE_FILES`): the references (columns of the ``references``
    table), the scorers' dicts of goals, booked domains, gold states and turn domains (what
    :class:`~mwzrepro.standard.scoring.EvalResources` holds), the user utterances, the
    ``states`` and ``dialogues`` columns (DST gold), the references' 13a tokens
    (``bleu_references``), and ``db/<domain>_db.json``; the DST gold states also pickled
    (:data:`DST_GOLD_FILE`).

    Attributes:
        version: dataset version.
        directory: the cache directory of the set.
        normative_db: check the database files against the normative SHA-256 of §5.1
            (false only for a custom registry, e.g. test fixtures).
    """

    def __init__(self, version: str, directory: Path, normative_db: bool = True) -> None:
        self.version = version
        self.directory = directory
        self.normative_db = normative_db
        self._json: dict[str, Any] = {}
        self._databases: dict[tuple[str, float], VenueDatabase] = {}

    def _load(self, name: str) -> Any:
        if name not in self._json:
            self._json[name] = json.loads((self.directory / f"{name}.json").read_text(
                encoding="utf-8"))
        return self._json[name]

    @cached_property
    def reference_columns(self) -> dict[str, list]:
        """The ``references`` table as columns (``{column: list}``: dialogue_id, turn, text,
        delex, reference; what the scorer reads, without pandas); their stored 13a tokens
        are registered for BLEU (:func:`mwzrepro.bleu.score.register_reference_tokens`:
        scoring BLEU does not tokenize the references again)."""
        from mwzrepro.bleu.score import register_reference_tokens

        columns = self._load("references")
        register_reference_tokens(columns, self._load("bleu_references"))
        return columns

    @cached_property
    def references(self) -> pd.DataFrame:
        """:attr:`reference_columns` as a DataFrame (imports pandas)."""
        import pandas as pd

        return pd.DataFrame(self.reference_columns)

    @cached_property
    def expected(self) -> dict[str, int]:
        """``{dialogue_id: system turns}`` of the test split (one reference per turn)."""
        out: dict[str, int] = {}
        for did in self._load("references")["dialogue_id"]:
            out[did] = out.get(did, 0) + 1
        return out

    @cached_property
    def eval(self) -> EvalResources:
        """Goals, booked domains, gold states and turn domains as the scorers' dicts; gold
        states and turn domains are read on first use."""
        from mwzrepro.standard.scoring import EvalResources

        return EvalResources(self._load("eval_goals"), self._load("booked_domains"),
                             _LazyDict(lambda: self._load("gold_states")),
                             _LazyDict(lambda: self._load("turn_domains")))

    def user_utterances(self, dialogue_id: str) -> list[str]:
        """The user utterances of a dialogue, one per system turn (the one before it)."""
        return list(self._load("user_turns").get(dialogue_id, []))

    def database(self, matching: str = "reference", threshold: float = 90) -> VenueDatabase:
        """The venue database (§5.1) with fuzzy matching ``matching`` and ``threshold``."""
        key = (matching, float(threshold))
        if key not in self._databases:
            from mwzrepro.core.venue_database import NORMATIVE_SHA256, VenueDatabase

            paths = {d: self.directory / "db" / f"{d}_db.json" for d in DATABASE_SOURCES}
            self._databases[key] = VenueDatabase.from_files(
                paths, matching=matching, threshold=threshold,
                expected_sha256=NORMATIVE_SHA256 if self.normative_db else None)
        return self._databases[key]

    @cached_property
    def dst_raw_gold(self) -> dict[str, list]:
        """Raw gold turns of the DST scoring conventions (spec-dst-metrics §12)."""
        from mwzrepro.dst.conventions.turns import gold_turns

        return gold_turns(self._load("states"), self._load("dialogues"))

    @cached_property
    def dst_gold(self) -> tuple[dict, Any]:
        """Gold belief states of spec-dst-metrics (``(gold, dropped gold slot counts)``), from
        the set's :data:`DST_GOLD_FILE` (built from the ``states`` columns when absent)."""
        import pickle

        path = self.directory / DST_GOLD_FILE
        if path.is_file():
            return pickle.loads(path.read_bytes())
        return dst_gold_from(self._load("states"), self._load("dialogues"), self.version)


def dst_gold_from(states: Mapping[str, list], dialogues: Mapping[str, list],
                  version: str) -> tuple[dict, Any]:
    """``(gold, dropped gold slot counts)`` of :func:`mwzrepro.dst.readers.gold.
    gold_from_tables` from the ``states`` and ``dialogues`` columns of a resource set."""
    from collections import Counter

    import pandas as pd

    from mwzrepro.dst.readers.gold import gold_from_tables

    dropped: Counter = Counter()
    gold = gold_from_tables(pd.DataFrame(states), pd.DataFrame(dialogues),
                            f"{version} gold states", dropped)
    return gold, dropped
