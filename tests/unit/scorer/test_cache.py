"""The per-user cache: its location, manifests that catch corrupted files, the builders'
lock, and fetching into it from a mirror (tests/unit/scorer/fixture_mirror.py)."""

from __future__ import annotations

import threading

import pytest

from mwzrepro.core.errors import ConfigError, DownloadError
from mwzrepro.scorer.resources.cache import (
    build_lock,
    cache_root,
    read_manifest,
    verify_manifest,
    write_manifest,
)
from mwzrepro.scorer.resources.fetch import fetch_sources, registry_sources
from tests.unit.scorer.fixture_mirror import make_mirror


def test_cache_root(monkeypatch, tmp_path):
    monkeypatch.setenv("MWZREPRO_CACHE", "rel/cache")
    monkeypatch.chdir(tmp_path)
    assert cache_root() == tmp_path / "rel" / "cache"
    assert cache_root(tmp_path / "x") == tmp_path / "x"
    monkeypatch.delenv("MWZREPRO_CACHE")
    assert cache_root().name == "mwzrepro"                  # platformdirs' per-user cache
    (tmp_path / "file").write_text("")
    with pytest.raises(ConfigError, match="is not a directory"):
        cache_root(tmp_path / "file")


def test_manifest_detects_missing_and_changed_files(tmp_path):
    (tmp_path / "a.json").write_text("[1]")
    (tmp_path / "db").mkdir()
    (tmp_path / "db" / "b.json").write_text("{}")
    manifest = write_manifest(tmp_path, ["a.json", "db/b.json"], {"key": "k1"})
    assert read_manifest(tmp_path) == manifest
    assert verify_manifest(tmp_path, {"key": "k1"}) == []
    assert verify_manifest(tmp_path, {"key": "k2"}) == ["manifest field 'key' is 'k1', "
                                                        "expected 'k2'"]
    (tmp_path / "a.json").write_text("[2]")
    (tmp_path / "db" / "b.json").unlink()
    problems = verify_manifest(tmp_path)
    assert "a.json: sha256" in problems[0] and "(corrupted)" in problems[0]
    assert problems[1].endswith("db/b.json: missing")
    assert verify_manifest(tmp_path / "nowhere")[0].endswith("missing or unreadable")


def test_lock_serializes_builders(tmp_path):
    """Two builders of one set: the first waits inside its section until the second is inside
    too, or 0.5 s pass. Under the lock the second cannot enter, so the sections follow each
    other; without it (a no-op context manager) the second enters while the first waits."""
    first_inside, second_inside = threading.Event(), threading.Event()
    order = []

    def first():
        with build_lock(tmp_path, "mwz21"):
            order.append("a+")
            first_inside.set()
            second_inside.wait(timeout=0.5)
            order.append("a-")

    def second():
        first_inside.wait(timeout=10)
        with build_lock(tmp_path, "mwz21"):
            order.append("b+")
            second_inside.set()
            order.append("b-")

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert order == ["a+", "a-", "b+", "b-"]
    assert (tmp_path / "resources" / "mwz21.lock").exists()


def test_fetch_verifies_and_refetches(tmp_path):
    mirror, registry = make_mirror(tmp_path, "mwz21")
    sources = registry_sources(["mwz21-test"], registry)
    raw = tmp_path / "raw"
    paths = fetch_sources(sources, raw, str(mirror), progress=False)
    target = paths["mwz21-test"]
    good = target.read_bytes()
    target.write_bytes(b"corrupted")
    assert fetch_sources(sources, raw, str(mirror), progress=False)["mwz21-test"] == target
    assert target.read_bytes() == good
    (mirror / sources["mwz21-test"].url.split("githubusercontent.com/")[1]).write_bytes(b"bad")
    target.unlink()
    with pytest.raises(DownloadError, match="expected "):
        fetch_sources(sources, raw, str(mirror), progress=False)
    assert not target.exists()
    with pytest.raises(DownloadError, match="no entry nope"):
        registry_sources(["nope"], registry)
