"""Webhook subscriptions: subscribe, list, delete, rotate the secret, and delivery status
(docs/judges.md, docs/api.md). Every endpoint is the admin's."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Depends, Request, Response
from pydantic import Field

from api.auth import require_async
from api.deps import json_object, plain_path_parameters, raw_body, service_of
from api.query import CheckedRoute
from api.routes.games import ERRORS
from api.routes.judging import _parse
from api.threads import in_thread
from domain.commands.bodies.fields import Body, Text

router = APIRouter(
    prefix="/v1/webhooks", tags=["webhooks"], dependencies=[Depends(plain_path_parameters)], route_class=CheckedRoute
)


class WebhookBody(Body):
    url: Text = Field(description="where to POST (http or https, to a public address)")
    events: list[
        Literal["game_ended", "match_result", "judge_call_opened", "penalty_given", "round_paired", "standings_updated"]
    ] = Field(min_length=1)


@router.post("", status_code=201, responses=ERRORS, summary="Subscribe a webhook (admin); the secret is shown once")
async def subscribe(request: Request) -> dict[str, Any]:
    service = service_of(request)
    await require_async(request, "admin")
    body = _parse(WebhookBody, json_object(await raw_body(request)), "webhook")
    return await in_thread(service.subscribe_webhook, body.url, list(body.events))


@router.get("", responses=ERRORS, summary="The webhook subscriptions, without their secrets (admin)")
async def subscriptions(request: Request) -> dict[str, Any]:
    service = service_of(request)
    await require_async(request, "admin")
    return {"webhooks": await in_thread(service.list_webhooks)}


@router.delete("/{subscription}", status_code=204, responses=ERRORS, summary="Delete a webhook subscription (admin)")
async def delete(subscription: str, request: Request) -> Response:
    service = service_of(request)
    await require_async(request, "admin")
    await in_thread(service.delete_webhook, subscription)
    return Response(status_code=204)


@router.post("/{subscription}/secret", responses=ERRORS, summary="Rotate a subscription's secret (admin); shown once")
async def rotate_secret(subscription: str, request: Request) -> dict[str, Any]:
    service = service_of(request)
    await require_async(request, "admin")
    return await in_thread(service.rotate_webhook_secret, subscription)


@router.get("/{subscription}/deliveries", responses=ERRORS, summary="Delivery status of a subscription (admin)")
async def deliveries(subscription: str, request: Request) -> dict[str, Any]:
    service = service_of(request)
    await require_async(request, "admin")
    found = await in_thread(service.webhook_deliveries, subscription)
    return {"subscription": subscription, "deliveries": found}
