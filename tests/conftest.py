"""Shared fixtures. Tests that need the byte-exact data mirror use ``mirror``, which skips with
a clear reason when the mirror is absent (set MWZREPRO_MIRROR, default ../shared/mirror).

Parallel runs (``make test`` = ``pytest -n auto``, pytest-xdist, with ``--dist loadscope``
from pyproject.toml): each test module runs on one worker, so a module-scoped fixture (a
pipeline run, a server, a built table) is built once; :func:`pytest_collection_modifyitems`
orders the modules, longest first. Expensive session-wide builds are shared by the workers
through :mod:`tests.once`. (``loadgroup`` would spread the other modules test by test, but
pytest-xdist 3.8 cannot rename node ids under pytest 9: its groups are ignored.)
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


#: Fixture scopes that make a module's tests expensive to spread (built once per module).
MODULE_SCOPES = ("module", "class", "package")
#: Marks of the tests that run the pipeline or start servers (minutes, mostly in subprocesses).
LONG_MARKS = ("slow", "services")
#: The longest modules (about 1.5 to 7 minutes of a worker each, `--durations` on two workers),
#: handed out first, in this order: longest first, and the two users of each build shared
#: between workers (the BLEU spine: test_remotes, test_slurm; the built workspace:
#: test_report_browser, test_stats_real) apart, so that the second finds it built instead of
#: waiting for it. Only the order depends on this list: a stale entry costs time, not results.
FIRST = (
    "tests/integration/test_scorer_real.py",
    "tests/workflow/test_reproducibility.py",
    "tests/services/test_remotes.py",
    "tests/report/test_report_browser.py",
    "tests/integration/test_delex_styles_real.py",
    "tests/integration/test_pipeline_e2e.py",
    "tests/integration/test_scorer_install.py",
    "tests/services/test_slurm.py",
    "tests/integration/test_stats_real.py",
    "tests/workflow/test_code_change.py",
)
#: Modules whose tests xdist hands out one by one (each test takes a minute; the module's own
#: fixtures take seconds, so building them on both workers costs little).
SPREAD = ("tests/integration/test_delex_styles_real.py",)


def _ties_to_module(fixture, module: str) -> bool:
    """Whether a fixture is built once for the tests of ``module`` (a test file's node id):
    module-scoped, or session-scoped but defined in that file (used by it alone)."""
    return fixture.scope in MODULE_SCOPES or (fixture.scope == "session"
                                              and fixture.baseid == module)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Mark every test using the ``mirror`` fixture ``mirror``; order the modules for xdist's
    ``loadscope`` (which hands out whole modules in this order): :data:`FIRST`, then those
    that run the pipeline or start servers (:data:`LONG_MARKS`), then those with fixtures
    built once per module (:func:`_ties_to_module`) or reading the mirror, then the rest, so
    that the long ones start first and the short ones fill the end of the run."""
    rank: dict[str, int] = {}
    for item in items:
        module = item.nodeid.split("::")[0]
        fixtures = getattr(item, "_fixtureinfo", None)
        if fixtures is not None and "mirror" in fixtures.names_closure:  # None: doctests
            item.add_marker(pytest.mark.mirror)
        if module in FIRST:
            cost = FIRST.index(module) - len(FIRST)
        elif any(item.get_closest_marker(m) for m in LONG_MARKS):
            cost = 0
        elif item.get_closest_marker("mirror") or (fixtures is not None and any(
                _ties_to_module(defs[-1], module) for defs in fixtures.name2fixturedefs.values())):
            cost = 1
        else:
            cost = 2
        rank[module] = min(rank.get(module, 2), cost)
    items.sort(key=lambda item: rank[item.nodeid.split("::")[0]])  # stable within a rank


def pytest_xdist_make_scheduler(config, log):
    """``--dist loadscope`` with the tests of :data:`SPREAD` handed out one by one."""
    if config.getvalue("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class Scheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            if nodeid.split("::")[0] in SPREAD:
                return nodeid
            return super()._split_scope(nodeid)

    return Scheduling(config, log)


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
