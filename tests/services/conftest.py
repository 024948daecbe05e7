"""Fixtures of the service tests (issue 13): real servers on 127.0.0.1, started in temp dirs
and stopped by PID at teardown, and the pipeline subset they share.

Markers (registered here): ``services`` on every test of this directory, ``slurm`` on the
SLURM cluster test. Neither is deselected by default: ``make test`` (and so CI) runs them;
``pytest -m "not services"`` leaves them out, ``pytest -m slurm`` runs only the cluster.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.once import build_once
from tests.services.daemons import Daemons
from tests.services.servers import start_s3, start_sshd
from tests.services.timing import TIMINGS, Timer
from tests.services.workspace import Published, build_published


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "services: starts real servers (sshd, S3, HTTP, SLURM) on 127.0.0.1; "
        "installs missing Debian/Python packages (tests/services)")
    config.addinivalue_line(
        "markers", "slurm: runs the BLEU spine on a single-node SLURM cluster it starts")


@pytest.fixture(scope="session")
def published(mirror, tmp_path_factory):
    """The BLEU spine built locally by Snakemake, recorded and committed (no remote yet); built
    once per test run and shared by the xdist workers (read-only: tests copy or clone it)."""

    def build(root):
        pub = build_published(root, mirror)
        return {"ws": str(pub.ws), "hashes": pub.hashes, "seconds": pub.seconds}

    _, info = build_once(tmp_path_factory, "services-published", build)
    TIMINGS["local snakemake run of the BLEU spine"] = info["seconds"]
    return Published(ws=Path(info["ws"]), hashes=info["hashes"], seconds=info["seconds"])


@pytest.fixture(scope="module")
def daemons(tmp_path_factory):
    """The servers a test module starts; all stopped by PID when the module ends."""
    servers = Daemons(tmp_path_factory.mktemp("daemon-logs"))
    yield servers
    servers.stop_all()


@pytest.fixture(scope="module")
def ssh_server(daemons, tmp_path_factory):
    with Timer("start sshd"):
        return start_sshd(tmp_path_factory.mktemp("sshd"), daemons)


@pytest.fixture(scope="module")
def s3_server(daemons, tmp_path_factory):
    with Timer("start SeaweedFS S3"):
        return start_s3(tmp_path_factory.mktemp("seaweedfs"), daemons)
