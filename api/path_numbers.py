"""Whole numbers in a path are written as digits (issue 40, finding 6): FastAPI's ``int`` path
parameters are read in pydantic's lax mode, which took ``/rounds/1.0/tables/1.0/result`` as
round 1, table 1. A round or table is written ``1``; anything else is ``400 invalid_request``, as
``/rounds/abc`` is.

A router dependency (``Depends(whole_path_numbers)``) that checks each path parameter its route
declares as an ``int``, before the route's own reading of it."""

from __future__ import annotations

import re

from fastapi import Request
from fastapi.routing import APIRoute

from domain.errors import Code, InvalidCommand

_DIGITS = re.compile(r"[0-9]{1,18}")
"""ASCII digits only (``'²'.isdigit()`` is true in Python), within 64 bits."""


async def whole_path_numbers(request: Request) -> None:
    route = request.scope.get("route")
    if not isinstance(route, APIRoute):
        return
    for field in route.dependant.path_params:
        if field.field_info.annotation is not int:
            continue
        value = request.path_params.get(field.alias)
        if isinstance(value, str) and _DIGITS.fullmatch(value) is None:
            raise InvalidCommand(
                f"path.{field.alias}: a whole number written in digits, got {value[:40]!r}", Code.INVALID_REQUEST
            )
