"""A URL conf for the error-page tests: views that fail the ways Django turns into 403, 400, 500
and 503 answers, and the page of a form refused by the CSRF check, with everything of the
project's own URL conf (and its 500 handler) after them."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.db import OperationalError
from django.http import HttpRequest, HttpResponse
from django.urls import include, path

from brag_event.organiser.csrf import csrf_failure
from brag_event.urls import handler500  # noqa: F401  (read from the root URL conf)


def forbidden(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied("not for you")


def suspicious(request: HttpRequest) -> HttpResponse:
    raise SuspiciousOperation("a request no page can answer")


def boom(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("the error page test's own failure")


def csrf_failed(request: HttpRequest) -> HttpResponse:
    """What Django's CSRF check answers a form it refuses, outside the console."""
    return csrf_failure(request, reason="CSRF token from POST incorrect.")


def database_away(request: HttpRequest) -> HttpResponse:
    raise OperationalError("connection failed: server closed the connection unexpectedly")


urlpatterns = [
    path("test-errors/forbidden/", forbidden),
    path("test-errors/bad/", suspicious),
    path("test-errors/boom/", boom),
    path("test-errors/database-away/", database_away),
    path("test-errors/csrf/", csrf_failed),
    path("api/test-errors/database-away/", database_away),
    path("", include("brag_event.urls")),
]
