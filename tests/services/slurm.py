"""A single-node SLURM cluster on 127.0.0.1, every file under one temp dir (issue 13).

Five daemons from Debian packages (SLURM 22.05 on Debian 12), each in the foreground and
stopped by PID: ``munged`` (own key and socket), ``mariadbd`` (own datadir, TCP on
127.0.0.1), ``slurmdbd`` (accounting, so that ``sacct`` works: the executor plugin polls job
states with it), ``slurmctld`` and ``slurmd``. No systemd and no cgroups are needed
(``proctrack/linuxproc``, ``task/none``). All ports are chosen free, so a machine that runs
a real SLURM keeps its own.

The cluster has one partition and one account whose names are not SLURM's defaults, and the
partition is not a default partition: a job reaches the node only when the user's own
configuration names both (see :attr:`SlurmCluster.partition`, :attr:`SlurmCluster.account`).

Clients find the cluster through ``SLURM_CONF`` (in :attr:`SlurmCluster.env`). The executor
plugin's job step (``snakemake-executor-plugin-slurm-jobstep``) drops every ``SLURM_*``
variable but the job's identity before calling ``srun``, so :attr:`SlurmCluster.env` puts
first on PATH an ``srun`` that sets ``SLURM_CONF`` again and runs the real one.
"""

from __future__ import annotations

import getpass
import os
import socket
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.services.daemons import Daemons, free_ports, port_open
from tests.services.install import ensure_commands, ensure_modules

PACKAGES = {
    "munged": "munge", "mungekey": "munge",
    "mariadbd": "mariadb-server", "mariadb-install-db": "mariadb-server",
    "mariadb": "mariadb-client",
    "slurmdbd": "slurmdbd",
    "slurmctld": "slurm-wlm", "slurmd": "slurm-wlm", "sbatch": "slurm-wlm",
    "srun": "slurm-wlm", "sinfo": "slurm-wlm", "sacct": "slurm-wlm", "sacctmgr": "slurm-wlm",
    "scancel": "slurm-wlm",
}
PLUGIN = {"snakemake_executor_plugin_slurm": "snakemake-executor-plugin-slurm"}
DB_PASSWORD = "mwzrepro-accounting"


@dataclass
class SlurmCluster:
    """A running cluster: ``env`` holds what a client (sbatch, snakemake) needs."""

    root: Path
    partition: str
    account: str
    env: dict[str, str] = field(default_factory=dict)

    def run(self, *args: str) -> str:
        """stdout of a SLURM client command against this cluster (RuntimeError on failure)."""
        proc = subprocess.run(list(args), capture_output=True, text=True,
                              env={**os.environ, **self.env}, timeout=60)
        if proc.returncode != 0:
            raise RuntimeError(f"`{' '.join(args)}` failed: {proc.stderr.strip()}")
        return proc.stdout


