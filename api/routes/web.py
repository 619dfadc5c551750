"""The web page for judges and replay viewers: the games list at ``/``, a game at
``/games/{id}`` (``?version=V`` opens it at a version), a tournament's pages at
``/tournaments/{tid}`` (the scorekeeper's), ``.../public`` (players'), ``.../me`` (a player's own,
where their event link lands) and ``.../floor`` (judges'),
and the judges' page of open calls at ``/judges`` (``?event=`` one event's).
One static page; it reads the API.

The page and its files are hand-written (``api/static``: ``index.html``, the style sheets and the
page's ES modules, ``main.js`` and the ones it imports) and load nothing from elsewhere, so a
strict Content-Security-Policy holds: scripts and styles from this origin only, no inline script,
no framing. Modules are served as ``text/javascript``: browsers refuse a module of another type.
The bearer token the page uses never appears in a URL (``#token=`` is moved into
``sessionStorage`` and the fragment is never sent), and ``Referrer-Policy: no-referrer`` keeps
addresses out of other sites' logs. See ``docs/web.md``.

Small on the wire and offline (docs/web.md, How the page is built): a page loads one script and
one style sheet, each joined from the modules when the server starts and named by its content
(``api.web_assets``), so they are cached for a year (``immutable``) and sent gzip-compressed.
Everything else here (the pages, ``/sw.js``, the manifest, a module by its own name) carries an
``ETag`` and ``Cache-Control: no-cache``: a browser asks again and gets ``304 Not Modified``
while nothing changed. ``/sw.js``, the service worker, keeps the page and its files for
offline use; ``/manifest.webmanifest`` lets a phone add the page to its home screen.
"""

from __future__ import annotations

import re
from functools import cache

from fastapi import APIRouter, Request
from fastapi.responses import Response

from api.web_assets import STATIC, VERSIONED, Asset, manifest, page_set, service_worker
from domain.errors import Code, InvalidCommand, NotFound

router = APIRouter(include_in_schema=False)
TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".png": "image/png",
}
CSP = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data: blob:",
        "connect-src 'self'",
        "manifest-src 'self'",
        "worker-src 'self'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
}
REVALIDATE = "no-cache"
"""Files whose address stays when they change: kept, but asked again each time (an ETag makes
the answer ``304`` and a few hundred bytes while nothing changed)."""
IMMUTABLE = "public, max-age=31536000, immutable"
"""Content-named files: the address changes with the bytes, so a browser keeps them a year."""
PAGE_HEADERS = {**SECURITY_HEADERS, "Cache-Control": REVALIDATE}


def prepare() -> None:
    """Build the page's bundles now (once per process, about 0.1 s), so that a module the bundler
    can't take stops the server at start-up with its name instead of failing a page later."""
    page_set()
    service_worker()


def _accepts_gzip(request: Request) -> bool:
    return "gzip" in request.headers.get("accept-encoding", "").lower()


def _not_modified(request: Request, asset: Asset) -> bool:
    """Whether ``If-None-Match`` names this file's ETag (weak or strong, or ``*``)."""
    header = request.headers.get("if-none-match")
    if not header:
        return False
    tags = {t.strip().removeprefix("W/") for t in header.split(",")}
    return "*" in tags or asset.etag in tags


def send(request: Request, asset: Asset, cache_control: str, extra: dict[str, str] | None = None) -> Response:
    """``asset`` as this request may take it: ``304`` when the browser has it, its gzip form when
    the browser takes gzip (compressed once, at start-up; GZipMiddleware leaves an encoded answer
    alone), else its bytes."""
    headers = {**SECURITY_HEADERS, "Cache-Control": cache_control, "ETag": asset.etag, **(extra or {})}
    if asset.gzipped is not None:
        headers["Vary"] = "Accept-Encoding"
    if _not_modified(request, asset):
        return Response(status_code=304, headers=headers)
    if asset.gzipped is not None and _accepts_gzip(request):
        headers["Content-Encoding"] = "gzip"
        return Response(asset.gzipped, media_type=asset.media_type, headers=headers)
    return Response(asset.body, media_type=asset.media_type, headers=headers)


