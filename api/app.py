"""The FastAPI application: ``create_app`` builds it from ``Settings``.

The lifespan builds the application service (``ledger.service.LedgerService``) once per
process; routes are thin: they parse, authorise and call the service. Every error is
problem+json (``api.errors``).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import logging
import os
import re
import signal
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from functools import cache
from importlib import resources
from importlib.metadata import PackageNotFoundError, version
from typing import Any, Literal

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.openapi.utils import get_openapi
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel

from api import schemas
from api.catalog_store import load_catalog
from api.compression import GzipWhenAsked
from api.deps import SettingsDep, service_of
from api.errors import install_error_handlers, problem_schema
from api.heap import freeze_startup_heap
from api.limits import StreamSlots
from api.query import CheckedRoute
from api.routes import (
    admin,
    audit,
    decklists,
    games,
    judging,
    match_reports,
    matches,
    server,
    table,
    tournament_player,
    tournaments,
    web,
    webhooks,
)
from api.settings import Settings, Store
from domain import events as ev
from domain.errors import Code, NotFound
from domain.events.schema import data_schema
from ledger.decklist_catalog import load_card_facts
from ledger.service import LedgerService, LedgerSettings, WebhookDelivery
from store.errors import STORE_UNREACHABLE

DISTRIBUTION = "mtg-ledger"
log = logging.getLogger("mtg_ledger")


def package_version() -> str:
    """Return the installed version of MTG Ledger, or ``0+unknown`` when not installed."""
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return "0+unknown"


class FailedGame(BaseModel):
    """A game the read model could not project, at its first failing record."""

    game_id: str
    version: int
    error: str


class ReadModelHealth(BaseModel):
    """The game list read model: its runner, and the games it marked as failed."""

    runner: str
    """``running``, ``elsewhere`` (another process keeps the read model) or ``stopped: <error>``."""
    failed_games: list[FailedGame]


class Health(BaseModel):
    """Body of ``GET /v1/health``: ``degraded`` when the read model failed on a record or stopped."""

    status: Literal["ok", "degraded"]
    store: Store
    version: str
    read_model: ReadModelHealth


def build_service(settings: Settings, *, create_tables: bool | None = None, serving: bool = True) -> LedgerService:
    """The application service for ``settings``. ``serving=False`` for a process that decides no
    actions on cached heads (the read-model process, the other CLI commands): it starts no head
    watch, whose reads and folds would only serve a serving worker's next action."""
    sqlite = settings.sqlite_path
    if sqlite is not None:
        sqlite.parent.mkdir(parents=True, exist_ok=True)
    knobs = LedgerSettings(
        snapshot_interval=settings.snapshot_interval,
        create_tables=settings.create_tables if create_tables is None else create_tables,
        webhooks=WebhookDelivery(deliver=settings.deliver_webhooks, allow_private=settings.webhook_allowlist),
        group_commit_window=settings.group_commit_window_ms / 1000 if settings.group_commit else None,
        check_heads=settings.checks_heads,
        watch_heads=serving and settings.watches_heads,
    )
    return LedgerService(settings.database_urls, knobs, catalog=load_catalog(settings.imported_cards_path))


def bootstrap_admin(settings: Settings, service: LedgerService) -> str | None:
    """With no ``MTG_LEDGER_ADMIN_TOKEN`` and no admin yet, make one; return it to print once."""
    if settings.admin_token is not None or service.has_admin():
        return None
    secret = service.create_token("bootstrap admin", "admin", None, None)
    return secret


STARTUP_RETRY_FIRST = 0.25
STARTUP_RETRY_MOST = 2.0
"""A worker that can't reach its store at start-up tries again after 0.25 s, doubling to 2 s."""


