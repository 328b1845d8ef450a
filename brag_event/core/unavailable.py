"""The database away (a PostgreSQL restart, a failover): ``503`` with ``Retry-After``, said in
words, never a 500.

Two parts, both Django's own:

- ``CONN_HEALTH_CHECKS`` (settings, on unless ``BRAG_DB_HEALTH_CHECKS=false``): a worker keeps
  its connection between requests (``CONN_MAX_AGE``), and Django checks a kept connection
  before the first query of each request, replacing it if it died. After a restart no request
  meets the dead connection of the PostgreSQL that was.
- ``server_error``, the URL configuration's ``handler500``: every exception nothing else
  answered reaches it, whether a view raised it or a middleware did (the event's time zone is
  looked up before the view runs). While the database cannot be reached it answers ``503``
  with ``Retry-After`` — the API's error shape under ``/api/``, a page elsewhere — and logs one
  line, not a traceback; every other failure keeps Django's 500 page and its logged traceback.

The API's views answer the same ``503 database_unavailable`` through their own exception
handler (``api.errors``)."""

from __future__ import annotations

import logging
import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.views import defaults

log = logging.getLogger("brag_event.db")

DATABASE_UNAVAILABLE = "database_unavailable"
DATABASE_AWAY = "The server could not reach its database; nothing was saved. Try again."
RETRY_AFTER = "1"  # seconds: a restart takes about that long


def database_away(exc: BaseException | None) -> bool:
    """Whether ``exc`` means the database could not be reached or dropped the connection (a
    restart, a failover) — the same request can simply be sent again."""
    return isinstance(exc, OperationalError | InterfaceError)


def unavailable_response(request: HttpRequest) -> HttpResponse:
    """``503`` with ``Retry-After``: ``{"error": …}`` under ``/api/``, the page elsewhere."""
    response: HttpResponse
    if request.path.startswith("/api/"):
        body = {"error": {"code": DATABASE_UNAVAILABLE, "message": DATABASE_AWAY, "details": {}}}
        response = JsonResponse(body, status=503)
    else:
        # Rendered without the request: no context processor may reach for the database.
        page = loader.get_template("503.html").render({})
        response = HttpResponse(page, status=503)
    response["Retry-After"] = RETRY_AFTER
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: 503 for a database that is away (see the module's docstring), else
    Django's own 500 page (``500.html``)."""
    exc = sys.exc_info()[1]  # called while Django handles the exception
    if not database_away(exc):
        return defaults.server_error(request)
    log.warning("database unavailable: %s %s: %s", request.method, request.path, exc)
    response = unavailable_response(request)
    # Logged above in one line: Django's handler would log it again as an error with the
    # traceback (django.utils.log.log_response reads this mark).
    response._has_been_logged = True  # type: ignore[attr-defined]
    return response
