"""A version's evaluation resources, built once per user and reused: :func:`load_resources`
returns a :class:`VersionResources` whose tables, dicts and venue database are read lazily
from a verified cache directory (:mod:`mwzrepro.scorer.cache`).

First use of a version: fetch and verify the raw files (:mod:`mwzrepro.scorer.fetch`), build
the tables (:func:`mwzrepro.scorer.build.build_tables`), copy the four database files, write
the manifest — under a file lock, so concurrent first calls build once. Later uses re-hash
every file against the manifest (a few milliseconds) and rebuild when anything is missing or
differs.

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

from mwzrepro import __version__
from mwzrepro.core.signature import NORMALIZATION_VERSION
from mwzrepro.scorer.build import (
    DATABASE_SOURCES,
    RESOURCE_TABLES,
    VersionRecipe,
    build_tables,
    recipe,
)
from mwzrepro.scorer.cache import (
    build_lock,
    cache_root,
    sha256_file,
    verify_manifest,
    write_manifest,
)
from mwzrepro.scorer.fetch import (
    default_registry,
    fetch_sources,
    registry_sources,
    resolve_mirror,
)

if TYPE_CHECKING:
    import pandas as pd

    from mwzrepro.standard.database import VenueDatabase
    from mwzrepro.standard.scoring import EvalResources

__all__ = ["CACHE_FORMAT", "VersionResources", "load_resources", "build_key"]

log = logging.getLogger("mwzrepro")

#: Layout version of a cached resource set; bump when the set's files change meaning.
CACHE_FORMAT = 1

#: Modules (relative to the package) whose code shapes the built tables.
_BUILDER_MODULES = (
    "scorer/build.py", "prepare/ingest/convlab.py", "prepare/ingest/mwz22.py",
    "prepare/delex/span.py", "core/normalize.py", "core/normalize_state.py", "core/io.py",
    "standard/goals.py", "standard/booked.py", "standard/gold_states.py",
    "standard/active_domains.py", "core/schemas/__init__.py", "core/schemas/dataset.py",
    "core/schemas/evaluation.py", "core/schemas/spec.py",
)


def _code_digest() -> str:
    package = Path(__file__).resolve().parents[1]
    h = hashlib.sha256()
    for rel in _BUILDER_MODULES:
        path = package / rel
        h.update(rel.encode() + b"\0" + (path.read_bytes() if path.is_file() else b"") + b"\0")
    return h.hexdigest()


def build_key(spec: VersionRecipe, registry: Path) -> dict[str, Any]:
    """The fields that name (and are recorded in) a version's cached resource set."""
    info = {
        "format": CACHE_FORMAT, "version": spec.version, "mwzrepro": __version__,
        "normalization": NORMALIZATION_VERSION, "recipe": spec.source_ids(),
        "registry": sha256_file(registry), "code": _code_digest(),
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

    Attributes:
        version: dataset version.
        directory: the cache directory holding ``<table>.parquet`` and ``db/<domain>_db.json``.
        normative_db: check the database files against the normative SHA-256 of §5.1
            (false only for a custom registry, e.g. test fixtures).
    """

    def __init__(self, version: str, directory: Path, normative_db: bool = True) -> None:
        self.version = version
        self.directory = directory
        self.normative_db = normative_db
        self._tables: dict[str, pd.DataFrame] = {}
        self._databases: dict[tuple[str, float], VenueDatabase] = {}

    def table(self, name: str) -> pd.DataFrame:
        """One of :data:`~mwzrepro.scorer.build.RESOURCE_TABLES` (read once)."""
        if name not in self._tables:
            from mwzrepro.core.io import read_table

            self._tables[name] = read_table(self.directory / f"{name}.parquet", name)
        return self._tables[name]

    @cached_property
    def expected(self) -> dict[str, int]:
        """``{dialogue_id: system turns}`` of the test split (one reference per turn)."""
        refs = self.table("references")
        return {str(k): int(v) for k, v in refs.groupby("dialogue_id").size().items()}

    @cached_property
    def eval(self) -> EvalResources:
        """Goals, booked domains, gold states and turn domains as the scorers' dicts; gold
        states and turn domains are read on first use."""
        from mwzrepro.standard.booked import booked_domains_to_dict
        from mwzrepro.standard.goals import eval_goals_to_dict
        from mwzrepro.standard.gold_states import gold_states_to_dict
        from mwzrepro.standard.scoring import EvalResources

        return EvalResources(
            eval_goals_to_dict(self.table("eval_goals")),
            booked_domains_to_dict(self.table("booked_domains")),
            _LazyDict(lambda: gold_states_to_dict(self.table("gold_states"))),
            _LazyDict(lambda: booked_domains_to_dict(self.table("turn_domains"))),
        )

    def database(self, matching: str = "reference", threshold: float = 90) -> VenueDatabase:
        """The venue database (§5.1) with fuzzy matching ``matching`` and ``threshold``."""
        key = (matching, float(threshold))
        if key not in self._databases:
            from mwzrepro.standard.database import NORMATIVE_SHA256, VenueDatabase

            paths = {d: self.directory / "db" / f"{d}_db.json" for d in DATABASE_SOURCES}
            self._databases[key] = VenueDatabase.from_files(
                paths, matching=matching, threshold=threshold,
                expected_sha256=NORMATIVE_SHA256 if self.normative_db else None)
        return self._databases[key]

    @cached_property
    def dst_gold(self) -> tuple[dict, Any]:
        """Gold belief states of spec-dst-metrics (``(gold, dropped gold slot counts)``)."""
        from collections import Counter

        from mwzrepro.dst.readers.gold import gold_from_tables

        dropped: Counter = Counter()
        gold = gold_from_tables(self.table("states"), self.table("dialogues"),
                                f"{self.version} gold states", dropped)
        return gold, dropped


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
    return VersionResources(version, directory, normative)


def _build(spec: VersionRecipe, directory: Path, root: Path, registry: Path,
           mirror: str | None, info: Mapping[str, Any], progress: bool | None) -> None:
    from tqdm import tqdm

    from mwzrepro.core.io import atomic_path, write_table

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
        tables = build_tables(spec, paths, step)
        step("writing the cache")
        files = []
        for name in RESOURCE_TABLES:
            write_table(tables[name], directory / f"{name}.parquet", name,
                        {"version": spec.version, "built_by": "mwzrepro scorer"})
            files.append(f"{name}.parquet")
        for domain, sid in DATABASE_SOURCES.items():
            rel = f"db/{domain}_db.json"
            with atomic_path(directory / rel) as tmp:
                shutil.copyfile(paths[sid], tmp)
            files.append(rel)
    write_manifest(directory, files, {**info, "sources": {s: sources[s].sha1 for s in sources}})