def start_cluster(root: Path, daemons: Daemons, partition: str = "mwzq",
                  account: str = "mwzlab") -> SlurmCluster:
    """Install (if missing), configure and start the five daemons under ``root``; return
    once the node is idle. Skips the test where SLURM cannot run (not root)."""
    if os.geteuid() != 0:
        pytest.skip("the single-node SLURM cluster needs root (slurmd runs jobs as root here)")
    cmds = ensure_commands(PACKAGES)
    ensure_modules(PLUGIN)
    dirs = {name: root / name for name in ("etc", "munge", "mysql", "state", "spool", "log",
                                           "run", "bin")}
    for path in dirs.values():
        path.mkdir(parents=True, exist_ok=True)
    ctld_port, slurmd_port, dbd_port, db_port = free_ports(4)
    host = socket.gethostname().split(".")[0]
    munge_socket = dirs["munge"] / "munge.socket"

    # 1. munge: a fresh key; --force accepts the temp dir's permissions.
    key = dirs["munge"] / "munge.key"
    subprocess.run([cmds["mungekey"], "--create", "--keyfile", str(key)], check=True,
                   capture_output=True)
    daemons.start("munged", [
        cmds["munged"], "--foreground", "--force", f"--socket={munge_socket}",
        f"--key-file={key}", f"--pid-file={dirs['munge'] / 'munged.pid'}",
        f"--log-file={dirs['log'] / 'munged.log'}", f"--seed-file={dirs['munge'] / 'seed'}"])
    daemons.wait_until(munge_socket.exists, "the munge socket")

    # 2. MariaDB with its own datadir; the accounting user may connect over TCP only.
    datadir, db_socket = dirs["mysql"] / "data", dirs["mysql"] / "mysqld.sock"
    subprocess.run([cmds["mariadb-install-db"], "--no-defaults", f"--datadir={datadir}",
                    "--user=root", "--auth-root-authentication-method=socket",
                    "--skip-test-db"], check=True, capture_output=True)
    daemons.start("mariadbd", [
        cmds["mariadbd"], "--no-defaults", "--user=root", f"--datadir={datadir}",
        f"--socket={db_socket}", f"--port={db_port}", "--bind-address=127.0.0.1",
        f"--pid-file={dirs['mysql'] / 'mariadbd.pid'}",
        f"--log-error={dirs['log'] / 'mariadbd.log'}", "--skip-log-bin"])
    daemons.wait_until(lambda: port_open(db_port), f"MariaDB on 127.0.0.1:{db_port}", 60)
    sql = (f"CREATE USER 'slurm'@'127.0.0.1' IDENTIFIED BY '{DB_PASSWORD}'; "
           "GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1';")
    subprocess.run([cmds["mariadb"], "--no-defaults", f"--socket={db_socket}", "-u", "root",
                    "-e", sql], check=True, capture_output=True)

    # 3. Configuration: slurm.conf, slurmdbd.conf (mode 600, beside it), an empty plugstack.
    etc = dirs["etc"]
    (etc / "plugstack.conf").write_text("")
    common = ["AuthType=auth/munge", f"AuthInfo=socket={munge_socket}", "SlurmUser=root"]
    dbd_conf = etc / "slurmdbd.conf"
    dbd_conf.write_text("\n".join([
        *common, "DbdHost=localhost", "DbdAddr=127.0.0.1", f"DbdPort={dbd_port}",
        f"LogFile={dirs['log'] / 'slurmdbd.log'}", f"PidFile={dirs['run'] / 'slurmdbd.pid'}",
        "StorageType=accounting_storage/mysql", "StorageHost=127.0.0.1",
        f"StoragePort={db_port}", "StorageUser=slurm", f"StoragePass={DB_PASSWORD}",
        "StorageLoc=slurm_acct_db",
    ]) + "\n")
    dbd_conf.chmod(0o600)
    hardware = _node_hardware(cmds["slurmd"])
    conf = etc / "slurm.conf"
    conf.write_text("\n".join([
        "ClusterName=mwzrepro", f"SlurmctldHost={host}(127.0.0.1)",
        f"SlurmctldPort={ctld_port}", f"SlurmdPort={slurmd_port}", *common, "SlurmdUser=root",
        "CredType=cred/munge", f"StateSaveLocation={dirs['state']}",
        f"SlurmdSpoolDir={dirs['spool']}", f"SlurmctldPidFile={dirs['run'] / 'slurmctld.pid'}",
        f"SlurmdPidFile={dirs['run'] / 'slurmd.pid'}",
        f"SlurmctldLogFile={dirs['log'] / 'slurmctld.log'}",
        f"SlurmdLogFile={dirs['log'] / 'slurmd.log'}", f"PlugStackConfig={etc / 'plugstack.conf'}",
        "ProctrackType=proctrack/linuxproc", "TaskPlugin=task/none",
        "SelectType=select/cons_tres", "SelectTypeParameters=CR_Core",
        "JobAcctGatherType=jobacct_gather/none", "MpiDefault=none", "MailProg=/bin/true",
        "AccountingStorageType=accounting_storage/slurmdbd",
        "AccountingStorageHost=127.0.0.1", f"AccountingStoragePort={dbd_port}",
        # Connections to slurmdbd take their munge socket from here, not from AuthInfo.
        f"AccountingStoragePass={munge_socket}",
        "ReturnToService=2", "SchedulerType=sched/backfill",
        f"NodeName={host} NodeAddr=127.0.0.1 {hardware} State=UNKNOWN",
        # Not a default partition: jobs must name it (as the user's config does).
        f"PartitionName={partition} Nodes={host} Default=NO MaxTime=INFINITE State=UP",
    ]) + "\n")
    env = _client_env(dirs["bin"], conf, cmds["srun"])
    cluster = SlurmCluster(root=root, partition=partition, account=account, env=env)
    daemon_env = {**os.environ, **env}

    # 4. slurmdbd, then the cluster, the account and the user in the accounting database.
    daemons.start("slurmdbd", [cmds["slurmdbd"], "-D"], env=daemon_env)
    daemons.wait_until(lambda: port_open(dbd_port), f"slurmdbd on 127.0.0.1:{dbd_port}", 60)
    user = getpass.getuser()
    for args in (["add", "cluster", "mwzrepro"],
                 ["add", "account", account, "Cluster=mwzrepro", "Description=tests",
                  "Organization=mwzrepro"],
                 ["add", "user", user, f"Account={account}", "Cluster=mwzrepro"]):
        cluster.run(cmds["sacctmgr"], "-i", *args)

    # 5. slurmctld and slurmd; ready when the node is idle.
    daemons.start("slurmctld", [cmds["slurmctld"], "-D", "-f", str(conf)], env=daemon_env)
    daemons.wait_until(lambda: port_open(ctld_port), f"slurmctld on :{ctld_port}", 60)
    daemons.start("slurmd", [cmds["slurmd"], "-D", "-f", str(conf)], env=daemon_env)
    daemons.wait_until(lambda: _node_idle(cluster, cmds["sinfo"]), "the node to be idle", 60)
    return cluster


