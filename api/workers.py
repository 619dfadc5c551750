"""Several uvicorn workers that share the connections, not just the port.

uvicorn's supervisor binds one socket and every worker accepts from it, so whichever worker
happens to be waiting takes a whole burst of new connections: 16 keep-alive connections opened
together landed 16 and 0 on two workers, or 15, 1, 0 and 0 on four (docs/performance.md,
issue 15, third pass). A client that keeps its connections (a load balancer, a tournament's
scorekeeping tool, the benchmarks) then has every request served by one worker while the
others idle: two workers were no faster than one.

Here each worker listens on a socket of its own, all bound to the one address with
``SO_REUSEPORT``; Linux then spreads new connections over the listening sockets by a hash of
their addresses. uvicorn's supervisor still starts, watches and restarts the workers: it asks
for ``sockets`` each time it starts one, and gets a fresh socket for that worker. Where the
option is missing the workers share one socket as before.
"""

from __future__ import annotations

import socket

from uvicorn.config import Config
from uvicorn.supervisors.multiprocess import Multiprocess

__all__ = ["BalancedWorkers", "SupervisedWorkers", "balances_connections"]


def balances_connections() -> bool:
    """Whether this platform has ``SO_REUSEPORT`` (Linux spreads connections over the sockets)."""
    return hasattr(socket, "SO_REUSEPORT")


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` that other workers' sockets may bind too (the worker's
    server calls ``listen`` on it)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((host, port))
    except BaseException:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


class SupervisedWorkers(Multiprocess):
    """uvicorn's ``Multiprocess`` supervisor, remembering whether it stopped because a worker
    failed to start: uvicorn then stops every worker and returns as from a clean shutdown, so
    ``serve`` exited with status 0 and a supervisor restarting it on failure left it down
    (issue 40, finding 7). ``serve`` exits non-zero when ``failed_to_start``."""

    failed_to_start = False

    def keep_subprocess_alive(self) -> None:
        # uvicorn sets ``should_exit`` here only when a worker exited with STARTUP_FAILURE.
        stopping = self.should_exit.is_set()
        super().keep_subprocess_alive()
        if not stopping and self.should_exit.is_set():
            self.failed_to_start = True


class BalancedWorkers(SupervisedWorkers):
    """uvicorn's ``Multiprocess`` supervisor, each worker on a ``SO_REUSEPORT`` socket of its own."""

    def __init__(self, config: Config) -> None:
        # The first worker's socket is bound now, so a taken port fails before any worker starts.
        self._first: socket.socket | None = listening_socket(config.host, config.port)
        self._given: socket.socket | None = None
        super().__init__(config, sockets=[])

    @property
    def sockets(self) -> list[socket.socket]:
        """The socket for the worker about to start. The worker started before took its own copy
        of the previous one when it was spawned, so this process closes that one."""
        previous, self._given = self._given, self._first or listening_socket(self.config.host, self.config.port)
        self._first = None
        if previous is not None:
            previous.close()
        return [self._given]

    @sockets.setter
    def sockets(self, value: list[socket.socket]) -> None:
        """uvicorn's ``__init__`` assigns the one shared list; each worker gets its own instead."""
