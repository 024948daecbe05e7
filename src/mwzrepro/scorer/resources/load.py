"""A version's evaluation resources, built once per user and reused: :func:`load_resources`
returns a :class:`VersionResources` whose tables, dicts and venue database are read lazily
from a verified cache directory (:mod:`mwzrepro.scorer.resources.cache`).

First use of a version: fetch and verify the raw files (:mod:`mwzrepro.scorer.resources.fetch`), build
the tables (:func:`mwzrepro.scorer.resources.build.build_tables`), store them as JSON in the form the
scorers read (:func:`resource_files`: no Parquet, so scoring needs neither pyarrow nor
pandera), copy the four database files, write the manifest — under a file lock, so
concurrent first calls build once. Later uses re-hash every file against the manifest (a few
milliseconds) and rebuild when anything is missing or differs.

The cache directory of a build is named by a *build key*: a hash of the cache format, the
version's recipe, the registry file, the package version, the normalization version and the
source of the modules that build the tables — a new release or an edited builder gets a fresh
directory instead of stale tables.
"""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
from collections.abc import Iterator, Mapping
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mwzrepro.core.version import __version__
from mwzrepro.core.signature import NORMALIZATION_VERSION
from mwzrepro.scorer.resources.build import DATABASE_SOURCES, VersionRecipe, build_tables, recipe
from mwzrepro.scorer.resources.cache import (
    build_lock,
    cache_root,
    sha256_file,
    verify_manifest,
    write_manifest,
)
from mwzrepro.scorer.resources.fetch import (
    default_registry,
    fetch_sources,
    registry_sources,
    resolve_mirror,
)

if TYPE_CHECKING:
    import pandas as pd

    from mwzrepro.core.venue_database import VenueDatabase
    from mwzrepro.standard.scoring import EvalResources

__all__ = ["CACHE_FORMAT", "RESOURCE_FILES", "DST_GOLD_FILE", "dst_gold_from", "VersionResources", "load_resources", "build_key",
           "resource_files"]

log = logging.getLogger("mwzrepro")

#: Layout version of a cached resource set; bump when the set's files change meaning.
CACHE_FORMAT = 2

#: The JSON files of a resource set (``<name>.json``), besides ``db/<domain>_db.json``.
RESOURCE_FILES = ("references", "eval_goals", "booked_domains", "gold_states", "turn_domains",
                  "user_turns", "states", "dialogues", "bleu_references")

#: The DST gold states as :func:`mwzrepro.dst.readers.gold.gold_from_tables` returns them,
#: pickled at build time (``VersionResources.dst_gold`` loads them in milliseconds instead of
#: rebuilding them from the ``states`` columns, about 0.6 s; written by this package into the
#: per-user cache and hash-verified with the rest of the set before use).
DST_GOLD_FILE = "dst_gold.pickle"

#: Modules (relative to the package) whose code shapes the built tables.
_BUILDER_MODULES = (
    "scorer/resources/build.py", "scorer/resources/load.py", "prepare/ingest/convlab.py",
    "prepare/ingest/mwz22.py",
    "prepare/delex/span.py", "core/normalize.py", "core/moses.py", "core/normalize_state.py",
    "core/io.py",
    "standard/goals.py", "standard/booked.py", "standard/gold_states.py",
    "standard/active_domains.py", "core/schemas/__init__.py", "core/schemas/dataset.py",
    "core/schemas/evaluation.py", "core/schemas/spec.py", "dst/readers/gold.py", "dst/state.py",
    "bleu/score.py",
)


def _code_digest() -> str:
    package = Path(__file__).resolve().parents[2]
    h = hashlib.sha256()
    for rel in _BUILDER_MODULES:
        path = package / rel
        h.update(rel.encode() + b"\0" + (path.read_bytes() if path.is_file() else b"") + b"\0")
    return h.hexdigest()


def _sacrebleu_version() -> str:
    """sacrebleu's version (its ``__version__``: scoring BLEU imports sacrebleu anyway, and
    reading it is faster than ``importlib.metadata``)."""
    import sacrebleu

    return sacrebleu.__version__


