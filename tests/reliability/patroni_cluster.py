"""A PostgreSQL cluster under Patroni, with etcd, on loopback ports of this machine, in a
temporary directory: what tests/reliability/test_failover.py kills.

The same recipe as deploy/patroni/ (synchronous replication to one standby,
``synchronous_mode: true``, pg_rewind for a primary that comes back), squeezed onto one host:
one etcd member, ``size`` PostgreSQL nodes each with its own Patroni, ports picked free, trust
authentication on 127.0.0.1 only, and short timings (``loop_wait`` 1 s, ``ttl`` 10 s) so that
a failover takes seconds. Debian's packages (``make ha-deps``): ``patroni``, ``etcd-server``,
PostgreSQL 15's binaries under ``/usr/lib/postgresql/15/bin``. PostgreSQL refuses to run as
root, so when the test runs as root every process of the cluster runs as the ``postgres``
user (the Debian package's), in a directory it owns.

Two ways to kill the primary (``kill_primary``):

- ``postgres``: SIGKILL to its postmaster. Its Patroni sees PostgreSQL gone and, with
  ``primary_start_timeout: 0``, hands the leader key over at once (instead of restarting it
  in place); the synchronous standby is promoted, and the old primary comes back as a standby
  (rewound with pg_rewind when it had WAL the new primary never got).
- ``node``: SIGKILL to its Patroni and its postmaster together (a host that died). Nobody
  hands the leader key over: the standbys wait for it to expire (``ttl``) and the synchronous
  one takes over. The node's Patroni is started again afterwards (``restart_node``).
"""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Literal

import psycopg
import yaml

PG_BIN = Path("/usr/lib/postgresql/15/bin")
DEPLOY = Path(__file__).resolve().parents[2] / "deploy" / "patroni"
"""The recipe (docs/operations.md, High availability): the cluster starts from its files."""
HOSTS = ("db1", "db2", "db3")
PASSWORDS = {
    "CHANGE-ME-superuser": "test-superuser",
    "CHANGE-ME-replication": "test-replication",
    "CHANGE-ME-rewind": "test-rewind",
}
"""The recipe's passwords, as this test sets them (``url`` and the tools give them)."""
SUPERUSER_PASSWORD = PASSWORDS["CHANGE-ME-superuser"]
RUN_AS = "postgres"
"""The user every process of the cluster runs as when the test runs as root."""
SCOPE = "mtgl-failover"
TTL = 10
"""Seconds before the leader key of a dead node expires (Patroni's ``ttl``)."""
LOOP_WAIT = 1
RETRY_TIMEOUT = 3

KillMode = Literal["postgres", "node"]


def unavailable() -> str | None:
    """Why the cluster cannot run on this machine (``None``: it can)."""
    for tool, package in (("patroni", "patroni"), ("etcd", "etcd-server")):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (Debian package {package}: `make ha-deps`)"
    if not (PG_BIN / "postgres").exists():
        return f"PostgreSQL 15 is not installed ({PG_BIN}/postgres is missing)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam(RUN_AS)
        except KeyError:
            return f"running as root and there is no {RUN_AS!r} user to run PostgreSQL as"
    return None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _get_json(url: str, timeout: float = 1.0) -> Any:
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return json.loads(response.read())


@dataclass
class Node:
    """One PostgreSQL node and its Patroni."""

    name: str
    directory: Path
    pg_port: int = field(default_factory=free_port)
    api_port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    _log: IO[bytes] | None = None

    @property
    def data_dir(self) -> Path:
        return self.directory / "data"

    @property
    def api(self) -> str:
        return f"http://127.0.0.1:{self.api_port}"

    def postmaster_pid(self) -> int | None:
        """The running postmaster's pid (``postmaster.pid``'s first line), or ``None``."""
        try:
            pid = int((self.data_dir / "postmaster.pid").read_text().split("\n", 1)[0])
        except (OSError, ValueError):
            return None
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return None
        return pid


@dataclass
class Kill:
    """One kill of the primary, as the cluster saw it."""

    number: int
    mode: KillMode
    victim: str
    killed_at: float
    """``time.monotonic()`` of the SIGKILL."""
    primary_at: float | None = None
    """When a node accepted a read-write connection again (``None``: never, within the wait)."""
    new_primary: str | None = None

    @property
    def without_primary(self) -> float | None:
        """Seconds without a primary, from the SIGKILL to the first read-write connection."""
        return None if self.primary_at is None else self.primary_at - self.killed_at