async def _open_store(settings: Settings) -> tuple[LedgerService, str | None]:
    """The worker's service, once its store answers (and the bootstrap admin token, if made).

    A worker started while its database is out of reach (a failover with no primary yet, a
    restart of PostgreSQL) waits for it, trying again with a back-off, instead of failing its
    start-up: uvicorn stops every worker when one fails to start, so a worker restarted during
    an outage took the whole server down (issue 40, finding 7). PostgreSQL only: a SQLite file
    on this host has no failover to wait for. It logs one warning line when it
    starts waiting and one when the store answers. Any other failure fails the start-up as
    before. SIGTERM or SIGINT while it waits ends the wait (uvicorn's own handler still runs)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()

    def wake() -> None:
        loop.call_soon_threadsafe(stop.set)

    chained = _chain_stop_signals(wake)
    delay, failures = STARTUP_RETRY_FIRST, 0
    try:
        while True:
            service: LedgerService | None = None
            try:
                service = await asyncio.to_thread(build_service, settings)
                generated = await asyncio.to_thread(bootstrap_admin, settings, service)
            except STORE_UNREACHABLE as err:
                if service is not None:
                    await asyncio.to_thread(service.close)
                if settings.store == "sqlite":
                    raise  # a file on this host: no failover to wait for (a bad path fails at once)
                failures += 1
                if failures == 1:
                    reason = (str(err).strip().splitlines() or [type(err).__name__])[0]
                    log.warning("store unavailable at start-up (%s): this worker waits for it", reason)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), delay)
                if stop.is_set():
                    raise RuntimeError("stopped while waiting for the store at start-up") from err
                delay = min(delay * 2, STARTUP_RETRY_MOST)
                continue
            if failures:
                log.info("store reachable after %d failed tries: this worker starts", failures)
            return service, generated
    finally:
        chained()


def _chain_stop_signals(on_stop: Callable[[], None]) -> Callable[[], None]:
    """Call ``on_stop`` on SIGTERM and SIGINT, then the handler that was there (uvicorn's);
    returns what puts the previous handlers back. Outside the main thread: nothing."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGTERM, signal.SIGINT)}

    def handler(signum: int, frame: Any) -> None:
        on_stop()
        before = previous[signal.Signals(signum)]
        if callable(before):
            before(signum, frame)
        elif before == signal.SIG_DFL:  # what the signal would have done: done now
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)

    for sig in previous:
        signal.signal(sig, handler)

    def restore() -> None:
        for sig, before in previous.items():
            signal.signal(sig, before)

    return restore


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    settings: Settings = app.state.settings
    # Each worker says which store it serves: a token made in another store is invalid here.
    log.info("MTG Ledger serving store: %s", settings.store_description)
    service, generated = await _open_store(settings)
    app.state.service = service
    app.state.catalog = service.catalog
    service.use_card_facts(load_card_facts(settings.imported_cards_path))  # decklists (issue 42)
    if generated is not None:
        # Printed once: only its hash is stored.
        print(f"MTG Ledger: generated the bootstrap admin token (shown once): {generated}", flush=True)
    if app.state.freeze_heap:
        frozen = freeze_startup_heap()
        log.info("start-up heap frozen: %d objects left out of full collections (api.heap)", frozen)
    try:
        yield
    finally:
        service.close()


def _document_event_data(components: dict[str, Any]) -> None:
    """One ``<Type>Data`` component per event type, generated from its class, and the event's
    ``data`` pointing at them by ``type`` (``x-data-schemas``): an event's data is open in the
    response schema because a redacted event (``redacted: true``) leaves hidden parts out."""
    mapping = {}
    for cls in ev.event_classes():
        components[f"{cls.TYPE}Data"] = data_schema(cls)
        mapping[cls.TYPE] = f"#/components/schemas/{cls.TYPE}Data"
    data = components["EventOut"]["properties"]["data"]
    data["description"] = (
        "The event's fields: the component named after its `type` (`x-data-schemas`); for readers "
        "who may not see hidden zones, `redacted: true` and the hidden parts left out or null."
    )
    data["x-data-schemas"] = mapping