def build_key(spec: VersionRecipe, registry: Path) -> dict[str, Any]:
    """The fields that name (and are recorded in) a version's cached resource set."""
    info = {
        "format": CACHE_FORMAT, "version": spec.version, "mwzrepro": __version__,
        "normalization": NORMALIZATION_VERSION, "recipe": spec.source_ids(),
        "registry": sha256_file(registry), "code": _code_digest(),
        "sacrebleu": _sacrebleu_version(),  # its 13a tokens of the references are stored
    }
    info["key"] = hashlib.sha256(json.dumps(info, sort_keys=True).encode()).hexdigest()[:16]
    return info


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
    """The verified resource set of one version (built by :func:`load_resources`).

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


def _columns(df: pd.DataFrame, columns: list[str]) -> dict[str, list]:
    """Column-oriented plain lists (numpy scalars as Python values, arrays as lists)."""
    out = {}
    for c in columns:
        values = df[c].tolist()
        out[c] = [list(v) if v is not None and not isinstance(v, (str, int, float))
                  else v for v in values]
    return out


def resource_files(tables: Mapping[str, pd.DataFrame]) -> dict[str, Any]:
    """The JSON content of a resource set from :func:`~mwzrepro.scorer.resources.build.build_tables`
    (the same conversions the pipeline's scorers apply to its Parquet tables)."""
    from mwzrepro.standard.booked import booked_domains_to_dict
    from mwzrepro.standard.goals import eval_goals_to_dict
    from mwzrepro.standard.gold_states import gold_states_to_dict

    turns = tables["turns"]
    user = turns[turns["speaker"] == "user"].sort_values(["dialogue_id", "turn_id"],
                                                         kind="mergesort")
    user_turns: dict[str, list[str]] = {}
    for did, text in zip(user["dialogue_id"], user["text"]):
        user_turns.setdefault(did, []).append(text)
    refs = tables["references"].sort_values(["dialogue_id", "turn"], kind="mergesort")
    states = tables["states"].sort_values(["dialogue_id", "turn", "domain", "slot"],
                                          kind="mergesort")
    from mwzrepro.bleu.score import reference_tokens

    return {
        "references": _columns(refs, ["dialogue_id", "turn", "text", "delex", "reference"]),
        "bleu_references": reference_tokens(refs["reference"].tolist()),
        "eval_goals": eval_goals_to_dict(tables["eval_goals"]),
        "booked_domains": booked_domains_to_dict(tables["booked_domains"]),
        "gold_states": gold_states_to_dict(tables["gold_states"]),
        "turn_domains": booked_domains_to_dict(tables["turn_domains"]),
        "user_turns": user_turns,
        "states": _columns(states, ["dialogue_id", "turn", "domain", "slot", "value",
                                    "alternatives", "position"]),
        "dialogues": _columns(tables["dialogues"].sort_values("dialogue_id"),
                              ["dialogue_id", "n_turns"]),
    }


def load_resources(version: str, cache_dir: str | Path | None = None,
                   mirror: str | Path | None = None, registry: str | Path | None = None,
                   progress: bool | None = None) -> VersionResources:
    """The verified resources of ``version``, built on first use.

    Args:
        version: ``mwz20``, ``mwz21`` or ``mwz22``.
        cache_dir: cache root (default: ``$MWZREPRO_CACHE`` or the per-user cache).
        mirror: mirror directory (default: ``$MWZREPRO_MIRROR``; else the pinned URLs).
        registry: sources registry (default: the packaged ``sources.yaml``). With another
            registry the database files are verified by their git blob id only.
        progress: progress bars (None: only on a terminal).

    Raises:
        ConfigError: unknown version; the cache path is not a directory.
        DownloadError: a raw file cannot be fetched or does not verify.
        IngestError: a raw file is malformed.
    """
    spec = recipe(version)
    root = cache_root(cache_dir)
    reg = Path(registry).resolve() if registry is not None else default_registry()
    info = build_key(spec, reg)
    directory = root / "resources" / version / info["key"]
    normative = registry is None
    if not verify_manifest(directory, {"key": info["key"]}):
        return VersionResources(version, directory, normative)
    with build_lock(root, version):
        problems = verify_manifest(directory, {"key": info["key"]})
        if problems:
            if directory.exists():
                log.warning("cached %s resources failed verification (%s); rebuilding",
                            version, "; ".join(problems[:3]))
            else:
                log.info("building the %s evaluation resources once, in %s", version,
                         directory)
            _build(spec, directory, root, reg, resolve_mirror(mirror), info, progress)
            _prune(directory)
    return VersionResources(version, directory, normative)


#: Seconds after which the resource set of an older build key is deleted (another process
#: of an older installation may still be reading a younger one).
STALE_AFTER = 24 * 3600


def _prune(current: Path) -> None:
    """Delete the version's resource sets of other build keys not touched for a day."""
    import time

    for other in current.parent.iterdir():
        if other == current or not other.is_dir():
            continue
        if time.time() - other.stat().st_mtime > STALE_AFTER:
            shutil.rmtree(other, ignore_errors=True)
            log.info("removed the stale resource set %s", other)


def _build(spec: VersionRecipe, directory: Path, root: Path, registry: Path,
           mirror: str | None, info: Mapping[str, Any], progress: bool | None) -> None:
    import pickle

    from tqdm import tqdm

    from mwzrepro.core.io import atomic_path, dumps_json, write_text

    sources = registry_sources(spec.source_ids(), registry)
    paths = fetch_sources(sources, root / "raw", mirror, progress)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "manifest.json").unlink(missing_ok=True)
    bar = tqdm(total=5, desc=f"building {spec.version} resources", unit="step",
               disable=None if progress is None else not progress, leave=False)

    def step(label: str) -> None:
        bar.set_postfix_str(label)
        bar.update(1)
        log.info("%s: %s", spec.version, label)

    with bar:
        content = resource_files(build_tables(spec, paths, step))
        step("writing the cache")
        files = []
        for name in RESOURCE_FILES:
            write_text(dumps_json(content[name], indent=None), directory / f"{name}.json")
            files.append(f"{name}.json")
        gold = dst_gold_from(content["states"], content["dialogues"], spec.version)
        with atomic_path(directory / DST_GOLD_FILE) as tmp:
            tmp.write_bytes(pickle.dumps(gold, protocol=pickle.HIGHEST_PROTOCOL))
        files.append(DST_GOLD_FILE)
        for domain, sid in DATABASE_SOURCES.items():
            rel = f"db/{domain}_db.json"
            with atomic_path(directory / rel) as tmp:
                shutil.copyfile(paths[sid], tmp)
            files.append(rel)
    write_manifest(directory, files, {**info, "sources": {s: sources[s].sha1 for s in sources}})
