"""The per-user cache of the scorer: where it lives, its manifests, its lock.

Layout (``cache_root()``, see below)::

    <root>/raw/<registry path>                  verified upstream files (git blob SHA-1)
    <root>/resources/<version>/<build key>/     one built resource set (Parquet tables,
        manifest.json                           database files) and its manifest, written last
    <root>/resources/<version>.lock             file lock of the builders of <version>

A *manifest* records the SHA-256 of every file of a directory (``{"files": {relative path:
sha256}, ...}``). :func:`verify_manifest` re-hashes the files on every use: a missing,
truncated or edited file is detected and the set is rebuilt, never used. The manifest is
written after every file it lists (each written atomically), so a reader never accepts a
half-built set.

The root is ``MWZREPRO_CACHE`` when set (a relative path is resolved against the current
directory), else the platform's per-user cache directory (``platformdirs``; e.g.
``~/.cache/mwzrepro`` on Linux).

>>> cache_root("mwz-cache") == Path.cwd() / "mwz-cache"
True
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from mwzrepro.core.errors import ConfigError

__all__ = [
    "CACHE_ENV",
    "MANIFEST",
    "cache_root",
    "sha256_file",
    "read_manifest",
    "write_manifest",
    "verify_manifest",
    "build_lock",
]

#: Environment variable that overrides the cache directory.
CACHE_ENV = "MWZREPRO_CACHE"

#: File name of a directory's manifest.
MANIFEST = "manifest.json"

#: Seconds a builder waits for another process's build of the same version.
LOCK_TIMEOUT = 1800


def cache_root(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The cache directory: ``explicit``, else ``$MWZREPRO_CACHE``, else the per-user cache
    directory of the platform. Relative paths are resolved against the current directory.

    Raises:
        ConfigError: the chosen path exists and is not a directory.
    """
    chosen = explicit or os.environ.get(CACHE_ENV) or None
    if chosen is None:
        from platformdirs import user_cache_dir

        chosen = user_cache_dir("mwzrepro", appauthor=False)
    root = Path(os.path.abspath(chosen))
    if root.exists() and not root.is_dir():
        raise ConfigError(f"cache directory {root} exists and is not a directory "
                          f"(set {CACHE_ENV} to another path)")
    return root


def sha256_file(path: str | os.PathLike[str]) -> str:
    """Hex SHA-256 of a file's bytes.

    Raises:
        OSError: the file cannot be read.
    """
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def read_manifest(directory: Path) -> dict[str, Any] | None:
    """The manifest of ``directory``, or None if it is missing or unreadable."""
    try:
        data = json.loads((directory / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("files"), dict) else None


def write_manifest(directory: Path, files: Iterable[str], info: Mapping[str, Any]) -> dict:
    """Hash ``files`` (paths relative to ``directory``) and write the manifest atomically.

    Returns:
        The manifest: ``{**info, "files": {relative path: sha256}}``.
    """
    from mwzrepro.core.io import write_json

    manifest = {**info, "files": {f: sha256_file(directory / f) for f in sorted(files)}}
    write_json(manifest, directory / MANIFEST, sort_keys=True)
    return manifest


def verify_manifest(directory: Path, expected: Mapping[str, Any] | None = None) -> list[str]:
    """What is wrong with the set in ``directory`` (empty list: every file verified).

    Args:
        directory: a directory with a manifest.
        expected: manifest fields that must have these values (the build key's inputs).

    Returns:
        One short reason per problem: no manifest, a differing field, a missing file, a file
        whose SHA-256 differs from the manifest's.
    """
    manifest = read_manifest(directory)
    if manifest is None:
        return [f"{directory / MANIFEST}: missing or unreadable"]
    problems = [f"manifest field {k!r} is {manifest.get(k)!r}, expected {v!r}"
                for k, v in (expected or {}).items() if manifest.get(k) != v]
    for name, digest in manifest["files"].items():
        path = directory / name
        try:
            actual = sha256_file(path)
        except OSError:
            problems.append(f"{path}: missing")
            continue
        if actual != digest:
            problems.append(f"{path}: sha256 {actual[:12]}… differs from the manifest's "
                            f"{str(digest)[:12]}… (corrupted)")
    return problems


def build_lock(root: Path, name: str):
    """A file lock (``filelock.FileLock``) serializing the builders of ``name`` under
    ``root`` (``<root>/resources/<name>.lock``); use it as a context manager.

    Concurrent first calls of several processes build once: the others wait on the lock, then
    find the verified set.
    """
    from filelock import FileLock

    path = root / "resources" / f"{name}.lock"
    path.parent.mkdir(parents=True, exist_ok=True)
    return FileLock(str(path), timeout=LOCK_TIMEOUT)
