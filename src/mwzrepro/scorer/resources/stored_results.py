"""Results of ``mwzrepro score`` kept in the per-user cache: scoring the same file again with
the same settings prints the stored result instead of recomputing it (re-rendering a result
as text, Markdown and LaTeX for a paper costs one scoring).

A stored result is named by a key that hashes everything its numbers depend on: the
prediction file's bytes, every option of the command, the version's resource build key
(:func:`mwzrepro.scorer.resources.load.build_key`), the source of every module of the package and
the versions of the libraries that shape the numbers (sacrebleu, sacremoses, rapidfuzz,
lexical tokenization and matching). The stored JSON carries the SHA-256 of its content; a file
that does not verify is ignored and overwritten, never used.

Stored results live in ``<cache>/results/<key>.json`` (a few kB each).

>>> key = result_key({"version": "mwz21"}, "ab" * 32, "1234", "cafe")
>>> len(key)
32
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

__all__ = ["LIBRARIES", "code_digest", "result_key", "load_result", "store_result"]

#: Distributions whose versions are part of the key (they shape the numbers).
LIBRARIES = ("sacrebleu", "sacremoses", "rapidfuzz", "pandas", "numpy")


@lru_cache(maxsize=1)
def code_digest() -> str:
    """SHA-256 over the source of every module of the installed ``mwzrepro`` package and the
    versions of :data:`LIBRARIES`."""
    from importlib.metadata import PackageNotFoundError, version

    package = Path(__file__).resolve().parents[2]
    h = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        h.update(path.relative_to(package).as_posix().encode() + b"\0")
        h.update(path.read_bytes() + b"\0")
    for dist in LIBRARIES:
        try:
            h.update(f"{dist}={version(dist)}\0".encode())
        except PackageNotFoundError:
            h.update(f"{dist}=none\0".encode())
    return h.hexdigest()


def result_key(options: Mapping[str, Any], file_sha256: str, resources_key: str,
               code: str) -> str:
    """The name of a stored result: a hash of the command's ``options`` (JSON-serializable),
    the prediction file's SHA-256, the resource build key and :func:`code_digest`."""
    text = json.dumps({"options": options, "file": file_sha256, "resources": resources_key,
                       "code": code}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _digest(result: Mapping[str, Any]) -> str:
    return hashlib.sha256(json.dumps(result, sort_keys=True).encode()).hexdigest()


def load_result(root: Path, key: str) -> dict[str, Any] | None:
    """The stored result ``key`` if present and intact, else None."""
    try:
        stored = json.loads((root / "results" / f"{key}.json").read_text(encoding="utf-8"))
        result = stored["result"]
        if stored.get("sha256") != _digest(result):
            return None
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return result if isinstance(result, dict) else None


def store_result(root: Path, key: str, result: Mapping[str, Any]) -> None:
    """Store ``result`` (a JSON-ready dict) under ``key``, atomically. Failures to write are
    ignored (the cache is an optimization)."""
    from mwzrepro.core.io import write_json

    try:
        write_json({"sha256": _digest(result), "result": result},
                   root / "results" / f"{key}.json")
    except OSError:
        pass
