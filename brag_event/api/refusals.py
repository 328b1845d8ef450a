"""Keeping the tablets' refused entries (``RefusedEntry``) without touching the API's rollback
semantics or the cost of an accepted action.

``records_refusals`` wraps a write view *outside* its ``idempotent`` wrapper. By the time it
sees a refusal, the refused request's transaction has been rolled back whole (and, with an
``Idempotency-Key``, the answer kept under the key in a transaction of its own), so the record is
written on its own. An accepted action only passes one comparison of its status code here; a
replayed refusal (``Idempotent-Replayed``) is not counted again; and the record never turns a
refusal into an error: if it cannot be written, the refusal is answered all the same."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

from django.db import DatabaseError, transaction
from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.response import Response

from brag_event.core.actors import Actor
from brag_event.core.errors import ServiceError
from brag_event.engine import EngineError
from brag_event.hands.models import Hand
from brag_event.integrity.services import refusal_record

from .idempotency import REPLAY_HEADER

log = logging.getLogger("brag_event.integrity")  # the monitor's log, as before

COUNTED_STATUSES = frozenset({400, 409})
"""Refusals of the entry itself (400) and of a stale screen (409); not who or where (401, 403,
404), nor a reused key (422), nor the server (5xx)."""


def _refusal(exc: BaseException) -> tuple[str, int, str] | None:
    """(code, status, message) of an exception that is a refusal of the entry."""
    if isinstance(exc, ServiceError):
        return exc.code, exc.status, exc.message
    if isinstance(exc, EngineError):
        return exc.code, 400, exc.message
    if isinstance(exc, exceptions.ValidationError):
        return "invalid_input", 400, "Some fields are missing or wrong."
    if isinstance(exc, exceptions.ParseError):
        return "malformed_request", 400, "The request body is not valid JSON."
    return None


def records_refusals(view: Callable[..., Response]) -> Callable[..., Response]:
    @functools.wraps(view)
    def wrapper(self: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        try:
            response = view(self, request, *args, **kwargs)
        except Exception as exc:
            refusal = _refusal(exc)
            if refusal is not None and refusal[1] in COUNTED_STATUSES:
                _record(request, kwargs, *refusal)
            raise
        if response.status_code in COUNTED_STATUSES and response.get(REPLAY_HEADER) != "true":
            error = (
                (response.data or {}).get("error", {}) if isinstance(response.data, dict) else {}
            )
            _record(
                request,
                kwargs,
                str(error.get("code", "refused")),
                response.status_code,
                str(error.get("message", "")),
            )
        return response

    return wrapper


def _record(request: Request, kwargs: dict[str, Any], code: str, status: int, message: str) -> None:
    hand_id = kwargs.get("hand_id")
    table_id = kwargs.get("table_id")
    try:
        if hand_id is not None:
            table_id = Hand.objects.filter(pk=hand_id).values_list("table_id", flat=True).first()
            if table_id is None:
                return
        if table_id is None:
            return
        body = request.data if isinstance(request.data, dict) else {}
        seq = body.get("expected_seq")
        action = body.get("action") or ("show" if "cards" in body else "")
        with transaction.atomic():
            refusal_record(
                table_id=table_id,
                hand_id=hand_id,
                seq=seq
                if isinstance(seq, int) and not isinstance(seq, bool) and 0 <= seq < 2**31
                else None,
                action=str(action) if hand_id is not None else "start",
                code=code,
                status=status,
                message=message,
                by=Actor.from_request(request),
            )
    except (DatabaseError, exceptions.ParseError) as err:  # the refusal is answered anyway
        log.warning("could not keep a refused entry (%s): %s", code, err)
