"""Webhook subscriptions: subscribe, list, delete, rotate the secret, and delivery status
(docs/judges.md, docs/api.md). Every endpoint is the admin's.

The edge's one style (issue 39): the caller by role is a dependency (``api.deps.Admin``), the
body is read with ``api.deps.read_body`` into the model beside the route that takes it, and
every route names its answer (``api.schemas_matches``)."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Depends, Request, Response
from pydantic import Field

from api.deps import Admin, plain_path_parameters, read_body, service_of
from api.query import CheckedRoute
from api.routes.games import ERRORS
from api.schemas import model_body_doc
from api.schemas_matches import NO_CONTENT, DeliveryList, SecretRotated, WebhookCreated, WebhookList
from api.threads import in_thread
from domain.commands.bodies.fields import Body, Text

router = APIRouter(
    prefix="/v1/webhooks", tags=["webhooks"], dependencies=[Depends(plain_path_parameters)], route_class=CheckedRoute
)

WebhookEvent = Literal[
    "game_ended", "match_result", "judge_call_opened", "penalty_given", "round_paired", "standings_updated"
]
"""The events a subscription may ask for (``ledger.webhooks.WEBHOOK_EVENTS``, checked by a test)."""


class WebhookBody(Body):
    url: Text = Field(description="where to POST (http or https, to a public address)")
    events: list[WebhookEvent] = Field(min_length=1)


@router.post(
    "",
    status_code=201,
    response_model=WebhookCreated,
    openapi_extra=model_body_doc(WebhookBody),
    responses=ERRORS,
    summary="Subscribe a webhook (admin); the secret is shown once",
)
async def subscribe(request: Request, _: Admin) -> dict[str, Any]:
    body = await read_body(request, WebhookBody, "webhook")
    return await in_thread(service_of(request).subscribe_webhook, body.url, list(body.events))


@router.get(
    "", response_model=WebhookList, responses=ERRORS, summary="The webhook subscriptions, without their secrets (admin)"
)
async def subscriptions(request: Request, _: Admin) -> dict[str, Any]:
    return {"webhooks": await in_thread(service_of(request).list_webhooks)}


@router.delete(
    "/{subscription}",
    status_code=204,
    response_model=None,
    response_class=Response,
    responses={**ERRORS, **NO_CONTENT},
    summary="Delete a webhook subscription (admin)",
)
async def delete(subscription: str, request: Request, _: Admin) -> Response:
    await in_thread(service_of(request).delete_webhook, subscription)
    return Response(status_code=204)


@router.post(
    "/{subscription}/secret",
    response_model=SecretRotated,
    responses=ERRORS,
    summary="Rotate a subscription's secret (admin); shown once",
)
async def rotate_secret(subscription: str, request: Request, _: Admin) -> dict[str, Any]:
    return await in_thread(service_of(request).rotate_webhook_secret, subscription)


@router.get(
    "/{subscription}/deliveries",
    response_model=DeliveryList,
    responses=ERRORS,
    summary="Delivery status of a subscription (admin)",
)
async def deliveries(subscription: str, request: Request, _: Admin) -> dict[str, Any]:
    found = await in_thread(service_of(request).webhook_deliveries, subscription)
    return {"subscription": subscription, "deliveries": found}
