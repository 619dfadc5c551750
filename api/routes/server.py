"""``GET /v1/server``: what a client needs to know about this server before it has a token.

The page builds the links it turns into QR codes (a player's seat, a scorekeeper's desk) on the
server's public base URL (``MTG_LEDGER_PUBLIC_URL``), not on the address the page was opened at:
a scorekeeper who opened it on the server's own machine (``http://127.0.0.1:8000``) would
otherwise hand out links that every phone at the venue fails to open. No token is needed: the
URL is what the server already tells every device that reaches it.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel

from api.deps import SettingsDep
from api.query import CheckedRoute

router = APIRouter(prefix="/v1", tags=["meta"], route_class=CheckedRoute)


class ServerInfo(BaseModel):
    """Body of ``GET /v1/server``."""

    public_url: str | None
    """``MTG_LEDGER_PUBLIC_URL`` without a trailing ``/`` (``http://192.168.1.20:8000``), or
    ``null`` when unset: then build links on the address the page was opened at."""
    version: str
    """The server's version (as ``GET /v1/health`` says it)."""


@router.get("/server", summary="The server's public base URL and version (no token needed)")
async def server_info(settings: SettingsDep, request: Request) -> ServerInfo:
    """Say where other devices reach this server (``public_url``) and which version it runs."""
    version: str = request.app.version  # ``create_app`` sets it to the installed package's version
    return ServerInfo(public_url=settings.public_url, version=version)
