"""The weight of the web pages on the wire (issue 41; docs/performance.md, "The pages on the
wire"): for a player's game page at 390 px, the public event page and the scorekeeper's event
page, in Debian's Chromium with a fresh profile:

- first load: requests that reached the server and bytes on the wire (the server's answers,
  headers included, as they crossed the socket: compressed when they were);
- reload: the same page again in the same tab (what the browser and the service worker kept);
- offline reload: the network gone (Playwright's ``set_offline``): does the page open and show
  the last known state, and how many requests left the browser (none should).

The bytes are counted by a TCP proxy between Chromium and ``mtg-ledger serve`` (the browser talks
to the proxy): every byte each way, whoever asked (the page or its service worker), nothing from
a cache. A request is one HTTP/1.1 request line going up. The game page is ready when its board
shows the game and the Live badge is on; an event page when its title is drawn; each then gets a
second to settle (the event pages poll) before the counters are read. Beside the proxy's count,
Chromium's own network events for the page (DevTools protocol ``Network.*``): its requests, those
its service worker or the browser's cache answered, and the encoded bytes of the others.

    .venv/bin/python bench/page_weight.py                 # this checkout; prints and updates docs/performance.md
    .venv/bin/python bench/page_weight.py --serve /work/main/.venv/bin/mtg-ledger --no-report  # another checkout

Needs /usr/bin/chromium (make browser-deps) and the dev install (Playwright's Python package).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import ADMIN_TOKEN, ROOT, Server, free_port, scratch_store, server_env, update_section

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
SETTLE_S = 1.0
REQUEST_LINE = re.compile(rb"(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) (\S+) HTTP/1\.[01]\r\n")
KEPT = """async () => {
  if (!("serviceWorker" in navigator)) return true;
  const reg = await navigator.serviceWorker.getRegistration();
  if (!reg) return true;
  return Boolean(reg.active && navigator.serviceWorker.controller && (await caches.keys()).length);
}"""


@dataclass
class Counter:
    """What crossed the proxy since the last ``take``."""

    up: int = 0
    down: int = 0
    paths: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self) -> tuple[int, int, list[str]]:
        with self.lock:
            out = (self.up, self.down, self.paths)
            self.up, self.down, self.paths = 0, 0, []
            return out


class Proxy:
    """A TCP proxy on a free loopback port to the server's port, counting bytes both ways."""

    def __init__(self, target_port: int) -> None:
        self.port = free_port()
        self.target = target_port
        self.counter = Counter()
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True, name="proxy")
        self.thread.start()
        self.ready.wait(10)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        server = self.loop.run_until_complete(asyncio.start_server(self._serve, "127.0.0.1", self.port))
        self.ready.set()
        self.loop.run_forever()
        server.close()

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, up: bool) -> None:
        try:
            while data := await reader.read(65536):
                with self.counter.lock:
                    if up:
                        self.counter.up += len(data)
                        self.counter.paths.extend(m.decode("latin-1") for m in REQUEST_LINE.findall(data))
                    else:
                        self.counter.down += len(data)
                writer.write(data)
                await writer.drain()
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    async def _serve(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        try:
            server_r, server_w = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            client_w.close()
            return
        await asyncio.gather(self._pump(client_r, server_w, True), self._pump(server_r, client_w, False))

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


def call(base: str, method: str, path: str, body: Any = None, content_type: str = "application/json") -> Any:
    data = None if body is None else (body.encode() if isinstance(body, str) else json.dumps(body).encode())
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Authorization", f"Bearer {ADMIN_TOKEN}")
    if data is not None:
        request.add_header("Content-Type", content_type)
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"null")


NAMES = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


