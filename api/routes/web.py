"""The web page for judges and replay viewers: the games list at ``/``, a game at
``/games/{id}`` (``?version=V`` opens it at a version), a tournament's pages at
``/tournaments/{tid}`` (the scorekeeper's), ``.../public`` (players') and ``.../floor`` (judges'),
and the judges' page of open calls at ``/judges`` (``?event=`` one event's).
One static page; it reads the API.

The page and its files are hand-written (``api/static``: ``index.html``, ``app.css`` and the
page's ES modules, ``main.js`` and the ones it imports) and load nothing from elsewhere, so a
strict Content-Security-Policy holds: scripts and styles from this origin only, no inline script,
no framing. Modules are served as ``text/javascript``: browsers refuse a module of another type.
The bearer token the page uses never appears in a URL (``#token=`` is moved into
``sessionStorage`` and the fragment is never sent), and ``Referrer-Policy: no-referrer`` keeps
addresses out of other sites' logs. See ``docs/web.md``.
"""

from __future__ import annotations

from importlib import resources

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response

from domain.errors import Code, NotFound

router = APIRouter(include_in_schema=False)
STATIC = resources.files("api").joinpath("static")
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
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
PAGE_HEADERS = {
    "Content-Security-Policy": CSP,
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    # Small files that change with the server: always revalidate, never serve a stale script.
    "Cache-Control": "no-cache",
}


def _page() -> HTMLResponse:
    return HTMLResponse(STATIC.joinpath("index.html").read_text(encoding="utf-8"), headers=PAGE_HEADERS)


MAIN_ENTRY = '<script type="module" src="/static/main.js"></script>'
JUDGES_ENTRY = (
    '<link rel="stylesheet" href="/static/judges.css">\n<script type="module" src="/static/judges.js"></script>'
)
"""The judges' page is ``index.html`` (its top bar, token form and error banner, one copy of
them) with ``judges.js`` as its module instead of ``main.js``: the page's views stay hidden and
``judges.js`` draws its own."""


def _judges_page() -> HTMLResponse:
    html = STATIC.joinpath("index.html").read_text(encoding="utf-8")
    if MAIN_ENTRY not in html:  # index.html changed its entry: tests/browser/test_judges_page.py says so
        raise RuntimeError(f"index.html no longer loads its module as {MAIN_ENTRY!r}")
    return HTMLResponse(html.replace(MAIN_ENTRY, JUDGES_ENTRY), headers=PAGE_HEADERS)


@router.get("/")
def index() -> HTMLResponse:
    """The games list."""
    return _page()


@router.get("/games/{game_id}")
def game_page(game_id: str) -> HTMLResponse:
    """One game; the page reads ``game_id`` (and ``?version=``) from its own address."""
    return _page()


@router.get("/tournaments/{tid}")
def tournament_page(tid: str) -> HTMLResponse:
    """The scorekeeper's event page; the page reads ``tid`` from its own address."""
    return _page()


@router.get("/tournaments/{tid}/public")
def tournament_public_page(tid: str) -> HTMLResponse:
    """The players' page of an event: pairings, find my table, standings, the clock."""
    return _page()


@router.get("/tournaments/{tid}/floor")
def tournament_floor_page(tid: str) -> HTMLResponse:
    """The judges' floor view of an event: tables by status, a player's penalties."""
    return _page()


@router.get("/judges")
def judges_page() -> HTMLResponse:
    """The judges' page: the open calls of every table, newest first (``?event=``: one event's)."""
    return _judges_page()


@router.get("/static/{name}")
def static_file(name: str) -> Response:
    """A file of the page, by plain name (no directories, no hidden files)."""
    suffix = name[name.rfind(".") :] if "." in name else ""
    if "/" in name or "\\" in name or name.startswith(".") or suffix not in TYPES:
        raise NotFound(f"no static file {name!r}", Code.NOT_FOUND)
    target = STATIC.joinpath(name)
    if not target.is_file():
        raise NotFound(f"no static file {name!r}", Code.NOT_FOUND)
    return Response(target.read_bytes(), media_type=TYPES[suffix], headers=PAGE_HEADERS)
