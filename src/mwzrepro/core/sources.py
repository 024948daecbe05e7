"""Pinned upstream sources: registry, git-blob verification, mirror resolution, atomic fetch.

The registry is ``src/mwzrepro/resources/sources.yaml`` (``sources:`` used by the pipeline,
``extra:`` every other pinned file). Each entry pins an upstream URL at a commit and the file's
git blob SHA-1, ``sha1(b"blob <size>\\0" + content)``, so a file from the network and one from a
local mirror are verified the same way. A mirror is a directory with the upstream layout
``<owner>/<repo>/<commit>/<path>``: the part of the URL after
``https://raw.githubusercontent.com/``.

Files are fetched by *group*: the first component of their local path (``mwz21``, ``sgd``,
``mwzeval``, ...), one per upstream repository; the pipeline runs one download job per group.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from mwzrepro.core.errors import DownloadError

__all__ = [
    "RAW_PREFIX",
    "Source",
    "load_registry",
    "load_registries",
    "groups",
    "git_blob_sha1",
    "MIRROR_ENV",
    "resolve_mirror",
    "mirror_path",
    "fetch",
    "verify_file",
]

#: URL prefix that the mirror layout replaces.
RAW_PREFIX = "https://raw.githubusercontent.com/"
#: Environment variable naming the mirror when no mirror is given.
MIRROR_ENV = "MWZREPRO_MIRROR"


@dataclass(frozen=True)
class Source:
    """One pinned file: registry id, local path under data/raw, upstream URL, git blob SHA-1,
    and role tag (e.g. ``mwz21-test``, ``prediction``)."""

    id: str
    path: str
    url: str
    sha1: str
    role: str

    @property
    def group(self) -> str:
        """The download group: the first component of :attr:`path`.

        >>> Source("x", "sgd/train/schema.json", "u", "s", "sgd-schema").group
        'sgd'
        """
        return self.path.split("/", 1)[0]


def load_registry(path: str | os.PathLike[str], section: str | None = None) -> dict[str, Source]:
    """Read the sources registry.

    Args:
        path: the YAML file (``src/mwzrepro/resources/sources.yaml``).
        section: ``"sources"``, ``"extra"`` or ``None`` for both.

    Returns:
        ``{id: Source}`` in file order.

    Raises:
        DownloadError: the file is missing or malformed.
    """
    import yaml

    try:
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        data = yaml.load(Path(path).read_text(encoding="utf-8"), Loader=loader)  # noqa: S506
    except (OSError, yaml.YAMLError) as exc:
        raise DownloadError(f"cannot read sources registry {path}: {exc}") from None
    out: dict[str, Source] = {}
    for sec in ("sources", "extra") if section is None else (section,):
        for sid, entry in (data.get(sec) or {}).items():
            try:
                out[sid] = Source(sid, entry["path"], entry["url"], entry["sha1"], entry["role"])
            except (KeyError, TypeError):
                raise DownloadError(f"{path}: entry {sid!r} needs path, url, sha1, role") from None
    return out


def load_registries(paths: Iterable[str | os.PathLike[str]], section: str | None = None
                    ) -> dict[str, Source]:
    """Several registries read as one (:func:`load_registry` of each, in order): the shipped
    registry and the project's ``submissions.yaml`` of the user's own files
    (``mwzrepro add-system``).

    Raises:
        DownloadError: a file is missing or malformed, or two files register the same id
            (names both).
    """
    out: dict[str, Source] = {}
    where: dict[str, str] = {}
    for path in paths:
        for sid, source in load_registry(path, section).items():
            if sid in out:
                raise DownloadError(f"{path}: source {sid!r} is already registered in "
                                    f"{where[sid]}")
            out[sid], where[sid] = source, str(path)
    return out


def groups(sources: dict[str, Source]) -> dict[str, list[Source]]:
    """Registry entries by download group (:attr:`Source.group`), groups sorted, entries in
    registry order.

    >>> reg = {"a": Source("a", "sgd/x", "u", "s", "r"), "b": Source("b", "fga/y", "u", "s", "r")}
    >>> {g: [s.id for s in ss] for g, ss in groups(reg).items()}
    {'fga': ['b'], 'sgd': ['a']}
    """
    out: dict[str, list[Source]] = {}
    for source in sources.values():
        out.setdefault(source.group, []).append(source)
    return dict(sorted(out.items()))


def git_blob_sha1(data: bytes) -> str:
    """Git's object id of a blob with content ``data`` (hex).

    >>> git_blob_sha1(b"hello\\n")
    'ce013625030ba8dba906f756967f9e9ca394464a'
    """
    h = hashlib.sha1(usedforsecurity=False)
    h.update(b"blob %d\0" % len(data))
    h.update(data)
    return h.hexdigest()


def resolve_mirror(mirror: str | os.PathLike[str] | None = None) -> str | None:
    """The mirror directory to use, as an absolute path: ``mirror`` if non-empty, else
    ``$MWZREPRO_MIRROR`` (:data:`MIRROR_ENV`), else None (fetch from the pinned upstream
    URLs). A relative path is resolved against the current directory (where the command
    runs), before anything uses it. The pipeline's ``download`` and the scorer both use it.

    >>> resolve_mirror("/srv/mirror")
    '/srv/mirror'
    >>> resolve_mirror("m") == os.path.join(os.getcwd(), "m")
    True
    """
    chosen = mirror or os.environ.get(MIRROR_ENV) or None
    return os.path.abspath(chosen) if chosen else None


def mirror_path(mirror: str | os.PathLike[str], url: str) -> Path:
    """Where ``url`` lives in a mirror directory (``<mirror>/<owner>/<repo>/<commit>/<path>``).

    Raises:
        DownloadError: ``url`` is not a raw.githubusercontent.com URL.
    """
    if not url.startswith(RAW_PREFIX):
        raise DownloadError(f"{url} is not under {RAW_PREFIX}; no mirror layout for it")
    return Path(mirror) / url[len(RAW_PREFIX):]


def verify_file(path: str | os.PathLike[str], sha1: str) -> None:
    """Check a local file's git blob SHA-1.

    Raises:
        DownloadError: the file is missing or its id differs (names the file and both ids).
    """
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise DownloadError(
            f"{p}: cannot read ({exc.strerror}); expected git blob {sha1}") from None
    got = git_blob_sha1(data)
    if got != sha1:
        raise DownloadError(
            f"{p}: git blob sha1 {got} does not match the pinned {sha1} "
            "(file corrupted or modified; delete it and download again)"
        )


def _read_url(url: str, timeout: float) -> bytes:
    import urllib.request  # only to download (tens of milliseconds to import)

    req = urllib.request.Request(url, headers={"User-Agent": "mwzrepro"})
    with urllib.request.urlopen(req, timeout=timeout) as resp:  # noqa: S310 (pinned https URL)
        total = int(resp.headers.get("Content-Length") or 0) or None
        from tqdm import tqdm

        chunks = []
        with tqdm(total=total, unit="B", unit_scale=True, desc=url.rsplit("/", 1)[-1],
                  disable=None, leave=False) as bar:
            while chunk := resp.read(1 << 16):
                chunks.append(chunk)
                bar.update(len(chunk))
        return b"".join(chunks)


def fetch(source: Source, dest: str | os.PathLike[str], mirror: str | os.PathLike[str] | None,
          timeout: float = 60.0) -> str:
    """Fetch ``source`` into ``dest``, verified, atomically.

    Args:
        source: the registry entry; a ``file:<relative path>`` URL names a local file.
        dest: the output file (its directory is created).
        mirror: a mirror directory; if given, the file is copied from there and the network is
            never used.
        timeout: network timeout in seconds.

    Returns:
        Where the bytes came from (mirror path or URL).

    Raises:
        DownloadError: one line naming the file, the URL or mirror path tried and the expected
            id, for a missing mirror file, a network failure or a checksum mismatch. ``dest``
            is left untouched (no partial file).
    """
    from mwzrepro.core.io import atomic_path

    if source.url.startswith("file:"):
        # A local file registered by the user (``mwzrepro add-system``); the mirror does not
        # apply. The path is relative to the working directory (the repository root).
        origin = source.url[len("file:"):]
        try:
            data = Path(origin).read_bytes()
        except OSError as exc:
            raise DownloadError(
                f"{dest}: cannot read {origin} ({exc.strerror}); expected git blob {source.sha1}"
            ) from None
    elif mirror:
        origin = str(mirror_path(mirror, source.url))
        try:
            data = Path(origin).read_bytes()
        except OSError as exc:
            raise DownloadError(
                f"{dest}: not in the mirror: {origin} ({exc.strerror}); "
                f"expected git blob {source.sha1}"
            ) from None
    else:
        import urllib.error

        origin = source.url
        try:
            data = _read_url(source.url, timeout)
        except (urllib.error.URLError, OSError, ValueError) as exc:
            reason = getattr(exc, "reason", exc)
            raise DownloadError(
                f"{dest}: cannot download {source.url} ({reason}); "
                f"expected git blob {source.sha1}; set MWZREPRO_MIRROR to use a local mirror"
            ) from None
    got = git_blob_sha1(data)
    if got != source.sha1:
        raise DownloadError(
            f"{dest}: {origin} has git blob sha1 {got}, expected {source.sha1} "
            f"(source {source.id})"
        )
    with atomic_path(dest) as tmp:
        with open(tmp, "wb") as fh:
            fh.write(data)
    return origin

