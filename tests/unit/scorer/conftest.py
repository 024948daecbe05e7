"""Fixtures of the scorer tests: every test gets its own empty cache (``MWZREPRO_CACHE``) and
no mirror from the environment; fixture mirrors are built per module
(:mod:`tests.unit.scorer.fixture_mirror`)."""

from __future__ import annotations

import pytest

from tests.unit.scorer.fixture_mirror import make_mirror


@pytest.fixture(autouse=True)
def _isolated(monkeypatch, tmp_path):
    monkeypatch.setenv("MWZREPRO_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("MWZREPRO_MIRROR", raising=False)


@pytest.fixture(scope="module")
def mini(tmp_path_factory):
    """``{"mirror", "registry", "cache"}`` of the two-dialogue mwz21 fixture; the cache is
    shared by the module's tests (built once)."""
    root = tmp_path_factory.mktemp("mini")
    mirror, registry = make_mirror(root, "mwz21")
    return {"mirror": mirror, "registry": registry, "cache": root / "cache"}


@pytest.fixture(scope="module")
def mini22(tmp_path_factory):
    """The same for the three-dialogue MultiWOZ 2.2 fixture."""
    root = tmp_path_factory.mktemp("mini22")
    mirror, registry = make_mirror(root, "mwz22")
    return {"mirror": mirror, "registry": registry, "cache": root / "cache"}
