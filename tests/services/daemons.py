"""Server processes for the service tests: started in the foreground as children of the test
run, with their output in a log file, and stopped by their PID (SIGTERM, then SIGKILL) at
teardown, also when a test fails. Nothing is stopped by name."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Daemon:
    """One started server process."""

    name: str
    proc: subprocess.Popen
    log: Path
    stop_timeout: float = 15  # seconds between SIGTERM and SIGKILL

    @property
    def pid(self) -> int:
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc.poll() is None

    def tail(self, lines: int = 15) -> str:
        """The last lines of its log (for error messages)."""
        try:
            text = self.log.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.strip().splitlines()[-lines:])

    def stop(self) -> None:
        """SIGTERM to its PID; SIGKILL if it has not exited after :attr:`stop_timeout`."""
        if self.proc.poll() is not None:
            return
        os.kill(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(self.stop_timeout)
        except subprocess.TimeoutExpired:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(5)


class Daemons:
    """The servers of one fixture, stopped in reverse start order by :meth:`stop_all`."""

    def __init__(self, logs: Path):
        self.logs = logs
        self.started: list[Daemon] = []
        logs.mkdir(parents=True, exist_ok=True)

    def start(self, name: str, args: list[str], env: dict[str, str] | None = None,
              cwd: Path | None = None, stop_timeout: float = 15) -> Daemon:
        """Start ``args`` (a foreground server) with stdout and stderr in ``logs/<name>.out``;
        at :meth:`stop_all` it gets SIGTERM, and SIGKILL after ``stop_timeout`` seconds."""
        log = self.logs / f"{name}.out"
        with open(log, "ab") as fh:
            proc = subprocess.Popen(args, stdout=fh, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, env=env, cwd=cwd,
                                    start_new_session=True)
        daemon = Daemon(name, proc, log, stop_timeout)
        self.started.append(daemon)
        return daemon

    def stop_all(self) -> None:
        for daemon in reversed(self.started):
            daemon.stop()
        self.started.clear()

    def wait_until(self, check: Callable[[], bool], what: str, timeout: float = 30) -> None:
        """Poll ``check`` every 0.2 s until it is true; RuntimeError naming ``what`` (with the
        log of any server that died) after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            dead = [d for d in self.started if not d.alive()]
            if dead:
                raise RuntimeError(f"{dead[0].name} exited (code {dead[0].proc.returncode}) "
                                   f"while waiting for {what}:\n{dead[0].tail()}")
            if check():
                return
            time.sleep(0.2)
        logs = "\n".join(f"--- {d.name}\n{d.tail(8)}" for d in self.started)
        raise RuntimeError(f"timed out after {timeout:.0f} s waiting for {what}\n{logs}")


def free_ports(n: int, spread: int = 0) -> list[int]:
    """``n`` distinct TCP ports on 127.0.0.1 that are free now; with ``spread``, ``port +
    spread`` is free too (servers that derive a gRPC port from the HTTP port)."""
    ports: list[int] = []
    held: list[socket.socket] = []
    try:
        while len(ports) < n:
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            held.append(s)
            port = s.getsockname()[1]
            if spread and not (port + spread < 65536 and _bindable(port + spread)):
                continue
            ports.append(port)
    finally:
        for s in held:
            s.close()
    return ports


def _bindable(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def port_open(port: int) -> bool:
    """Something accepts TCP connections on 127.0.0.1:port."""
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


def http_answers(url: str) -> bool:
    """``url`` gives any HTTP response (an error status counts: the server is up)."""
    try:
        urllib.request.urlopen(url, timeout=1).close()
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False
    return True
