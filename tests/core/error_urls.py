"""A URL conf for the error-page tests: views that fail the ways Django turns into 403, 400 and
500 answers, with everything of the project's own URL conf after them."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.http import HttpRequest, HttpResponse
from django.urls import include, path


def forbidden(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied("not for you")


def suspicious(request: HttpRequest) -> HttpResponse:
    raise SuspiciousOperation("a request no page can answer")


def boom(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("the error page test's own failure")


urlpatterns = [
    path("test-errors/forbidden/", forbidden),
    path("test-errors/bad/", suspicious),
    path("test-errors/boom/", boom),
    path("", include("brag_event.urls")),
]