def set_up(base: str) -> dict[str, str]:
    """A two-player game with a few actions and a player's token; an 8-player event with a round
    paired and a scorekeeper's token."""
    game = call(
        base,
        "POST",
        "/v1/games",
        {
            "variant": "two_player",
            "tournament": {"event": "Weigh-Open", "round": 1, "table": 1},
            "turn": {"number": 1, "active_player": "P1", "step": "precombat_main"},
            "players": [
                {"id": "P1", "name": "Alice", "library_size": 40},
                {"id": "P2", "name": "Bob", "library_size": 40},
            ],
        },
    )["game_id"]
    for amount in (1, 2, 3):
        call(base, "POST", f"/v1/games/{game}/actions", {"type": "lose_life", "player": "P2", "amount": amount})
    token = {"name": "P1 phone", "role": "player", "game_id": game, "player_id": "P1"}
    player = call(base, "POST", "/v1/tokens", token)
    call(base, "POST", "/v1/tournaments", {"id": "Weigh", "name": "Weigh Open", "format": "modern", "rounds": 3})
    roster = "name,wizards_id\n" + "".join(f"{n},{100 + i}\n" for i, n in enumerate(NAMES))
    call(base, "POST", "/v1/tournaments/Weigh/players.csv", roster, "text/csv")
    call(base, "POST", "/v1/tournaments/Weigh/rounds", {"seed": 3})
    scorekeeper = call(base, "POST", "/v1/tokens", {"name": "sk", "role": "scorekeeper"})
    return {
        "player": f"/games/{game}#token={player['token']}",
        "public": "/tournaments/Weigh/public",
        "scorekeeper": f"/tournaments/Weigh#token={scorekeeper['token']}",
    }


def game_ready(tab: Any) -> None:
    tab.wait_for_function(
        "() => /^\\d+$/.test(document.querySelector('#board')?.dataset.version || '')"
        " && document.querySelector('#players [data-field=\"life\"]')"
    )


def live_ready(tab: Any) -> None:
    game_ready(tab)
    tab.wait_for_function("() => document.querySelector('#live-badge')?.textContent === 'Live'")


def event_ready(tab: Any) -> None:
    tab.wait_for_function("() => (document.querySelector('#t-title')?.textContent || '').includes('Weigh Open')")


@dataclass
class PageCase:
    name: str
    label: str
    size: dict[str, int]
    ready: Callable[[Any], None]
    offline_ready: Callable[[Any], None]


CASES = [
    PageCase("player", "A player's game page (390 px)", PHONE, live_ready, game_ready),
    PageCase("public", "The public event page (390 px)", PHONE, event_ready, event_ready),
    PageCase("scorekeeper", "The scorekeeper's event page (1280 px)", DESKTOP, event_ready, event_ready),
]


@dataclass
class PageView:
    """Chromium's own network events for the page (DevTools protocol: Network.*): how many
    requests the page made, how many of them its service worker or the browser's cache answered,
    and the encoded bytes Chromium counted for the rest. The page's view only: the service
    worker's own fetches are not the page's (the proxy counts those)."""

    requests: int = 0
    by_worker: int = 0
    from_cache: int = 0
    encoded: int = 0
    network_ids: set[str] = field(default_factory=set)

    def attach(self, tab: Any) -> None:
        session = tab.context.new_cdp_session(tab)
        session.send("Network.enable")
        session.on("Network.requestWillBeSent", self._sent)
        session.on("Network.responseReceived", self._received)
        session.on("Network.loadingFinished", self._finished)

    def _sent(self, event: dict[str, Any]) -> None:
        if not event["request"]["url"].startswith("data:"):
            self.requests += 1

    def _received(self, event: dict[str, Any]) -> None:
        response = event["response"]
        if response.get("fromServiceWorker"):
            self.by_worker += 1
        elif response.get("fromDiskCache") or response.get("fromPrefetchCache"):
            self.from_cache += 1
        else:
            self.network_ids.add(event["requestId"])

    def _finished(self, event: dict[str, Any]) -> None:
        if event["requestId"] in self.network_ids:
            self.encoded += int(event.get("encodedDataLength", 0))

    def take(self) -> dict[str, int]:
        out = {"requests": self.requests, "by_worker": self.by_worker, "from_cache": self.from_cache}
        out["encoded"] = self.encoded
        self.requests = self.by_worker = self.from_cache = self.encoded = 0
        self.network_ids.clear()
        return out


