"""``mtg-ledger serve --workers N``: each worker listens on its own socket, so kept-alive
connections spread over the workers (``api.workers``; docs/operations.md, Several workers).

With uvicorn's one shared socket, 16 connections opened together landed 16 and 0 on two
workers two times in three here: every request of such a client went to one worker."""

from __future__ import annotations

import os
import socket
import sys
import time
from pathlib import Path

import pytest

from bench.harness import Server, scratch_store

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc; SO_REUSEPORT balancing is Linux's")

LISTEN, ESTABLISHED = "0A", "01"


def sockets_on(port: int, state: str) -> list[int]:
    """Inodes of the TCP sockets whose local port is ``port``, in ``state`` (``/proc/net/tcp``)."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not os.path.exists(table):
            continue
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            local_port = int(fields[1].rsplit(":", 1)[1], 16)
            if local_port == port and fields[3] == state:
                found.append(int(fields[9]))
    return found


def owners(inodes: list[int], pids: list[int]) -> dict[int, int]:
    """Which of ``pids`` holds each socket inode."""
    held: dict[int, int] = {}
    for pid in pids:
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if target.startswith("socket:["):
                held.setdefault(int(target[8:-1]), pid)
    return {inode: held[inode] for inode in inodes if inode in held}


def workers_of(server: Server) -> list[int]:
    assert server.process is not None
    children = Path(f"/proc/{server.process.pid}/task/{server.process.pid}/children").read_text().split()
    # serve's process is the supervisor; its children are the workers (and multiprocessing's
    # resource tracker, which holds no socket of the port).
    return [int(c) for c in children]


def test_each_worker_listens_on_its_own_socket_and_connections_spread() -> None:
    with scratch_store("sqlite", prefix="mtgl_workers") as store, Server.ledger(store, workers=2) as server:
        pids = workers_of(server)
        # The server answers once one worker is up; the other may still be starting.
        deadline = time.monotonic() + 60
        while len(listening := owners(sockets_on(server.port, LISTEN), pids)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(listening) == 2 and len(set(listening.values())) == 2, listening
        clients = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(32)]
        try:
            for c in clients:  # one request each, so each connection has been accepted
                c.sendall(b"GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
                assert c.recv(65536).startswith(b"HTTP/1.1 200")
            accepted = owners(sockets_on(server.port, ESTABLISHED), pids)
        finally:
            for c in clients:
                c.close()
        assert len(accepted) == 32, accepted
        # Spread by a hash of the connection's addresses: all 32 on one worker has odds of 2**-31.
        assert len(set(accepted.values())) == 2, accepted