def stop_jobs(cluster: SlurmCluster) -> None:
    """Cancel whatever is still queued or running (before the daemons stop)."""
    try:
        cluster.run("scancel", "--user", getpass.getuser())
    except (RuntimeError, OSError, subprocess.TimeoutExpired):
        pass


def _client_env(bin_dir: Path, conf: Path, srun: str) -> dict[str, str]:
    wrapper = bin_dir / "srun"
    wrapper.write_text(f'#!/bin/sh\nexport SLURM_CONF="{conf}"\nexec "{srun}" "$@"\n')
    wrapper.chmod(0o755)
    # The srun wrapper first, then this environment's tools (snakemake, mwzrepro).
    path = os.pathsep.join([str(bin_dir), str(Path(sys.executable).parent), os.environ["PATH"]])
    return {"SLURM_CONF": str(conf), "PATH": path}


def _node_idle(cluster: SlurmCluster, sinfo: str) -> bool:
    try:
        return cluster.run(sinfo, "-h", "-N", "-o", "%T").strip() == "idle"
    except (RuntimeError, subprocess.TimeoutExpired):
        return False


def _node_hardware(slurmd: str) -> str:
    """The node's CPUs, sockets, cores and memory as slurmd detects them (``slurmd -C``),
    memory less 1 GB for the system: a node declared bigger than it is would be drained."""
    line = subprocess.run([slurmd, "-C"], capture_output=True, text=True,
                          check=True).stdout.splitlines()[0]
    fields = dict(item.split("=", 1) for item in line.split()[1:])  # drop NodeName=...
    fields["RealMemory"] = str(max(512, int(fields["RealMemory"]) - 1024))
    return " ".join(f"{k}={v}" for k, v in fields.items())


def sacct_jobs(cluster: SlurmCluster) -> list[dict[str, str]]:
    """Every job of this cluster's accounting (allocations only): name, account, partition,
    state."""
    fields = ["JobName", "Account", "Partition", "State"]
    out = cluster.run("sacct", "-a", "-X", "-n", "-P", "-S", "now-1days", "-o", ",".join(fields))
    rows = [line.split("|") for line in out.splitlines() if line.strip()]
    return [dict(zip(fields, row, strict=True)) for row in rows]
