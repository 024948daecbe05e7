"""Shared fixtures. Tests that need the byte-exact data mirror use ``mirror``, which skips with
a clear reason when the mirror is absent (set MWZREPRO_MIRROR, default ../shared/mirror)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def mirror_dir() -> Path:
    """The mirror directory, absolute: $MWZREPRO_MIRROR (a relative path is resolved against
    the directory pytest runs in, as the CLI does), else ../shared/mirror beside the checkout."""
    env = os.environ.get("MWZREPRO_MIRROR")
    return Path(env).resolve() if env else (REPO.parent / "shared" / "mirror").resolve()


@pytest.fixture(scope="session")
def mirror() -> Path:
    """Path of the data mirror (layout <owner>/<repo>/<commit>/<path>); skips if missing."""
    path = mirror_dir()
    if not (path / "MANIFEST.tsv").is_file():
        pytest.skip(f"data mirror not found at {path} (set MWZREPRO_MIRROR to its directory)")
    return path


def mirror_file(mirror: Path, owner_repo: str, path: str) -> Path:
    """The mirrored file ``path`` of repository ``owner/repo`` (any pinned commit); skips the
    test if the mirror does not hold it."""
    hits = sorted((mirror / owner_repo).glob(f"*/{path}"))
    if not hits:
        pytest.skip(f"{owner_repo}/{path} is not in the mirror at {mirror}")
    return hits[0]


@pytest.fixture(scope="session")
def mwz21_test(mirror: Path):
    """Canonical tables of the real MultiWOZ 2.1 test split (ConvLab-2 copy in the mirror)."""
    from mwzrepro.prepare.ingest.convlab import read_convlab

    tables, _ = read_convlab(
        mirror_file(mirror, "thu-coai/ConvLab-2", "data/multiwoz/test.json.zip"), "test"
    )
    return tables


@pytest.fixture(scope="session")
def mwz20_test(mirror: Path):
    """Canonical tables of the real MultiWOZ 2.0 test split (ConvLab copy in the mirror)."""
    from mwzrepro.prepare.ingest.convlab import read_convlab

    tables, _ = read_convlab(
        mirror_file(mirror, "ConvLab/ConvLab", "data/multiwoz/test.json.zip"), "test"
    )
    return tables


@pytest.fixture(scope="session")
def built_workspace(tmp_path_factory) -> Path:
    """A workspace the whole pipeline has run in: $MWZREPRO_WORKSPACE, the built checkout, or
    a reduced build from the mirror (tests/workspace.py); skips without any of them."""
    from tests.workspace import built_workspace as find_or_build

    return find_or_build(tmp_path_factory)
