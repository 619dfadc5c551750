"""The FastAPI application: ``create_app`` builds it from ``Settings``."""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.metadata import PackageNotFoundError, version
from typing import Annotated, Literal

from fastapi import Depends, FastAPI, Request
from pydantic import BaseModel

from api.settings import Settings, Store

DISTRIBUTION = "mtg-ledger"
"""The installed distribution whose version the server reports."""


def package_version() -> str:
    """Return the installed version of MTG Ledger, or ``0+unknown`` when not installed."""
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return "0+unknown"


class Health(BaseModel):
    """Body of ``GET /v1/health``."""

    status: Literal["ok"]
    """Always ``ok`` when the server answers."""
    store: Store
    """The kind of event store the server runs on."""
    version: str
    """The server's package version."""


def get_settings(request: Request) -> Settings:
    """Return the settings the application was created with."""
    settings: Settings = request.app.state.settings
    return settings


SettingsDep = Annotated[Settings, Depends(get_settings)]


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Start-up and shut-down: the application service will be built and closed here."""
    yield


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the application; settings default to those read from the environment."""
    app = FastAPI(
        title="MTG Ledger",
        summary="Audited, event-sourced game-state server for Magic: The Gathering",
        version=package_version(),
        lifespan=lifespan,
    )
    app.state.settings = settings if settings is not None else Settings()

    @app.get("/v1/health", tags=["meta"])
    def health(settings: SettingsDep) -> Health:
        """Say that the server is up, which store it uses, and its version (no auth)."""
        return Health(status="ok", store=settings.store, version=package_version())

    return app