def _page(request: Request, kind: str = "main") -> Response:
    return send(request, page_set().shells[kind], REVALIDATE)


@router.get("/")
def index(request: Request) -> Response:
    """The games list."""
    return _page(request)


@router.get("/games/{game_id}")
def game_page(game_id: str, request: Request) -> Response:
    """One game; the page reads ``game_id`` (and ``?version=``) from its own address."""
    return _page(request)


@router.get("/tournaments")
def tournaments_page(request: Request) -> Response:
    """The scorekeeper's events: the list, and the form that creates an event."""
    return _page(request)


@router.get("/tournaments/{tid}")
def tournament_page(tid: str, request: Request) -> Response:
    """The scorekeeper's event page; the page reads ``tid`` from its own address."""
    return _page(request)


@router.get("/tournaments/{tid}/public")
def tournament_public_page(tid: str, request: Request) -> Response:
    """The players' page of an event: pairings, find my table, standings, the clock."""
    return _page(request)


@router.get("/tournaments/{tid}/me")
def tournament_player_page(tid: str, request: Request) -> Response:
    """A player's own page of an event, where their event link lands: my match now."""
    return _page(request)


@router.get("/tournaments/{tid}/floor")
def tournament_floor_page(tid: str, request: Request) -> Response:
    """The judges' floor view of an event: tables by status, a player's penalties."""
    return _page(request)


@router.get("/judges")
def judges_page(request: Request) -> Response:
    """The judges' page: the open calls of every table, newest first (``?event=``: one event's).
    ``index.html`` (its top bar, token form and error banner) with ``judges.js`` as its module."""
    return _page(request, "judges")


@router.get("/sw.js")
def service_worker_script(request: Request) -> Response:
    """The service worker (``api/static/sw.js`` with this server's file list), from the root so
    it may serve every page; asked again by the browser at each visit."""
    return send(request, service_worker(), REVALIDATE, {"Service-Worker-Allowed": "/"})


START = re.compile(r"/(?:games/[^/?#\s]{1,200}|tournaments/[^/?#\s]{1,200}(?:/public|/floor|/me)?|judges)?")
"""The pages a home-screen icon may open (a path of this server, nothing else)."""


@router.get("/manifest.webmanifest")
def web_manifest(request: Request, start: str = "/") -> Response:
    """The web app manifest; ``?start=/games/G1``: the page the home-screen icon opens (the page
    asks for its own path)."""
    if not START.fullmatch(start):
        detail = f"start must be a page of this server (/games/ID, /tournaments/ID…), not {start!r}"
        raise InvalidCommand(detail, Code.INVALID_REQUEST)
    return send(request, manifest(start), REVALIDATE)


@cache
def _plain(name: str) -> Asset | None:
    """A file of ``api/static`` by its own name, read once."""
    target = STATIC.joinpath(name)
    if not target.is_file():
        return None
    return Asset.of(target.read_bytes(), TYPES[name[name.rfind(".") :]])


@router.get("/static/{name}")
def static_file(name: str, request: Request) -> Response:
    """A file of the page: a content-named bundle or icon (cached for a year), or a file by its
    plain name (no directories, no hidden files; revalidated)."""
    if VERSIONED.fullmatch(name):
        asset = page_set().versioned.get(name)
        if asset is None:  # an older or newer server's name: the page asking must reload
            raise NotFound(f"no static file {name!r} (this server has other versions)", Code.NOT_FOUND)
        return send(request, asset, IMMUTABLE)
    suffix = name[name.rfind(".") :] if "." in name else ""
    if "/" in name or "\\" in name or name.startswith(".") or suffix not in TYPES:
        raise NotFound(f"no static file {name!r}", Code.NOT_FOUND)
    plain = _plain(name)
    if plain is None:
        raise NotFound(f"no static file {name!r}", Code.NOT_FOUND)
    return send(request, plain, REVALIDATE)
