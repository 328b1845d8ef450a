"""Query strings that no page can use, and bodies sent in chunks, refused before any view sees
them."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse

# Django's admin passes its list filters straight to the database, where PostgreSQL refuses a
# NUL character in text (a 500), and parses its date hierarchy (``…__year=``) with ``int()`` and
# ``datetime()``, where a 30-digit year raises OverflowError (a 500). Our own pages read their
# query strings through forms (core/forms.py); these two holes are Django's admin's (and
# django-axes' admin's), so they are closed here, for every page, on the raw query string.
_NUL = re.compile(r"%00", re.IGNORECASE)
_DATE_PART = re.compile(r"(?:^|&)[^=&]*__(?:year|month|day)=([^&]*)")
_SHORT_NUMBER = re.compile(r"[0-9]{1,4}")


class QueryStringGuard:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        query = request.META.get("QUERY_STRING", "")
        if query and (
            _NUL.search(query)
            or any(not _SHORT_NUMBER.fullmatch(v) for v in _DATE_PART.findall(query))
        ):
            message = "The address has a character or a date no page can use."
            if request.path.startswith("/api/"):
                body = {"error": {"code": "invalid_query", "message": message, "details": {}}}
                return JsonResponse(body, status=400)
            return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")
        return self.get_response(request)


LENGTH_REQUIRED = (
    "The request's body was sent in chunks, without its length; nothing was saved. "
    "Send it again with a Content-Length."
)


class ChunkedBodyGuard:
    """A body sent with ``Transfer-Encoding: chunked`` and no ``Content-Length`` is refused with
    ``411 length_required``. Django reads a WSGI body only as far as ``Content-Length`` says, so
    such a body reached the views as empty: a write answered a misleading "field missing" (400).
    nginx (deploy/) reassembles chunked bodies and sends their length, so only a client that
    talks to gunicorn directly meets this; the answer tells it what to do."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        meta = request.META
        if "chunked" in meta.get("HTTP_TRANSFER_ENCODING", "").lower() and not meta.get(
            "CONTENT_LENGTH"
        ):
            response: HttpResponse
            if request.path.startswith("/api/"):
                body = {
                    "error": {"code": "length_required", "message": LENGTH_REQUIRED, "details": {}}
                }
                response = JsonResponse(body, status=411)
            else:
                response = HttpResponse(
                    LENGTH_REQUIRED, status=411, content_type="text/plain; charset=utf-8"
                )
            response["Connection"] = "close"  # the unread chunks must not be taken for a request
            return response
        return self.get_response(request)
