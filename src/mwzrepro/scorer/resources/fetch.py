"""Raw files on first use: the packaged sources registry, the mirror, verified fetching into
the cache.

The registry (``mwzrepro/resources/sources.yaml``, shipped inside the package; the workflow
reads the same file) pins every upstream file to a commit and its git blob SHA-1
(:mod:`mwzrepro.core.sources`). A file is taken from ``<cache>/raw/<path>`` when it is there
and verifies, otherwise fetched — from the mirror (``MWZREPRO_MIRROR``, layout
``<owner>/<repo>/<commit>/<path>``) or from the pinned URL — verified, and written
atomically. A corrupted cached raw file is fetched again.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from mwzrepro.core.errors import DownloadError
from mwzrepro.core.sources import (
    MIRROR_ENV,
    Source,
    fetch,
    load_registry,
    resolve_mirror,
    verify_file,
)

__all__ = ["MIRROR_ENV", "default_registry", "resolve_mirror", "registry_sources",
           "fetch_sources"]

log = logging.getLogger("mwzrepro")


def default_registry() -> Path:
    """Path of the packaged sources registry ``mwzrepro/resources/sources.yaml`` (next to the
    package's modules: the scorer reads its files by path)."""
    return Path(__file__).resolve().parents[2] / "resources" / "sources.yaml"


def registry_sources(ids: Iterable[str], registry: str | os.PathLike[str] | None = None
                     ) -> dict[str, Source]:
    """The registry entries ``ids`` (both sections of the registry).

    Raises:
        DownloadError: the registry is unreadable or lacks one of the ids.
    """
    path = Path(registry) if registry is not None else default_registry()
    entries = load_registry(path)
    missing = [i for i in ids if i not in entries]
    if missing:
        raise DownloadError(f"{path}: no entry {', '.join(missing)} (needed by the scorer)")
    return {i: entries[i] for i in ids}


def fetch_sources(sources: Mapping[str, Source], raw_dir: Path, mirror: str | None,
                  progress: bool | None = None) -> dict[str, Path]:
    """Make every source available, verified, under ``raw_dir`` (``raw_dir/<source.path>``).

    Args:
        sources: ``{id: Source}``.
        raw_dir: the cache's ``raw`` directory.
        mirror: mirror directory or None (network).
        progress: show a progress bar (None: only on a terminal).

    Returns:
        ``{id: local path}``.

    Raises:
        DownloadError: a file cannot be fetched or does not verify (one line naming the file,
            where it was looked for and the pinned id).
    """
    from tqdm import tqdm

    out: dict[str, Path] = {}
    todo = []
    for sid, source in sources.items():
        dest = raw_dir / source.path
        out[sid] = dest
        if dest.is_file():
            try:
                verify_file(dest, source.sha1)
                continue
            except DownloadError as exc:
                log.warning("cached raw file failed verification, fetching it again: %s", exc)
        todo.append((source, dest))
    disable = None if progress is None else not progress
    for source, dest in tqdm(todo, desc="fetching MultiWOZ sources", unit="file",
                             disable=disable, leave=False):
        origin = _fetch_one(source, dest, mirror)
        log.info("fetched %s (git blob %s verified)", origin, source.sha1)
    return out


def _fetch_one(source: Source, dest: Path, mirror: str | None) -> str:
    """Fetch from the mirror; a file the mirror does not hold comes from its pinned URL."""
    from mwzrepro.core.sources import mirror_path

    if mirror and source.url.startswith("http") and not mirror_path(mirror, source.url).is_file():
        log.info("%s is not in the mirror %s; trying %s", source.path, mirror, source.url)
        try:
            return fetch(source, dest, None)
        except DownloadError as exc:
            raise DownloadError(f"{source.path}: not in the mirror {mirror} and not "
                                f"downloadable: {exc}") from None
    return fetch(source, dest, mirror)
