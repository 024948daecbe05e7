"""A version's evaluation resources, built once per user and reused: :func:`load_resources`
returns a :class:`VersionResources` whose tables, dicts and venue database are read lazily
from a verified cache directory (:mod:`mwzrepro.scorer.resources.cache`).

First use of a version: fetch and verify the raw files (:mod:`mwzrepro.scorer.resources.fetch`),
build the tables (:func:`mwzrepro.scorer.resources.build.build_tables`), store them as JSON in the
form the scorers read (:mod:`mwzrepro.scorer.resources.resource_files`: no Parquet, so scoring needs
neither pyarrow nor pandera), copy the four database files, write the manifest — under a file lock,
so concurrent first calls build once. Later uses re-hash every file against the manifest (a few
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
from pathlib import Path
from typing import Any

from mwzrepro.core.version import __version__
from mwzrepro.core.signature import NORMALIZATION_VERSION
from mwzrepro.scorer.resources.build import VersionRecipe, recipe
from mwzrepro.scorer.resources.cache import build_lock, cache_root, sha256_file, verify_manifest
from mwzrepro.scorer.resources.fetch import default_registry, resolve_mirror
from mwzrepro.scorer.resources.resource_files import write_resource_set
from mwzrepro.scorer.resources.resource_set import VersionResources

__all__ = ["CACHE_FORMAT", "load_resources", "build_key"]

log = logging.getLogger("mwzrepro")

#: Layout version of a cached resource set; bump when the set's files change meaning.
CACHE_FORMAT = 2

#: Modules (relative to the package) whose code shapes the built tables.
_BUILDER_MODULES = (
    "scorer/resources/build.py", "scorer/resources/load.py",
    "scorer/resources/resource_files.py", "scorer/resources/resource_set.py",
    "prepare/ingest/convlab.py",
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
            write_resource_set(spec, directory, root, reg, resolve_mirror(mirror), info,
                               progress)
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


