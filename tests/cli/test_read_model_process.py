"""``serve``'s read-model process (``api.read_model_process``): started, waited for, started
again after a crash, left alone when it stopped on purpose or never got going.

Here the child is a small Python script that says what ``mtg-ledger project`` says; the real
command under ``serve`` is in ``tests/reliability/test_read_model_process.py``."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from api.read_model_process import KEEPS, STANDS_BY, ReadModelProcess


def child(tmp_path: Path, body: str) -> list[str]:
    """A child that appends a line to ``starts`` each time it starts, then runs ``body``."""
    script = tmp_path / "child.py"
    script.write_text(
        f"import os, sys, time\nopen({str(tmp_path / 'starts')!r}, 'a').write(f'{{os.getpid()}}\\n')\n" + body,
        encoding="utf-8",
    )
    return [sys.executable, str(script)]


def starts(tmp_path: Path) -> int:
    path = tmp_path / "starts"
    return len(path.read_text().split()) if path.exists() else 0


def wait_for(condition: object, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_start_waits_for_the_line_that_it_keeps_the_read_models(tmp_path: Path) -> None:
    process = ReadModelProcess(child(tmp_path, f"time.sleep(0.3); print({KEEPS!r}, flush=True); time.sleep(60)\n"))
    try:
        assert process.start() is True
        assert process.keeps and process.process is not None and process.process.poll() is None
    finally:
        process.stop(timeout=5)
    assert process.process.poll() is not None  # stopped with the server


def test_a_child_that_stands_by_is_not_said_to_keep_them(tmp_path: Path) -> None:
    process = ReadModelProcess(child(tmp_path, f"print({STANDS_BY!r}, flush=True); time.sleep(60)\n"))
    try:
        assert process.start() is False
        assert process.process is not None and process.process.poll() is None  # it stays, standing by
    finally:
        process.stop(timeout=5)


def test_a_child_that_says_nothing_in_time_does_not_hold_up_serve(tmp_path: Path) -> None:
    process = ReadModelProcess(child(tmp_path, "time.sleep(60)\n"), ready_timeout=0.3)
    begin = time.monotonic()
    try:
        assert process.start() is False
        assert time.monotonic() - begin < 5
    finally:
        process.stop(timeout=5)


def test_a_child_that_dies_after_it_was_ready_is_started_again(tmp_path: Path) -> None:
    # The first start keeps the read models and crashes; the second stands by and stays.
    body = (
        f"if len(open({str(tmp_path / 'starts')!r}).read().split()) == 1:\n"
        f"    print({KEEPS!r}, flush=True); time.sleep(0.2); os._exit(3)\n"
        f"print({STANDS_BY!r}, flush=True); time.sleep(60)\n"
    )
    process = ReadModelProcess(child(tmp_path, body), restart_delay=0.05)
    try:
        assert process.start() is True
        wait_for(lambda: process.restarts == 1 and starts(tmp_path) == 2 and not process.keeps)
        assert process.process is not None and process.process.poll() is None
    finally:
        process.stop(timeout=5)
    time.sleep(0.3)
    assert starts(tmp_path) == 2  # not started again once serve stopped it


@pytest.mark.parametrize(
    ("body", "why"),
    [
        (f"print({KEEPS!r}, flush=True); time.sleep(0.2); sys.exit(0)\n", "stopped on purpose (exit 0)"),
        ("sys.exit(2)\n", "never ready: a bad setting would fail again and again"),
    ],
)
def test_a_child_that_stopped_on_purpose_or_never_got_going_is_left_stopped(
    tmp_path: Path, body: str, why: str
) -> None:
    process = ReadModelProcess(child(tmp_path, body), restart_delay=0.05)
    try:
        process.start()
        assert process.process is not None
        process.process.wait(5)
        time.sleep(0.5)
        assert starts(tmp_path) == 1, why
        assert process.restarts == 0
    finally:
        process.stop(timeout=5)


def test_stopping_while_a_restarted_child_is_not_ready_yet_stops_it_at_once(tmp_path: Path) -> None:
    """serve stopping while the watcher waits for a restarted child's line: that child is the one
    stopped, and serve does not wait out the ready timeout."""
    body = (
        f"if len(open({str(tmp_path / 'starts')!r}).read().split()) == 1:\n"
        f"    print({KEEPS!r}, flush=True); time.sleep(0.2); os._exit(3)\n"
        "time.sleep(60)\n"  # the restarted one never says it is ready
    )
    process = ReadModelProcess(child(tmp_path, body), ready_timeout=30, restart_delay=0.05)
    process.start()
    wait_for(lambda: starts(tmp_path) == 2)
    second = int((tmp_path / "starts").read_text().split()[1])
    begin = time.monotonic()
    process.stop(timeout=5)
    assert time.monotonic() - begin < 5
    wait_for(lambda: not Path(f"/proc/{second}").exists() or "Z" in Path(f"/proc/{second}/stat").read_text().split()[2])
