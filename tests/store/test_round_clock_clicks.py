"""Issue 40, finding 6: two clicks on a round's clock at once gave ``422 clock_went_backwards``.
The service read the time before its write, and a write that clashed with the other click was
decided again on the newer record with the older time. Now the time is read inside the decision
(re-run after a clash; issue 39 moved it there too) and never put before the clock's last change
(a worker whose clock lags another's: ``domain.tournament.decide_clock.click_time``): clicks are
taken in the order they are stored, each at or after the one before."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

from domain.errors import GameError
from domain.tournament import CreateEvent
from ledger import tournament_use_cases as uc
from ledger.service import LedgerService, LedgerSettings
from store.results import Actor
from tests.store.conftest import Store

T0 = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
SK = Actor("Sam Scorekeeper", "scorekeeper")


class RacingClock:
    """The ledger's clock, with click A's first reading held until click B is stored: A read
    the time first, B wrote first. Every other reading is a second later than the one before."""

    def __init__(self) -> None:
        self.now = T0
        self.lock = threading.Lock()
        self.a_read = threading.Event()
        self.b_stored = threading.Event()
        self.hold_a = False

    def __call__(self) -> datetime:
        with self.lock:
            self.now += timedelta(seconds=1)
            at = self.now
            hold = self.hold_a and threading.current_thread().name == "click-a"
            if hold:
                self.hold_a = False
        if hold:
            self.a_read.set()
            self.b_stored.wait(10)
        return at


def _event(service: LedgerService) -> None:
    service.handle(uc.CreateTournament("CLK", CreateEvent(name="Clock", format="Modern", rounds=2)), SK)
    for name in ("Ann", "Ben"):
        service.handle(uc.RegisterPlayer("CLK", name), SK)
    service.handle(uc.PairRound("CLK", 1), SK)


def _click(service: LedgerService, action: str) -> dict[str, object]:
    return service.handle(uc.RoundClock("CLK", 1, action), SK)


def test_two_pauses_at_once_are_one_pause_and_one_already_paused(store: Store) -> None:
    clock = RacingClock()
    service = LedgerService(store.url, LedgerSettings(read_models=False), clock=clock)
    try:
        _event(service)
        _click(service, "start")
        clock.hold_a = True
        outcome: dict[str, object] = {}

        def click(name: str) -> None:
            try:
                outcome[name] = _click(service, "pause")["version"]
            except GameError as err:
                outcome[name] = err.code.value

        a = threading.Thread(target=click, args=("a",), name="click-a")
        a.start()
        assert clock.a_read.wait(10)
        click("b")  # stored while A holds its time
        clock.b_stored.set()
        a.join(20)
        assert outcome["a"] == "clock_already_paused", outcome
        assert isinstance(outcome["b"], int), outcome
    finally:
        service.close()


def test_a_click_on_a_lagging_clock_counts_at_the_last_change(store: Store) -> None:
    now = [T0]
    service = LedgerService(store.url, LedgerSettings(read_models=False), clock=lambda: now[0])
    try:
        _event(service)
        now[0] = T0 + timedelta(minutes=10)
        _click(service, "start")
        now[0] = T0 + timedelta(minutes=9, seconds=59)  # the next click's worker: a second behind
        _click(service, "pause")
        record = service.tournament_record("CLK")
        at = {r["type"]: r["data"]["at"] for r in record if r["type"] in ("RoundStarted", "RoundPaused")}
        assert at["RoundPaused"] == at["RoundStarted"] == now[0].replace(minute=10, second=0).isoformat(), at
    finally:
        service.close()
