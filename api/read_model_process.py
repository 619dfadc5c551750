"""The read models in a process of their own, beside the serving workers.

The read models (the game list, the matches, the webhook outbox) follow the whole log. Run
inside a serving worker they cost it about a fifth of its CPU per action under load, under the
same GIL as the requests (docs/performance.md, issue 15, sixth pass); with one worker that
worker is the bottleneck while the machine's other core waits.

So ``serve`` can start ``mtg-ledger project`` first (it does on PostgreSQL, ``api.settings``), wait
until it is elected to keep them (``store.runner_election``), and only then start the
workers. The workers still stand by in the election: if the process dies, one of them takes the
read models over within a second, and the process is started again (it then stands by in its
turn). Nothing here is needed for correctness; it only moves work off the serving workers.

The child shares ``serve``'s process group, so a terminal's Ctrl-C or a supervisor's SIGTERM to
the group stops it with the workers; it also exits by itself when ``serve`` is gone.
"""

from __future__ import annotations

import logging
import os
import select
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from typing import IO

log = logging.getLogger("mtg_ledger")

__all__ = ["KEEPS", "STANDS_BY", "ReadModelProcess", "project_argv"]

KEEPS = "read models: kept by this process"
"""The line ``mtg-ledger project`` prints once it is elected."""
STANDS_BY = "read models: another process keeps them; standing by"
"""The line it prints when it was not elected in time (another process keeps them)."""


def project_argv() -> list[str]:
    """How ``serve`` starts its read-model process: this interpreter, so the same installation."""
    # The parent's pid, not "whichever process is my parent": serve may end before the child
    # has started far enough to ask who its parent is.
    return [sys.executable, "-m", "api.cli", "project", "--parent", str(os.getpid())]


class ReadModelProcess:
    """``mtg-ledger project`` as a child of this process: started, watched and stopped."""

    def __init__(
        self,
        argv: Sequence[str] | None = None,
        *,
        ready_timeout: float = 30.0,
        restart_delay: float = 1.0,
    ) -> None:
        self._argv = list(argv) if argv is not None else project_argv()
        self._ready_timeout = ready_timeout
        self._restart_delay = restart_delay
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self.process: subprocess.Popen[bytes] | None = None
        """The child now running (``None`` before ``start`` and between a crash and its restart)."""
        self.keeps = False
        """Whether the child said it keeps the read models (``False``: standing by, or not ready)."""
        self.restarts = 0
        self._ready = False
        """How many times the child was started again after it died."""
        self._watcher: threading.Thread | None = None

    def start(self) -> bool:
        """Start the child and wait until it keeps the read models or stands by (or the time
        runs out); whether it keeps them. Then watch it: started again if it dies."""
        self._spawn()
        self._watcher = threading.Thread(target=self._watch, name="read-model-process", daemon=True)
        self._watcher.start()
        return self.keeps

    def _spawn(self) -> None:
        with self._lock:
            if self._stopping.is_set():
                return
            # Known at once, so a stop while it starts stops this one (and ends the wait below).
            process = self.process = subprocess.Popen(self._argv, stdout=subprocess.PIPE)
            self.keeps = self._ready = False
        assert process.stdout is not None
        line = _read_line(process.stdout, self._ready_timeout)
        with self._lock:
            self.keeps = line == KEEPS
            self._ready = line in (KEEPS, STANDS_BY)
        if self._stopping.is_set():
            return
        if line == KEEPS:
            log.info("read models: kept by process %d (mtg-ledger project)", process.pid)
        elif line == STANDS_BY:
            log.info("read models: process %d stands by (another process keeps them)", process.pid)
        else:  # the workers' own election covers for it
            log.warning("read models: process %d did not say it was ready in %ss", process.pid, self._ready_timeout)

    def _watch(self) -> None:
        while True:
            with self._lock:
                process = self.process
            if process is None or self._stopping.is_set():  # stop() ends the process itself
                return
            assert process.stdout is not None
            with process.stdout:
                process.stdout.read()  # nothing more is printed there; EOF when it exits
            code = process.wait()
            if self._stopping.is_set():
                return
            if code == 0:  # stopped on purpose (SIGTERM, SIGINT): not started again
                log.info("read models: process %d stopped; the workers keep them", process.pid)
                return
            if not self._ready:  # it never got going (a setting, the store): again would fail again
                log.error(
                    "read models: process %d exited with %d before it was ready; the workers keep them",
                    process.pid,
                    code,
                )
                return
            log.warning("read models: process %d exited with %d; starting it again", process.pid, code)
            if self._stopping.wait(self._restart_delay):
                return
            self.restarts += 1
            try:
                self._spawn()
            except OSError as err:
                log.error("read models: cannot start the process again (%s); the workers keep them", err)
                return

    def stop(self, timeout: float = 30.0) -> None:
        """Stop the child (SIGTERM, then SIGKILL after ``timeout`` seconds) and its watcher."""
        with self._lock:
            self._stopping.set()
            process = self.process
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if self._watcher is not None:
            self._watcher.join(timeout)
        if process is not None and process.stdout is not None:
            process.stdout.close()  # the watcher's, unless it returned before reading it


def _read_line(stream: IO[bytes], timeout: float) -> str:
    """The first line of ``stream``, or ``""`` when none came within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    data = b""
    fd = stream.fileno()
    while not data.endswith(b"\n"):
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
            return ""
        chunk = os.read(fd, 1)  # byte by byte: what follows the line stays for the watcher
        if not chunk:
            return data.decode(errors="replace").strip()
        data += chunk
    return data.decode(errors="replace").strip()
