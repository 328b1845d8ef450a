"""One error shape for the whole API: ``{"error": {"code", "message", "details"}}``.

Service and engine errors keep their stable codes; DRF's own errors get codes of their own; and
anything unexpected becomes a JSON 500 (logged) rather than an HTML page."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response

from brag_event.core.errors import ServiceError, StaleHand
from brag_event.core.unavailable import (
    DATABASE_AWAY,
    DATABASE_UNAVAILABLE,
    RETRY_AFTER,
    database_away,
)
from brag_event.core.words import counted
from brag_event.engine import EngineError

from .parsers import BodyTooDeep, BodyTooLarge

log = logging.getLogger("brag_event.api")

TOO_LARGE = "The request is larger than the server accepts; nothing was saved."

_DRF_CODES: dict[type[exceptions.APIException], tuple[str, str]] = {
    exceptions.NotAuthenticated: ("not_authenticated", "Log in, or send a device token."),
    exceptions.AuthenticationFailed: ("authentication_failed", ""),
    exceptions.PermissionDenied: ("forbidden", "Your role may not do this."),
    exceptions.NotFound: ("not_found", "Not found, or not yours to see."),
    exceptions.MethodNotAllowed: ("method_not_allowed", ""),
    exceptions.NotAcceptable: ("not_acceptable", ""),
    exceptions.UnsupportedMediaType: ("unsupported_media_type", "Send JSON."),
    BodyTooLarge: ("request_too_large", TOO_LARGE),
    BodyTooDeep: ("json_too_deep", ""),
    exceptions.ParseError: ("malformed_request", "The request body is not valid JSON."),
    exceptions.Throttled: ("throttled", ""),
    exceptions.ValidationError: ("invalid_input", "Some fields are missing or wrong."),
}


def error_body(code: str, message: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "details": details or {}}}


def error_response(exc: BaseException) -> Response | None:
    """The API's answer for an exception, or ``None`` to let it propagate."""
    if isinstance(exc, StaleHand):
        # Read after the refused attempt was rolled back: the state another device left.
        from brag_event.hands.models import Hand

        from .resources.state import hand_view

        hand = Hand.objects.select_related("table").get(pk=exc.hand_id)
        stale = {**exc.details, "hand": hand_view(hand)}
        return Response(error_body(exc.code, exc.message, stale), status=exc.status)
    if isinstance(exc, ServiceError):
        response = Response(error_body(exc.code, exc.message, exc.details), status=exc.status)
        if exc.status == status.HTTP_503_SERVICE_UNAVAILABLE:  # ``Busy``: send it again
            response["Retry-After"] = "1"
        return response
    if isinstance(exc, EngineError):
        err = ServiceError.from_engine(exc)
        return Response(error_body(err.code, err.message, err.details), status=400)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    if isinstance(exc, exceptions.APIException):
        code, message = "error", ""
        for cls, (c, m) in _DRF_CODES.items():
            if isinstance(exc, cls):
                code, message = c, m
                break
        details: dict[str, Any] = {}
        if isinstance(exc, exceptions.PermissionDenied) and "CSRF" in str(exc.detail):
            code = "csrf_failed"
            message = "The security token (CSRF) is missing or old: reload the page and retry."
        if isinstance(exc, exceptions.ValidationError):
            details = {"fields": exc.detail}
        elif isinstance(exc, BodyTooLarge):
            details = {"limit_bytes": exc.limit}
        elif isinstance(exc, BodyTooDeep):
            details = {"max_depth": settings.BRAG_JSON_MAX_DEPTH}
        elif isinstance(exc, exceptions.Throttled):
            wait = getattr(exc, "wait", None)
            details = {"retry_after": wait}
            message = f"Too many attempts; try again in {counted(int(wait or 1), 'second')}."
        if not message:
            message = str(exc.detail)
        response = Response(error_body(code, message, details), status=exc.status_code)
        auth = getattr(exc, "auth_header", None)
        if auth:
            response["WWW-Authenticate"] = auth
        wait = getattr(exc, "wait", None)
        if isinstance(exc, exceptions.Throttled) and wait:
            response["Retry-After"] = str(int(wait))
        return response
    return None


def exception_handler(exc: BaseException, context: dict[str, Any]) -> Response:
    response = error_response(exc)
    if response is not None:
        return response
    if isinstance(exc, RequestDataTooBig):
        return Response(
            error_body(
                "request_too_large",
                TOO_LARGE,
                {"limit_bytes": settings.DATA_UPLOAD_MAX_MEMORY_SIZE},
            ),
            status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        )
    if database_away(exc):
        # The database went away (a restart, a failover) or gave up on this transaction (a
        # deadlock): nothing was saved, and the same request can simply be sent again.
        log.warning("database unavailable in %s: %s", context.get("view"), exc)
        response = Response(
            error_body(DATABASE_UNAVAILABLE, DATABASE_AWAY),
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
        )
        response["Retry-After"] = RETRY_AFTER
        return response
    log.exception("unexpected error in %s", context.get("view"))
    return Response(
        error_body("server_error", "Something went wrong on the server; nothing was saved."),
        status=status.HTTP_500_INTERNAL_SERVER_ERROR,
    )


def csrf_failure(request: Any, reason: str = "") -> Any:
    """A request under /api/ that failed Django's CSRF check: 403 in the error shape (the
    settings' CSRF_FAILURE_VIEW, ``organiser.csrf.csrf_failure``, answers the pages)."""
    from django.http import JsonResponse

    body = error_body(
        "csrf_failed",
        "The security token (CSRF) is missing or old: reload the page and retry.",
    )
    return JsonResponse(body, status=403)


def api_not_found(request: Any, *args: Any, **kwargs: Any) -> Any:
    """Every path under ``/api/`` that names nothing: 404 in the error shape, for any method,
    whatever ``DEBUG`` says (the last route of ``api/urls.py``)."""
    from django.http import JsonResponse

    body = error_body(
        "not_found",
        "No such address in the API (its paths end with a slash; see /api/docs/).",
        {"path": request.path[:200]},
    )
    return JsonResponse(body, status=404)
