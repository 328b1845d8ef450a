"""``Idempotency-Key`` on every write: a retry with the same key gets the first response back
(marked ``Idempotent-Replayed: true``) and changes nothing; the same key with a different body is
refused. The record is written in the same transaction as the change it describes."""

from __future__ import annotations

import functools
import hashlib
import hmac
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import IntegrityError
from rest_framework.request import Request
from rest_framework.response import Response

from brag_event.core.errors import Busy
from brag_event.core.transactions import RETRIES, backoff, owned_transaction, transient

from .errors import error_body, error_response
from .models import KEY_UNIQUE, IdempotencyRecord

HEADER = "Idempotency-Key"
REPLAY_HEADER = "Idempotent-Replayed"


def _fingerprint(request: Request, secret: bool = False) -> str:
    """The request as sent: method, path and the body's bytes (a retry sends the same bytes).
    A body with a secret in it (a password) is fingerprinted with a key (HMAC with the site's
    SECRET_KEY), so that the stored fingerprint cannot be used to guess it."""
    head = f"{request.method} {request.path}\n".encode()
    if secret:
        keyed = hmac.new(settings.SECRET_KEY.encode(), head, hashlib.sha256)
        keyed.update(request._request.body)
        return keyed.hexdigest()
    digest = hashlib.sha256(head)
    digest.update(request._request.body)
    return digest.hexdigest()


def idempotent(
    view: Callable[..., Response] | None = None,
    *,
    redact: tuple[str, ...] = (),
    secret: bool = False,
) -> Any:
    """Make a write view idempotent. Fields named in ``redact`` (secrets shown only once) are not
    stored: a replay answers with them set to ``null``. ``secret``: the request's body may hold
    a password, fingerprinted with a key (``_fingerprint``)."""
    if view is None:
        return functools.partial(idempotent, redact=redact, secret=secret)
    return _idempotent(view, redact, secret)


def _stored(data: Any, redact: tuple[str, ...]) -> Any:
    if redact and isinstance(data, dict):
        return {k: (None if k in redact else v) for k, v in data.items()}
    return data


class _Taken(Exception):
    """The key was already used: everything this attempt did is rolled back."""


def _idempotent(
    view: Callable[..., Response], redact: tuple[str, ...], secret: bool = False
) -> Callable[..., Response]:
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
        fingerprint = _fingerprint(request, secret)
        user: Any = request.user
        # Optimistic: run the write, then claim the key with the answer in the same transaction.
        # A retry (or a twin racing it) fails the claim on the unique (user, key) constraint —
        # waiting for the first to commit if it is still running — and everything it did is
        # rolled back; the first answer is replayed.
        record = {
            "user_id": user.pk,
            "key": key,
            "method": request.method or "",
            "path": request.path[:300],
            "fingerprint": fingerprint,
        }
        attempt = 0
        while True:
            try:
                with owned_transaction():
                    response = view(self, request, *args, **kwargs)
                    _claim(record, response, redact)
                return response
            except _Taken:
                return _replay(user, key, fingerprint)
            except Exception as exc:
                # The attempt was rolled back whole. One that lost a race to another
                # transaction (a deadlock PostgreSQL broke) runs again, a few times. A refusal
                # is kept under the key too, so that a retry gets the same answer; an
                # unexpected or passing error (5xx) keeps nothing: a retry runs again.
                if transient(exc):
                    if attempt < RETRIES:
                        attempt += 1
                        backoff(attempt)
                        continue
                    if not isinstance(exc, Busy):  # given up on at the COMMIT
                        raise Busy() from exc
                answer = error_response(exc)
                if answer is None or answer.status_code >= 500:
                    raise
                break
        try:
            with owned_transaction():
                _claim(record, answer, redact)
        except _Taken:
            return _replay(user, key, fingerprint)
        return answer

    wrapper.takes_idempotency_key = True  # type: ignore[attr-defined]  # for the schema
    return wrapper


def _claim(record: dict[str, Any], response: Response, redact: tuple[str, ...]) -> None:
    """Store the answer under the key; ``_Taken`` if the key was already taken (by a committed
    request, or by one still running, whose end this waits for). Inside the owned transaction:
    after a violation nothing more runs in it, and its owner rolls it all back."""
    try:
        IdempotencyRecord.objects.create(
            **record, status_code=response.status_code, response=_stored(response.data, redact)
        )
    except IntegrityError as err:
        name = getattr(getattr(err.__cause__, "diag", None), "constraint_name", None)
        if name is None or name == KEY_UNIQUE:  # SQLite names no constraint
            raise _Taken() from None
        raise


def _replay(user: Any, key: str, fingerprint: str) -> Response:
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
