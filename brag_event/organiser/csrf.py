"""A form that fails Django's CSRF check (``CSRF_FAILURE_VIEW``): said in words, and what was
typed is kept.

The usual cause is harmless: a console page stayed open while its user signed in again in
another tab, which gives the session a new CSRF token, so the open page's form carries the old
one. Django would answer with its own page, addressed to developers, and what was typed is lost.

Here, for a form of the console (``/organiser/``) sent from this site, the page the form was on
(the ``Referer``, else the form's own address) is drawn again as a ``GET`` by its own view —
with a fresh token, for whoever is signed in now — and a notice at its top says what happened;
the values that were sent go with it (``json_script``), and ``static/organiser/resend.js`` puts
them back into that form's fields. Nothing is sent again until the person presses the form's
own button. Passwords and files are never sent back to the page (a browser cannot be given a
file; the notice asks for it again).

The values are only offered for a form sent from this site: the browser's ``Origin`` header
named it, and Django's check of that origin passed (only the token failed). A form posted from
another site (a forged request) gets the plain page, with nothing of it shown back — it must
not become a page with somebody else's values one click away from being sent. Every other
failure, and every page outside the console, gets the plain page (``csrf_failure.html``); the
API keeps its error shape (``api.errors.csrf_failure``)."""

from __future__ import annotations

import copy
from typing import Any
from urllib.parse import urlsplit

from django.http import HttpRequest, HttpResponse, QueryDict
from django.middleware.csrf import REASON_BAD_ORIGIN
from django.template.loader import render_to_string
from django.urls import Resolver404, resolve
from django.utils import timezone

from brag_event.api.errors import csrf_failure as api_csrf_failure
from brag_event.events.middleware import event_zone_for
from brag_event.events.zones import zone

from .middleware import CONSOLE_PREFIX

CONSOLE_NAMESPACES = {"organiser", "floor", "integrity"}
NEVER_SHOWN = ("csrfmiddlewaretoken", "password")  # field names containing these are not kept


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    if request.path.startswith("/api/"):
        return api_csrf_failure(request, reason)  # type: ignore[no-any-return]
    if request.path.startswith(CONSOLE_PREFIX) and sent_from_here(request, reason):
        drawn = page_again(request)
        if drawn is not None:
            return drawn
    return HttpResponse(render_to_string("csrf_failure.html", request=request), status=403)


def sent_from_here(request: HttpRequest, reason: str) -> bool:
    """The browser said the form came from this site (``Origin``), and Django found that origin
    good: it checks the origin before the token, so any other reason means it passed."""
    return bool(request.META.get("HTTP_ORIGIN")) and not reason.startswith(
        REASON_BAD_ORIGIN.split("%")[0]
    )


def form_page(request: HttpRequest) -> tuple[str, str]:
    """The path and query of the page the form was on: the ``Referer`` if it is a console page
    of this site, else the form's own address."""
    referer = urlsplit(request.META.get("HTTP_REFERER", ""))
    if referer.netloc == request.get_host() and referer.path.startswith(CONSOLE_PREFIX):
        return referer.path, referer.query
    return request.path, ""


def posted_values(request: HttpRequest) -> dict[str, list[str]]:
    return {
        name: request.POST.getlist(name)
        for name in request.POST
        if not any(word in name.lower() for word in NEVER_SHOWN)
    }


def page_again(request: HttpRequest) -> HttpResponse | None:
    """The form's page drawn again by its own view, as a ``GET``, carrying what was sent; or
    ``None`` when that page cannot be drawn (not a console page, or it does not answer 200 with
    a page: the user was signed out meanwhile, say)."""
    path, query = form_page(request)
    try:
        match = resolve(path)
    except Resolver404:
        return None
    if not CONSOLE_NAMESPACES & set(match.namespaces):
        return None
    again = copy.copy(request)  # shares META: a new token sets the CSRF cookie on the answer
    again.method = "GET"
    again.path = again.path_info = path
    again.GET = QueryDict(query)
    again.POST = QueryDict()
    again.resolver_match = match
    again.brag_resend = {  # type: ignore[attr-defined]  # read by organiser/_resend.html
        "action": request.path,
        "fields": posted_values(request),
        "files": bool(request.FILES),
    }
    name = event_zone_for(match.kwargs)  # the page's times in its event's zone, as usual
    if name:
        timezone.activate(zone(name))
    response: Any = match.func(again, *match.args, **match.kwargs)
    if hasattr(response, "render") and not getattr(response, "is_rendered", True):
        response = response.render()
    if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
        return None
    response.status_code = 403  # what was sent was refused; the page is for sending it again
    return response  # type: ignore[no-any-return]
