"""``Idempotency-Key`` on every write: a retry with the same key gets the first response back
(marked ``Idempotent-Replayed: true``) and changes nothing; the same key with a different body is
refused. The record is written in the same transaction as the change it describes."""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction
from rest_framework.request import Request
from rest_framework.response import Response

from .errors import error_body, error_response
from .models import IdempotencyRecord

HEADER = "Idempotency-Key"
REPLAY_HEADER = "Idempotent-Replayed"


def _fingerprint(request: Request) -> str:
    try:
        body = json.dumps(request.data, sort_keys=True, default=str)
    except Exception:  # pragma: no cover - request.data already parsed as JSON
        body = repr(request.data)
    raw = f"{request.method} {request.path}\n{body}"
    return hashlib.sha256(raw.encode()).hexdigest()


def idempotent(view: Callable[..., Response] | None = None, *, redact: tuple[str, ...] = ()) -> Any:
    """Make a write view idempotent. Fields named in ``redact`` (secrets shown only once) are not
    stored: a replay answers with them set to ``null``."""
    if view is None:
        return functools.partial(idempotent, redact=redact)
    return _idempotent(view, redact)


def _stored(data: Any, redact: tuple[str, ...]) -> Any:
    if redact and isinstance(data, dict):
        return {k: (None if k in redact else v) for k, v in data.items()}
    return data


def _idempotent(view: Callable[..., Response], redact: tuple[str, ...]) -> Callable[..., Response]:
    @functools.wraps(view)
    def wrapper(self: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = request.headers.get(HEADER)
        if key is None:
            return view(self, request, *args, **kwargs)
        key = key.strip()
        if not key or len(key) > 200 or not key.isprintable():
            return Response(
                error_body(
                    "invalid_idempotency_key",
                    "An Idempotency-Key is 1 to 200 printable characters.",
                ),
                status=400,
            )
        fingerprint = _fingerprint(request)
        user: Any = request.user
        with transaction.atomic():
            try:
                with transaction.atomic():
                    record = IdempotencyRecord.objects.create(
                        user=user,
                        key=key,
                        method=request.method or "",
                        path=request.path[:300],
                        fingerprint=fingerprint,
                    )
            except IntegrityError:
                first = IdempotencyRecord.objects.get(user=user, key=key)
                if first.fingerprint != fingerprint:
                    return Response(
                        error_body(
                            "idempotency_key_reused",
                            "This Idempotency-Key was already used for a different request.",
                            {"first": {"method": first.method, "path": first.path}},
                        ),
                        status=422,
                    )
                replay = Response(first.response, status=first.status_code)
                replay[REPLAY_HEADER] = "true"
                return replay
            try:
                response = view(self, request, *args, **kwargs)
            except Exception as exc:
                answer = error_response(exc)
                if answer is None:
                    raise  # unexpected: nothing is kept, a retry runs again
                response = answer
            record.status_code = response.status_code
            record.response = _stored(response.data, redact)
            record.save(update_fields=["status_code", "response"])
        return response

    return wrapper
