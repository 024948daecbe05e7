"""Shared fixtures. Tests that need the byte-exact data mirror use ``mirror``, which skips with
a clear reason when the mirror is absent (set MWZREPRO_MIRROR, default ../shared/mirror).

Parallel runs (``make test`` = ``pytest -n auto --dist loadgroup``, pytest-xdist): the hooks
below keep every test module whose tests share a module-scoped fixture (a pipeline run, a
server, a built table) on one worker (:func:`pytest_collection_modifyitems` gives its tests
one ``xdist_group``), so that the fixture is built once; the other tests are spread one by
one. Expensive session-wide builds are shared by the workers through :mod:`tests.once`.
Every test that uses the mirror, directly or through another fixture, is marked ``mirror``:
``make test-fast`` leaves them out.
"""

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


#: Fixture scopes that tie the tests of a module to one xdist worker.
MODULE_SCOPES = ("module", "class", "package")


@pytest.hookimpl(tryfirst=True)  # before xdist turns the xdist_group marks into node ids
def pytest_collection_modifyitems(config, items):
    """Mark every test using the ``mirror`` fixture ``mirror``; put the tests of a module
    with a module-scoped fixture in one ``xdist_group`` (the module's path), and run those
    modules first (the long pipeline builds start while the short tests fill the rest)."""
    grouped: set[str] = set()
    for item in items:
        fixtures = getattr(item, "_fixtureinfo", None)
        if fixtures is None:  # doctests
            continue
        if "mirror" in fixtures.names_closure:
            item.add_marker(pytest.mark.mirror)
        if any(defs[-1].scope in MODULE_SCOPES for defs in fixtures.name2fixturedefs.values()):
            grouped.add(item.nodeid.split("::")[0])
    for item in items:
        module = item.nodeid.split("::")[0]
        if module in grouped:
            item.add_marker(pytest.mark.xdist_group(module))
    items.sort(key=lambda item: item.nodeid.split("::")[0] not in grouped)  # stable


def pytest_sessionfinish(session):
    """An xdist worker saves its service-test timings for the controller's summary."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker:
        from tests.once import run_dir
        from tests.services.timing import save

        save(run_dir(session.config._tmp_path_factory), worker)


def pytest_terminal_summary(terminalreporter, config):
    """Seconds of the service tests' steps (installs, server starts, pushes, the SLURM run),
    from every worker."""
    from tests.services.timing import collected

    timings = collected(config._tmp_path_factory.getbasetemp())
    if timings:
        terminalreporter.section("service tests: seconds")
        for what, seconds in timings.items():
            terminalreporter.write_line(f"{seconds:7.1f}  {what}")


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
def scorer_cache(tmp_path_factory) -> Path:
    """The scorer's cache directory (``MWZREPRO_CACHE``, ``cache_dir=``) of the real-data
    tests, one per test run: shared by the xdist workers (the scorer builds its resources
    under a lock, once), so the resources of the real test sets are built once."""
    from tests.once import run_dir

    return run_dir(tmp_path_factory) / "scorer-cache"


@pytest.fixture(scope="session")
def built_workspace(tmp_path_factory) -> Path:
    """A workspace the whole pipeline has run in: $MWZREPRO_WORKSPACE, the built checkout, or
    a reduced build from the mirror (tests/workspace.py); skips without any of them."""
    from tests.workspace import built_workspace as find_or_build

    return find_or_build(tmp_path_factory)
