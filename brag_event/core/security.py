"""Logins: who is locked out, the answer they get, and an organiser lifting a lockout.

django-axes counts failed logins (see ``settings.py``, "security"): every call of Django's
``authenticate()`` goes through it, whichever page or API called it. This module gives it the
client's address the same way the API's throttle reads it, answers a locked-out login in the
API's error shape under ``/api/`` and with a page elsewhere, and lists and lifts lockouts for the
organisers' page."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from axes.models import AccessAttempt, AccessFailureLog
from axes.signals import user_locked_out
from django.conf import settings
from django.db.models import Sum
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from rest_framework.throttling import BaseThrottle

from brag_event.audit.models import Verb
from brag_event.audit.services import audit_record
from brag_event.core.words import counted

from .actors import Actor
from .errors import NotFound
from .transactions import service_transaction

log = logging.getLogger("brag_event.security")

LOCKED_CODE = "login_locked"


def client_ip(request: HttpRequest) -> str | None:
    """The client's address: ``REMOTE_ADDR``, or the address the trusted proxies forwarded
    (``BRAG_NUM_PROXIES``) — DRF's own rule, so the login lockout and the API's throttle count
    the same client."""
    ident: str | None = BaseThrottle().get_ident(request)  # type: ignore[arg-type]
    return ident or None


def lockout_minutes() -> int:
    return int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)


def lockout_message() -> str:
    return (
        f"Too many wrong passwords: this login is locked for "
        f"{counted(lockout_minutes(), 'minute')}. "
        "An organiser can lift the lock sooner."
    )


def lockout_response(
    request: HttpRequest, original_response: Any = None, credentials: Any = None
) -> HttpResponse:
    """django-axes' answer to a locked-out login (``AXES_LOCKOUT_CALLABLE``)."""
    retry = int(settings.AXES_COOLOFF_TIME.total_seconds())
    response: HttpResponse
    if request.path.startswith("/api/"):
        body = {
            "error": {
                "code": LOCKED_CODE,
                "message": lockout_message(),
                "details": {"retry_after": retry},
            }
        }
        response = JsonResponse(body, status=429)
    else:
        context = {"message": lockout_message(), "minutes": lockout_minutes()}
        response = render(request, "locked_out.html", context, status=429)
    response["Retry-After"] = str(retry)
    return response


@receiver(user_locked_out)
def _log_lockout(sender: Any, request: Any = None, username: Any = None, **kwargs: Any) -> None:
    """Every lockout in the audit log too (django-axes logs it and keeps the attempts)."""
    address = kwargs.get("ip_address") or ""
    agent = request.META.get("HTTP_USER_AGENT", "")[:80] if request is not None else ""
    audit_record(
        by=Actor(None, f"web {address} {agent}".strip()),
        verb=Verb.LOGIN_LOCKED_OUT,
        target=str(username or "")[:120],
        data={"ip_address": address, "path": getattr(request, "path", "")[:200]},
    )


@dataclass(frozen=True)
class Lockout:
    """A user name locked out from an address (or close to it), as organisers see it."""

    username: str
    ip_address: str
    failures: int
    last_attempt: datetime
    locked: bool
    until: datetime | None


def login_lockouts() -> list[Lockout]:
    """Failed logins still counting (inside the cool-off time), most recent first; ``locked``
    once they reached the limit."""
    since = timezone.now() - settings.AXES_COOLOFF_TIME
    rows = (
        AccessAttempt.objects.filter(attempt_time__gte=since)
        .values("username", "ip_address")
        .annotate(failures=Sum("failures_since_start"))
        .order_by()
    )
    last = {
        (a.username, a.ip_address): a.attempt_time
        for a in AccessAttempt.objects.filter(attempt_time__gte=since).order_by("attempt_time")
    }
    out = []
    for row in rows:
        key = (row["username"], row["ip_address"])
        at = last[key]
        locked = row["failures"] >= settings.AXES_FAILURE_LIMIT
        out.append(
            Lockout(
                username=row["username"] or "",
                ip_address=row["ip_address"] or "",
                failures=row["failures"],
                last_attempt=at,
                locked=locked,
                until=at + settings.AXES_COOLOFF_TIME if locked else None,
            )
        )
    return sorted(out, key=lambda x: (not x.locked, -x.last_attempt.timestamp()))


def login_failures_recent(limit: int = 50) -> list[AccessFailureLog]:
    """The latest failed logins, kept by django-axes (``AXES_ENABLE_ACCESS_FAILURE_LOG``)."""
    return list(AccessFailureLog.objects.order_by("-attempt_time")[:limit])


@service_transaction
def login_unlock(*, username: str, ip_address: str, by: Actor) -> int:
    """Lift the lockout of a user name from an address; the number of attempts forgotten."""
    attempts = AccessAttempt.objects.filter(username=username, ip_address=ip_address)
    count = attempts.count()
    if not count:
        raise NotFound("no_lockout", "Nothing is locked for that user name and address.")
    attempts.delete()
    audit_record(
        by=by,
        verb=Verb.LOGIN_UNLOCK,
        target=username[:120],
        data={"ip_address": ip_address, "attempts": count},
    )
    log.warning("login of %r from %s unlocked by %s", username, ip_address, by.user)
    return count