def _openapi(app: FastAPI) -> dict[str, Any]:
    if app.openapi_schema:
        return app.openapi_schema
    spec = get_openapi(title=app.title, version=app.version, summary=app.summary, routes=app.routes)
    components = spec.setdefault("components", {}).setdefault("schemas", {})
    components.update(schemas.component_schemas())
    components["Problem"] = problem_schema()
    _document_event_data(components)
    spec["components"]["securitySchemes"] = {"bearer": {"type": "http", "scheme": "bearer"}}
    spec["security"] = [{"bearer": []}]
    app.openapi_schema = spec
    return spec


DOCS_ASSETS_PACKAGE = "fastapi_offline"
"""The PyPI package whose files the API docs pages load (Swagger UI, ReDoc; MIT)."""
DOCS_ASSETS = {
    "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
    "swagger-ui.css": "text/css; charset=utf-8",
    "redoc.standalone.js": "text/javascript; charset=utf-8",
    "favicon.png": "image/png",
}
"""The files under ``/docs/assets/``, each with its type; no other name is served."""


@cache
def _docs_asset(name: str) -> bytes:
    """A docs asset's bytes, read from the package once (about 2.8 MB for all four)."""
    return resources.files(DOCS_ASSETS_PACKAGE).joinpath("static", name).read_bytes()


DOCS_CSP = (
    "default-src 'self'; script-src {scripts}; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data: blob:; connect-src 'self'; worker-src 'self' blob:; font-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
"""What the API docs pages may load: nothing from another host; scripts only from this server
and the page's own inline script, named by its hash (``{scripts}``); styles inline too (both
bundles write their own); and no other site may frame them (issue 40, finding 5: the policy was
only ``img-src``/``connect-src``, so any site could frame the pages to dress a click-jacking)."""
_INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.DOTALL)


def _docs_page(page: HTMLResponse) -> HTMLResponse:
    """``page`` with its security headers: the policy above, ``X-Frame-Options: DENY`` for
    browsers without ``frame-ancestors``, ``nosniff``, and no referrer to other hosts."""
    body = bytes(page.body).decode("utf-8")
    hashes = [
        "'sha256-" + base64.b64encode(hashlib.sha256(s.encode("utf-8")).digest()).decode("ascii") + "'"
        for s in _INLINE_SCRIPT.findall(body)
    ]
    page.headers["Content-Security-Policy"] = DOCS_CSP.format(scripts=" ".join(["'self'", *hashes]))
    page.headers["X-Frame-Options"] = "DENY"
    page.headers["X-Content-Type-Options"] = "nosniff"
    page.headers["Referrer-Policy"] = "same-origin"
    return page


def _install_docs(app: FastAPI) -> None:
    """``/docs`` (Swagger UI) and ``/redoc`` with their scripts, styles and icon served from the
    installed ``fastapi_offline`` package at ``/docs/assets/``, following FastAPI's recipe for
    self-hosted docs assets: FastAPI's own pages load them from a CDN, so offline (a venue's LAN)
    they were blank. Nothing on either page names another host (``validatorUrl`` off: Swagger
    UI would ask an online validator; ReDoc without Google Fonts)."""
    try:
        assets_version = version(DOCS_ASSETS_PACKAGE)
    except PackageNotFoundError:  # pragma: no cover - a dependency of the package
        assets_version = "0"

    def asset(request: Request, name: str) -> str:
        # ``?v=``: a new package version is a new address, so a browser never keeps old files.
        return f"{root_path(request)}/docs/assets/{name}?v={assets_version}"

    def root_path(request: Request) -> str:
        # Behind a proxy that serves the app under a prefix, as FastAPI's own pages do.
        return str(request.scope.get("root_path", "")).rstrip("/")

    def openapi_url(request: Request) -> str:
        return root_path(request) + (app.openapi_url or "/openapi.json")

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui(request: Request) -> HTMLResponse:
        page = get_swagger_ui_html(
            openapi_url=openapi_url(request),
            title=f"{app.title} - Swagger UI",
            swagger_js_url=asset(request, "swagger-ui-bundle.js"),
            swagger_css_url=asset(request, "swagger-ui.css"),
            swagger_favicon_url=asset(request, "favicon.png"),
            swagger_ui_parameters={"validatorUrl": None},
        )
        return _docs_page(page)

    @app.get("/redoc", include_in_schema=False)
    async def redoc(request: Request) -> HTMLResponse:
        page = get_redoc_html(
            openapi_url=openapi_url(request),
            title=f"{app.title} - ReDoc",
            redoc_js_url=asset(request, "redoc.standalone.js"),
            redoc_favicon_url=asset(request, "favicon.png"),
            with_google_fonts=False,
        )
        # ReDoc's bundle draws its "API docs by Redocly" logo from cdn.redoc.ly: images and
        # fetches from this server only, so the page never reaches for another host.
        return _docs_page(page)

    @app.get("/docs/assets/{name}", include_in_schema=False)
    def docs_asset(name: str) -> Response:
        media_type = DOCS_ASSETS.get(name)
        if media_type is None:
            raise NotFound(f"no docs asset {name!r}; known: {sorted(DOCS_ASSETS)}", Code.NOT_FOUND)
        headers = {"Cache-Control": "public, max-age=86400", "X-Content-Type-Options": "nosniff"}
        return Response(_docs_asset(name), media_type=media_type, headers=headers)