def wait_kept(tab: Any, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if tab.evaluate(KEPT):
            return True
        tab.wait_for_timeout(50)
    return False


def measure(browser: Any, proxy: Proxy, case: PageCase, address: str) -> dict[str, Any]:
    context = browser.new_context(viewport=case.size, has_touch=case.size is PHONE, is_mobile=case.size is PHONE)
    context.set_default_timeout(15000)
    tab = context.new_page()
    out: dict[str, Any] = {"page": case.label}
    view = PageView()
    view.attach(tab)
    try:
        proxy.counter.take()
        tab.goto(f"http://127.0.0.1:{proxy.port}{address}")
        case.ready(tab)
        wait_kept(tab)
        tab.wait_for_timeout(SETTLE_S * 1000)
        up, down, paths = proxy.counter.take()
        out["first"] = {"requests": len(paths), "down": down, "up": up, "paths": paths, "cdp": view.take()}
        tab.reload()
        case.ready(tab)
        tab.wait_for_timeout(SETTLE_S * 1000)
        up, down, paths = proxy.counter.take()
        out["reload"] = {"requests": len(paths), "down": down, "up": up, "paths": paths, "cdp": view.take()}
        context.set_offline(True)
        try:
            tab.reload(timeout=10000)
            case.offline_ready(tab)
            opened = True
        except Exception:  # a page that does not open offline is the finding
            opened = False
        up, down, paths = proxy.counter.take()
        out["offline"] = {"opened": opened, "requests": len(paths), "down": down, "cdp": view.take()}
    finally:
        context.close()
    return out


def kb(n: int) -> str:
    return f"{n / 1000:.1f} KB"


def report(results: list[dict[str, Any]], command: str, commit: str) -> str:
    lines = [
        f"Measured {time.strftime('%Y-%m-%d')} on commit {commit} with `{command}` (Debian's Chromium, a fresh",
        "profile per page; bytes are the server's answers as they crossed the socket, headers included;",
        "requests are those that reached the server, the service worker's included).",
        "",
        "| page | first load | reload | offline reload |",
        "| --- | --- | --- | --- |",
    ]
    for r in results:
        f, re_, off = r["first"], r["reload"], r["offline"]
        offline = ("opens, " if off["opened"] else "does not open, ") + f"{off['requests']} requests"
        lines.append(
            f"| {r['page']} | {f['requests']} requests, {kb(f['down'])} | {re_['requests']} requests, "
            f"{kb(re_['down'])} | {offline} |"
        )
    lines += [
        "",
        "The page's own view, from Chromium's network events (DevTools protocol `Network.*`): the",
        "requests the page made, how many its service worker or the browser's cache answered, and",
        "the encoded bytes Chromium counted for those that went to the network:",
        "",
        "| page | first load | reload | offline reload |",
        "| --- | --- | --- | --- |",
    ]

    def seen(c: dict[str, int]) -> str:
        return (
            f"{c['requests']} requests ({c['by_worker']} by the service worker, {c['from_cache']} from the cache), "
            f"{kb(c['encoded'])}"
        )

    for r in results:
        lines.append(
            f"| {r['page']} | {seen(r['first']['cdp'])} | {seen(r['reload']['cdp'])} | {seen(r['offline']['cdp'])} |"
        )
    lines.append("")
    for r in results:
        lines.append(f"- {r['page']}, first load: " + ", ".join(f"`{p.split('?')[0]}`" for p in r["first"]["paths"]))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--serve", help="the mtg-ledger executable to serve (another checkout's); default this one")
    parser.add_argument("--no-report", action="store_true", help="print only; leave docs/performance.md alone")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with scratch_store("sqlite", prefix="page-weight") as store:
        server = Server.ledger(store, MTG_LEDGER_PUBLIC_READS="1")
        if args.serve:
            server.argv[0] = args.serve
            server.env = server_env(store, MTG_LEDGER_PUBLIC_READS="1")
        with server:
            addresses = set_up(server.base)
            proxy = Proxy(server.port)
            try:
                with sync_playwright() as playwright:
                    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                    results = [measure(browser, proxy, case, addresses[case.name]) for case in CASES]
                    browser.close()
            finally:
                proxy.stop()
    for r in results:
        print(json.dumps({k: v for k, v in r.items()}, indent=None))
    commit = _commit()
    command = "python bench/page_weight.py" + (f" --serve {args.serve}" if args.serve else "")
    text = report(results, command, commit)
    print(text)
    if not args.no_report:
        update_section(ROOT / "docs" / "performance.md", "page_weight", text, "## The pages on the wire (issue 41)")


def _commit() -> str:
    import subprocess

    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


if __name__ == "__main__":
    main()
