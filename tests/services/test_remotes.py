"""DVC remotes on real servers (issue 13): an SSH server (OpenSSH sshd, SFTP), an S3 server
(SeaweedFS, real signature checks) and a read-only HTTP server publishing a pushed cache.

Each round trip is the README's: the lab's workspace (Snakemake run + `mwzrepro record`,
committed) adds the remote the way a user does (URL in `.dvc/config`, committed; credentials
in `.dvc/config.local`, never committed) and runs `dvc push`; a reader makes a fresh
`git clone`, adds the credentials, runs `dvc pull` and `mwzrepro sync`. Then `snakemake -n`
plans nothing and every output is byte-identical to the lab's. The failures (a wrong S3
secret, an unreachable SSH port) must give a clear error and leave the reader's workspace as
it was.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.services.daemons import free_ports
from tests.services.servers import start_http
from tests.services.timing import Timer
from tests.services.workspace import (
    DVC_STAGE,
    STAGE,
    dvc_remote,
    git_clone,
    output_hashes,
    planned_jobs,
    run,
    tree_state,
)
from tests.workflow.repos import commit_all, copy_repo

pytestmark = [pytest.mark.services, pytest.mark.mirror]

PULL = ["dvc", "pull", DVC_STAGE, "--with-deps"]
#: Outputs kept in Git (cache: false), present in a fresh clone before any pull.
IN_GIT = ("results/metrics/", "results/records/", "results/plots/")


def lab_with_remote(published, dest: Path, name: str, url: str, shared: dict[str, str],
                    local: dict[str, str]) -> Path:
    """A copy of the lab's workspace with remote ``name`` added (URL and ``shared`` settings
    in `.dvc/config`, committed; ``local`` credentials in `.dvc/config.local`), then pushed."""
    lab = copy_repo(published.ws, dest)
    dvc_remote(lab, name, url, **local)
    for key, value in shared.items():
        run(["dvc", "remote", "modify", name, key, value], lab)
    commit_all(lab, f"DVC remote {name}")
    tracked = run(["git", "ls-files", ".dvc"], lab).stdout.split()
    assert ".dvc/config" in tracked and ".dvc/config.local" not in tracked, tracked
    committed = run(["git", "show", "HEAD:.dvc/config"], lab).stdout
    leaked = [k for k in local if f"{k} = " in committed]
    assert not leaked, f"credentials committed in .dvc/config: {leaked}"
    with Timer(f"{name}: dvc push"):
        run(["dvc", "push", "-r", name, DVC_STAGE, "--with-deps"], lab)
    status = run(["dvc", "status", "--cloud", "-r", name, DVC_STAGE, "--with-deps"], lab)
    assert "in sync" in (status.stdout + status.stderr).lower(), status.stdout
    return lab


def fresh_clone(lab: Path, dest: Path, name: str, **credentials: str) -> Path:
    """A reader's fresh `git clone` of ``lab`` with ``credentials`` for remote ``name`` in
    its `.dvc/config.local`; holds no pipeline output except those kept in Git."""
    reader = git_clone(lab, dest)
    stray = [p for p in output_hashes(reader) if not p.startswith(IN_GIT)]
    assert not stray, f"a fresh clone holds outputs: {stray[:5]}"
    for key, value in credentials.items():
        run(["dvc", "remote", "modify", "--local", name, key, value], reader)
    return reader


def pull_and_sync(reader: Path, expected: dict[str, str], pull: list[str]) -> None:
    """``pull`` then `mwzrepro sync`; asserts `snakemake -n` plans nothing and the outputs
    are byte-identical to ``expected`` (the lab's)."""
    run(pull, reader)
    run(["mwzrepro", "sync", STAGE], reader)
    assert planned_jobs(reader) == "", "snakemake -n plans jobs after dvc pull + mwzrepro sync"
    got = output_hashes(reader)
    assert sorted(got) == sorted(expected), set(got) ^ set(expected)
    differ = sorted(p for p in expected if got[p] != expected[p])
    assert not differ, f"pulled outputs differ from the lab's: {differ[:5]}"


def assert_failed_untouched(reader: Path, args: list[str], *clues: str) -> str:
    """Run ``args`` in ``reader``: it must fail (not time out), with ERROR lines naming every
    one of ``clues``, and leave every file of the workspace as it was. Returns its output."""
    before = tree_state(reader)
    proc = run(args, reader, timeout=120, check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode not in (0, 124, 137), f"`{' '.join(args)}` did not fail cleanly:\n{out}"
    errors = "\n".join(ln for ln in out.splitlines() if "ERROR" in ln).lower()
    missing = [c for c in clues if c.lower() not in errors]
    assert not missing, f"the ERROR lines do not name {missing}:\n{out}"
    assert tree_state(reader) == before, "the failed command changed the workspace"
    return out


# --- SSH -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ssh_lab(published, ssh_server, tmp_path_factory):
    root = tmp_path_factory.mktemp("ssh")
    creds = {"user": ssh_server.user, "keyfile": str(ssh_server.keyfile)}
    url = ssh_server.url(ssh_server.root / "dvc-store")
    lab = lab_with_remote(published, root / "lab", "lab-ssh", url, {}, creds)
    return SimpleNamespace(root=root, lab=lab, creds=creds)


def test_ssh_round_trip(ssh_lab, published, ssh_server):
    with Timer("lab-ssh: clone, dvc pull, mwzrepro sync, check"):
        reader = fresh_clone(ssh_lab.lab, ssh_lab.root / "reader", "lab-ssh", **ssh_lab.creds)
        pull_and_sync(reader, published.hashes, [*PULL, "-r", "lab-ssh"])
    assert any((ssh_server.root / "dvc-store" / "files" / "md5").iterdir())


def test_ssh_unreachable_port(ssh_lab):
    """Nothing listens on the remote's port: `dvc pull` fails with "failed to connect to ssh
    ... [Errno 111] Connect call failed ('127.0.0.1', PORT)" and the clone stays as it was."""
    reader = fresh_clone(ssh_lab.lab, ssh_lab.root / "unreachable", "lab-ssh", **ssh_lab.creds)
    (closed,) = free_ports(1)
    run(["dvc", "remote", "modify", "--local", "lab-ssh", "port", str(closed)], reader)
    assert_failed_untouched(reader, [*PULL, "-r", "lab-ssh"],
                            "failed to connect to ssh", f"'127.0.0.1', {closed})")


# --- S3 --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def s3_lab(published, s3_server, tmp_path_factory):
    root = tmp_path_factory.mktemp("s3")
    creds = {"access_key_id": s3_server.access_key, "secret_access_key": s3_server.secret_key}
    url = f"s3://{s3_server.bucket}/mwzrepro"
    lab = lab_with_remote(published, root / "lab", "lab-s3", url,
                          {"endpointurl": s3_server.endpoint}, creds)
    return SimpleNamespace(root=root, lab=lab, creds=creds)


def test_s3_round_trip(s3_lab, published):
    with Timer("lab-s3: clone, dvc pull, mwzrepro sync, check"):
        reader = fresh_clone(s3_lab.lab, s3_lab.root / "reader", "lab-s3", **s3_lab.creds)
        pull_and_sync(reader, published.hashes, [*PULL, "-r", "lab-s3"])


def test_s3_wrong_secret(s3_lab):
    """A wrong secret key: the server refuses the signature, `dvc pull` fails with "failed to
    connect to s3 ... An error occurred (403) ... Forbidden" and the clone stays as it was."""
    creds = {**s3_lab.creds, "secret_access_key": "not-the-secret"}
    reader = fresh_clone(s3_lab.lab, s3_lab.root / "wrong-secret", "lab-s3", **creds)
    assert_failed_untouched(reader, [*PULL, "-r", "lab-s3"],
                            "failed to connect to s3", "(403)")


# --- read-only HTTP --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def http_lab(published, daemons, tmp_path_factory):
    """The lab pushes to a directory, serves it with a static HTTP server and commits the
    server's URL as the default remote: what a reader needs to pull without credentials."""
    root = tmp_path_factory.mktemp("http")
    cache = root / "published-cache"
    lab = lab_with_remote(published, root / "lab", "lab-dir", str(cache), {}, {})
    url = start_http(cache, daemons)
    dvc_remote(lab, "published", url, default=True)
    commit_all(lab, "publish the cache read-only over HTTP")
    return SimpleNamespace(root=root, lab=lab, cache=cache)


def test_http_read_only_pull(http_lab, published):
    """A fresh clone's plain `dvc pull` (default remote: the HTTP server, no credentials)
    gets every output, `mwzrepro sync` computes nothing, and `dvc status` is clean: every
    output, the committed metrics included, has the hash the lab's `dvc.lock` recorded."""
    with Timer("published (http): clone, dvc pull, mwzrepro sync, check"):
        reader = fresh_clone(http_lab.lab, http_lab.root / "reader", "published")
        pull_and_sync(reader, published.hashes, ["dvc", "pull", DVC_STAGE, "--with-deps"])
    status = run(["dvc", "status", DVC_STAGE, "--with-deps", "--json"], reader).stdout
    assert json.loads(status or "{}") == {}, status


def test_http_remote_is_read_only(http_lab, tmp_path):
    """A reader cannot push to the published URL: the static server refuses the upload
    (HTTP 501) and its directory stays as it was."""
    reader = git_clone(http_lab.lab, tmp_path / "pusher")
    (reader / "extra.txt").write_text("not the lab's\n")
    run(["dvc", "add", "-q", "extra.txt"], reader)
    before = tree_state(http_lab.cache)
    assert_failed_untouched(reader, ["dvc", "push", "extra.txt.dvc"],
                            "failed to push data to the cloud", "501")
    assert tree_state(http_lab.cache) == before