def create_served_app() -> FastAPI:
    """The application as ``mtg-ledger serve`` runs it in each worker: ``create_app`` with the
    start-up heap frozen once it has started (``api.heap``)."""
    return create_app(freeze_heap=True)


def create_app(settings: Settings | None = None, *, freeze_heap: bool = False) -> FastAPI:
    """Build the application; settings default to those read from the environment.
    ``freeze_heap``: freeze the start-up heap after start-up (``api.heap``; serving processes only)."""
    app = FastAPI(
        title="MTG Ledger",
        summary="Audited, event-sourced game-state server for Magic: The Gathering",
        version=package_version(),
        lifespan=lifespan,
        docs_url=None,  # served offline by ``_install_docs``
        redoc_url=None,
    )
    app.state.settings = settings if settings is not None else Settings()
    app.state.freeze_heap = freeze_heap
    app.state.streams = StreamSlots(app.state.settings.max_streams_per_token, app.state.settings.max_streams)
    install_error_handlers(app)
    _install_docs(app)

    # Every API route refuses the query parameters it doesn't take (``api.query``).
    app.router.route_class = CheckedRoute

    @app.get("/v1/health", tags=["meta"])
    def health(settings: SettingsDep, request: Request) -> Health:
        """Say that the server is up, which store it uses, its version, and whether the game list
        read model keeps up (``degraded`` naming the failing records otherwise; no auth)."""
        service = service_of(request)
        runner, failures = service.read_model_status()
        failed = [FailedGame(**f.to_json()) for f in failures]
        return Health(
            status="degraded" if failed or runner.startswith("stopped") else "ok",
            store=settings.store,
            version=package_version(),
            read_model=ReadModelHealth(runner=runner, failed_games=failed),
        )

    # Routes are matched in the order they are included, each a regular expression tried in
    # turn: the games' (every action) come first. No two routers' paths overlap, so the order
    # changes nothing else (about 87,000 instructions per action; docs/performance.md).
    app.include_router(games.router)
    app.include_router(admin.router)
    app.include_router(audit.router)
    app.include_router(table.router)
    app.include_router(judging.router)
    app.include_router(matches.router)
    app.include_router(webhooks.router)
    app.include_router(tournaments.router)
    app.include_router(match_reports.router)
    app.include_router(decklists.router)  # issue 42
    app.include_router(tournament_player.router)
    app.include_router(server.router)  # no token: GET /v1/server
    app.include_router(web.router)  # the page reads its own parameters (``?version=V``)
    web.prepare()  # the page's bundles, built once per process: a module they can't take stops here
    app.openapi = lambda: _openapi(app)  # type: ignore[method-assign]
    # Answers of 1 KB or more go gzip-compressed to a client that asks (the page's JSON on a
    # venue's Wi-Fi: a game's state is a fifth of its size; api.compression). The page's own
    # files are compressed once at start-up (api.web_assets), the event stream never.
    app.add_middleware(GzipWhenAsked)
    return app