class PatroniCluster:
    """etcd and ``size`` Patroni-managed PostgreSQL nodes on loopback (see the module docstring)."""

    def __init__(self, size: int = 3) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="mtgl-ha-"))
        self.etcd_client = free_port()
        self.etcd_peer = free_port()
        self.nodes = [Node(f"pg{i + 1}", self.root / f"pg{i + 1}") for i in range(size)]
        self.archive = self.root / "wal-archive"
        """Where every primary archives its WAL (``archive_command``)."""
        self._etcd: subprocess.Popen[bytes] | None = None
        self._etcd_log: IO[bytes] | None = None
        self._user = RUN_AS if os.geteuid() == 0 else None

    # -- life cycle ------------------------------------------------------------------------
    def start(self, timeout: float = 180.0) -> PatroniCluster:
        """etcd, then every node; returns once the cluster is healthy (``wait_healthy``)."""
        for node in self.nodes:
            node.directory.mkdir(parents=True)
        (self.root / "etcd").mkdir()
        self.archive.mkdir()
        self._own(self.root)
        self._etcd_log = open(self.root / "etcd.log", "ab")  # noqa: SIM115 - closed in close()
        self._etcd = self._spawn(
            [
                "etcd",
                "--name=etcd1",
                f"--data-dir={self.root / 'etcd' / 'data'}",
                f"--listen-client-urls=http://127.0.0.1:{self.etcd_client}",
                f"--advertise-client-urls=http://127.0.0.1:{self.etcd_client}",
                f"--listen-peer-urls=http://127.0.0.1:{self.etcd_peer}",
                f"--initial-advertise-peer-urls=http://127.0.0.1:{self.etcd_peer}",
                f"--initial-cluster=etcd1=http://127.0.0.1:{self.etcd_peer}",
                "--initial-cluster-state=new",
                "--log-level=warn",
            ],
            self._etcd_log,
            self.root / "etcd",
        )
        self._wait(lambda: _get_json(f"http://127.0.0.1:{self.etcd_client}/health").get("health") == "true", 30)
        for node in self.nodes:
            (node.directory / "patroni.yml").write_text(json.dumps(self._config(node), indent=2))
            self._own(node.directory)
            self.start_node(node)
            if node is self.nodes[0]:  # the first bootstraps the cluster; the others clone it
                self._wait(lambda: self.leader() is not None, timeout)
        self.wait_healthy(timeout)
        return self

    def start_node(self, node: Node) -> None:
        """Start (or start again) ``node``'s Patroni, which starts its PostgreSQL."""
        if node._log is None:
            node._log = open(node.directory / "patroni.log", "ab")  # noqa: SIM115 - closed in close()
        node.process = self._spawn(["patroni", str(node.directory / "patroni.yml")], node._log, node.directory)

    def close(self) -> None:
        """Stop every process of the cluster (Patroni stops its PostgreSQL) and remove the directory."""
        for node in self.nodes:
            if node.process is not None and node.process.poll() is None:
                node.process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 30
        for node in self.nodes:
            if node.process is not None:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    node.process.wait(timeout=max(0.1, deadline - time.monotonic()))
            self._kill_node_processes(node)
        if self._etcd is not None:
            self._etcd.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._etcd.wait(timeout=10)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self._etcd.pid, signal.SIGKILL)
            self._etcd.wait(timeout=10)
        for log in [self._etcd_log, *(n._log for n in self.nodes)]:
            if log is not None:
                log.close()
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> PatroniCluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- what the test asks ----------------------------------------------------------------
    def url(self, dbname: str, user: str = "postgres", **options: str) -> str:
        """The multi-host URL of every node, ``target_session_attrs=read-write`` first (as the
        superuser, with its password: the recipe's pg_hba asks for one over TCP)."""
        hosts = ",".join(f"127.0.0.1:{n.pg_port}" for n in self.nodes)
        query = "&".join(f"{k}={v}" for k, v in {"target_session_attrs": "read-write", **options}.items())
        return f"postgresql://{user}:{SUPERUSER_PASSWORD}@{hosts}/{dbname}?{query}"

    def members(self) -> list[dict[str, Any]]:
        """Patroni's view of the cluster (``GET /cluster`` of the first node that answers)."""
        for node in self.nodes:
            with contextlib.suppress(OSError, ValueError):
                found: list[dict[str, Any]] = _get_json(f"{node.api}/cluster")["members"]
                return found
        return []

    def leader(self) -> Node | None:
        """The node Patroni runs as the primary, running (``None``: none right now)."""
        for member in self.members():
            if member.get("role") == "leader" and member.get("state") == "running":
                return self.node(member["name"])
        return None

    def node(self, name: str) -> Node:
        return next(n for n in self.nodes if n.name == name)

    def healthy(self) -> bool:
        """Every node is up, one is the primary and one its synchronous standby, and every
        standby has replayed all the primary's WAL (lag 0): ready for the next kill."""
        members = self.members()
        if len(members) != len(self.nodes):
            return False
        if any(m.get("state") not in ("running", "streaming") for m in members):
            return False
        roles = [m.get("role") for m in members]
        if roles.count("leader") != 1 or "sync_standby" not in roles:
            return False
        return all(m.get("lag", 0) in (0, None) for m in members if m.get("role") != "leader")

    def wait_healthy(self, timeout: float = 120.0) -> None:
        self._wait(self.healthy, timeout, lambda: f"cluster not healthy: {self.members()}")

    def primary_accepts_writes(self, dbname: str = "postgres") -> str | None:
        """The name of the node a read-write connection reaches now (``None``: none)."""
        try:
            with psycopg.connect(self.url(dbname), connect_timeout=1, autocommit=True) as conn:
                port = conn.info.port
        except psycopg.Error:
            return None
        return next((n.name for n in self.nodes if n.pg_port == port), None)

    def kill_primary(self, number: int, mode: KillMode) -> Kill:
        """SIGKILL the primary (``postgres``: its postmaster; ``node``: its Patroni too)."""
        leader = self.leader()
        assert leader is not None, f"no primary to kill: {self.members()}"
        pid = leader.postmaster_pid()
        assert pid is not None, f"{leader.name} has no postmaster"
        killed_at = time.monotonic()
        if mode == "node":
            assert leader.process is not None
            os.kill(leader.process.pid, signal.SIGKILL)
        os.kill(pid, signal.SIGKILL)
        if mode == "node":
            assert leader.process is not None
            leader.process.wait(timeout=10)
        return Kill(number, mode, leader.name, killed_at)

    def wait_for_primary(self, kill: Kill, timeout: float = 120.0, dbname: str = "postgres") -> Kill:
        """Poll every 50 ms until a node takes read-write connections again; records when."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            name = self.primary_accepts_writes(dbname)
            if name is not None:
                kill.primary_at, kill.new_primary = time.monotonic(), name
                return kill
            time.sleep(0.05)
        return kill

    def restart_node(self, name: str) -> None:
        """Start again a node killed whole (``node`` kills): it comes back as a standby."""
        node = self.node(name)
        self._kill_node_processes(node)  # its PostgreSQL's children, if any are left
        self.start_node(node)

    def logs(self, lines: int = 60) -> str:
        """The tail of every process's log, for a failure message."""
        parts = []
        for path in [self.root / "etcd.log", *(n.directory / "patroni.log" for n in self.nodes)]:
            with contextlib.suppress(OSError):
                text = path.read_text(errors="replace").splitlines()[-lines:]
                parts.append(f"--- {path.name} ({path.parent.name})\n" + "\n".join(text))
        return "\n".join(parts)

    # -- helpers ---------------------------------------------------------------------------
    def _config(self, node: Node) -> dict[str, Any]:
        """Patroni's configuration of ``node``: deploy/patroni's file of the node at its place
        (``db1.yml`` for the first), read as it is, with what one machine needs instead: loopback
        addresses and free ports for the three hosts, this directory, test passwords for the
        ``CHANGE-ME`` ones, no watchdog, and short timings. Its authentication, its pg_hba rules
        (the hosts' names read as 127.0.0.1) and its base backup options are the recipe's own."""
        index = self.nodes.index(node)
        text = (DEPLOY / f"db{index + 1}.yml").read_text()
        for placeholder, password in PASSWORDS.items():
            text = text.replace(placeholder, password)
        config: dict[str, Any] = yaml.safe_load(text)
        config.update(scope=SCOPE, namespace="/mtgl-test/", name=node.name, log={"level": "INFO"})
        config["restapi"] = {"listen": f"127.0.0.1:{node.api_port}", "connect_address": f"127.0.0.1:{node.api_port}"}
        config["etcd3"] = {"hosts": [f"127.0.0.1:{self.etcd_client}"]}
        config["watchdog"] = {"mode": "off"}
        dcs = config["bootstrap"]["dcs"]
        dcs.update(ttl=TTL, loop_wait=LOOP_WAIT, retry_timeout=RETRY_TIMEOUT)
        parameters = dcs["postgresql"]["parameters"]
        parameters.update(wal_keep_size="256MB", shared_buffers="64MB")
        # WAL archive for the restore drill (docs/operations.md, Backups): this directory.
        parameters["archive_command"] = f"test ! -f {self.archive}/%f && cp %p {self.archive}/%f"
        postgresql = config["postgresql"]
        postgresql.update(
            listen=f"127.0.0.1:{node.pg_port}",
            connect_address=f"127.0.0.1:{node.pg_port}",
            data_dir=str(node.data_dir),
            bin_dir=str(PG_BIN),
            pgpass=str(node.directory / "pgpass"),
        )
        postgresql["parameters"]["unix_socket_directories"] = str(node.directory)
        postgresql["pg_hba"] = [_on_loopback(rule) for rule in postgresql["pg_hba"]]
        return config

    def run(self, argv: list[str], cwd: Path | None = None, timeout: float = 120.0) -> str:
        """Run a PostgreSQL tool (``pg_basebackup``, ``pg_ctl``) as the cluster's user; its output."""
        done = subprocess.run(
            argv,
            cwd=cwd or self.root,
            env={**self._env(cwd or self.root), "PGPASSWORD": PASSWORDS["CHANGE-ME-replication"]},  # -U replicator
            capture_output=True,
            text=True,
            timeout=timeout,
            user=self._user,
            check=False,
        )
        assert done.returncode == 0, f"{argv}: {done.returncode}\n{done.stdout}\n{done.stderr}"
        return done.stdout

    def own(self, path: Path) -> None:
        """Give ``path`` (and what is in it) to the cluster's user."""
        self._own(path)

    @staticmethod
    def _env(cwd: Path) -> dict[str, str]:
        return {
            "PATH": f"{PG_BIN}:/usr/local/bin:/usr/bin:/bin",
            "HOME": str(cwd),
            "LC_ALL": "C.UTF-8",
            "LANG": "C.UTF-8",
        }

    def _spawn(self, argv: list[str], log: IO[bytes], cwd: Path) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            argv,
            cwd=cwd,
            env=self._env(cwd),
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            user=self._user,
        )

    def _own(self, path: Path) -> None:
        if self._user is None:
            return
        entry = pwd.getpwnam(self._user)
        for p in [path, *path.rglob("*")]:
            os.chown(p, entry.pw_uid, entry.pw_gid)

    def _kill_node_processes(self, node: Node) -> None:
        """SIGKILL whatever is left of ``node``: its Patroni's session and its PostgreSQL (which
        Patroni starts in a session of its own), found by the data directory on the command line."""
        if node.process is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(node.process.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                node.process.wait(timeout=10)
        for pid in _pids_with_arg(str(node.data_dir)):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)

    @staticmethod
    def _wait(done: Any, timeout: float, why: Any = None) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError, ValueError, KeyError):
                if done():
                    return
            time.sleep(0.2)
        raise TimeoutError(why() if why is not None else f"not done in {timeout}s")


def _on_loopback(rule: str) -> str:
    """A pg_hba rule of the recipe with its hosts' names (``db1``...) as this machine's loopback."""
    return " ".join("127.0.0.1/32" if word in HOSTS else word for word in rule.split())


def _pids_with_arg(arg: str) -> Iterator[int]:
    """Processes whose command line holds ``arg`` (a postmaster: ``postgres -D <data_dir>``)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            if arg in (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace"):
                yield int(entry.name)
