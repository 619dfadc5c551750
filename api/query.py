"""Query parameters: a parameter the endpoint doesn't take is ``400 unknown_parameter``; a path
query value holding a control character is ``400 invalid_character``.

A misspelled parameter (``?verison=3``) would otherwise be ignored and the caller would get the
live state instead of the one asked for. The endpoint's parameters are the ones FastAPI knows
for its route (its own and its dependencies'), so the list can't drift from the signature.
The web page's routes are left out: the page reads its own parameters (``?version=V``).
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute

from domain.commands.bodies.text import check_string
from domain.errors import Code, InvalidCommand


def declared_parameters(dependant: Dependant) -> frozenset[str]:
    """The query parameters an endpoint takes, its dependencies' included (a walk over a handful
    of dependants: cheaper than a cache that must not outlive its app)."""
    names: set[str] = set()
    todo = [dependant]
    while todo:
        current = todo.pop()
        names.update(param.alias for param in current.query_params)
        todo.extend(current.dependencies)
    return frozenset(names)


class CheckedRoute(APIRoute):
    """An API route that refuses a query parameter it doesn't take (``refuse_unknown_parameters``)
    before anything else of the request is read: the route class of every API router. A route
    class, not a dependency: each FastAPI dependency costs every request its solving, about
    64,000 instructions, and most requests have no query at all (docs/performance.md)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def checked(request: Request) -> Response:
            if request.scope.get("query_string"):
                refuse_unknown_parameters(request)
            return await handler(request)

        return checked


def refuse_unknown_parameters(request: Request) -> None:
    """Refuse a query parameter the request's route doesn't take, or a value it must not hold."""
    route = request.scope.get("route")
    if not isinstance(route, APIRoute):
        return
    allowed = declared_parameters(route.dependant)
    unknown = sorted(set(request.query_params) - allowed)
    if unknown:
        takes = f"it takes {sorted(allowed)}" if allowed else "it takes none"
        raise InvalidCommand(
            f"unknown query parameter {unknown[0]!r} on {request.url.path}; {takes}", Code.UNKNOWN_PARAMETER
        )
    # Query values reach the store (?event=a%00b was a 500 on PostgreSQL): the same text rules
    # as bodies (no control characters, bounded length). Path ids need no such check: a game id
    # is matched against its pattern before any read (unknown_game), the others never reach it.
    for name, value in request.query_params.multi_items():
        check_string(value, name, 1_000)
